/** Where a command writes: results on stdout, notes and warnings on stderr. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Everything piped to the command, for secrets that must not appear in the process list. */
  readStdin(): Promise<string>;
}

export const processIo: CliIo = {
  out: (text) => void process.stdout.write(`${text}\n`),
  err: (text) => void process.stderr.write(`${text}\n`),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
};

type Cell = string | number | boolean | null | undefined;

function show(value: Cell): string {
  if (value === null || value === undefined || value === '') return '-';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

/** Rows as an aligned text table under a header line; `-` for empty cells. */
export function formatTable(rows: Array<Record<string, Cell>>, columns: string[]): string {
  const cells = [columns, ...rows.map((row) => columns.map((column) => show(row[column])))];
  const widths = columns.map((_, index) => Math.max(...cells.map((line) => line[index]!.length)));
  return cells.map((line) => line.map((cell, index) => cell.padEnd(widths[index]!)).join('  ').trimEnd()).join('\n');
}

/** `key: value` lines, aligned, for one record. */
export function formatRecord(record: Record<string, Cell>): string {
  const width = Math.max(...Object.keys(record).map((key) => key.length));
  return Object.entries(record)
    .map(([key, value]) => `${`${key}:`.padEnd(width + 1)} ${show(value)}`)
    .join('\n');
}
