import type { TextLine, TextRun } from './pdf-layout.js';

/**
 * Tables in a PDF's text layer: consecutive lines cut into runs at wide gaps, whose runs stand
 * in the same columns from row to row. Columns are found by projection: an x that no row's
 * run covers (or only one in four, where a reader glued two cells into one piece) separates
 * two columns, whatever each column's alignment.
 */

export interface FoundTable {
  /** Index of its first and last line. */
  start: number;
  end: number;
  rows: string[][];
}

/** A table has at least this many rows (a header and two). */
const MIN_ROWS = 3;
/** Rows of one table are at most this many ems apart. */
const MAX_ROW_GAP_EM = 3;
/** An x covered by at most this share of the rows still separates two columns. */
const SEPARATOR_SHARE = 0.25;
/**
 * A separator at least this many ems wide: the gaps a justified line stretches (up to about
 * 0.8 em, wide enough to cut runs) meet at one x in every row only by a narrow chance.
 */
const MIN_SEPARATOR_EM = 0.4;
/** At most this many columns: more is a layout a projection cannot read. */
const MAX_COLUMNS = 12;
/** Most rows fill at least two cells. */
const FILLED_ROWS_SHARE = 0.75;
/** A line this close to the one above (share of the usual row pitch) is a wrapped cell of the same row. */
const WRAPPED_ROW_SHARE = 0.8;

/** A list marker alone in a run (a bullet set apart from its item by a tab). */
const MARKER_RUN = /^(?:[•◦▪▫‣∙●○■□►▸–—\-*·\uf0b7\uf0a7]|\(?\d{1,3}[.)]|\(?[a-z][.)])$/;

export function findTables(lines: TextLine[]): FoundTable[] {
  const tables: FoundTable[] = [];
  for (let start = 0; start < lines.length; ) {
    const end = candidateEnd(lines, start);
    const table = end - start + 1 >= MIN_ROWS ? tableOf(lines.slice(start, end + 1)) : null;
    if (table) {
      tables.push({ start, end, rows: table });
      start = end + 1;
    } else start++;
  }
  return tables;
}

const isRowLike = (line: TextLine) => line.runs.length >= 2 && !MARKER_RUN.test(line.runs[0]!.text);

/** The last line of the run of row-like lines starting at `start` (start - 1 when it is not one). */
function candidateEnd(lines: TextLine[], start: number): number {
  if (!isRowLike(lines[start]!)) return start - 1;
  let end = start;
  while (end + 1 < lines.length) {
    const next = lines[end + 1]!;
    const last = lines[end]!;
    const near = next.page === last.page && next.column === last.column && next.y > last.y && next.y - last.y <= MAX_ROW_GAP_EM * last.size;
    if (!near) break;
    if (isRowLike(next)) end++;
    else break;
  }
  return end;
}

/** The table's cells, or null when the lines do not line up as a table. */
function tableOf(lines: TextLine[]): string[][] | null {
  const columns = columnsOf(lines);
  if (columns.length < 2 || columns.length > MAX_COLUMNS) return null;
  let rows = lines.map((line) => ({ y: line.y, cells: cellsOf(line.runs, columns) }));
  if (rows.filter((row) => row.cells.filter((cell) => cell !== '').length >= 2).length < FILLED_ROWS_SHARE * rows.length) return null;
  rows = mergeWrappedRows(rows);
  return rows.map((row) => row.cells);
}

/** Column extents: the stretches of x between separators. */
function columnsOf(lines: TextLine[]): { x0: number; x1: number }[] {
  const start = Math.floor(Math.min(...lines.map((line) => line.x0)));
  const end = Math.ceil(Math.max(...lines.map((line) => line.x1)));
  const cover = new Array<number>(end - start + 1).fill(0);
  for (const line of lines) {
    for (const run of line.runs) for (let x = Math.ceil(run.x0); x <= Math.floor(run.x1); x++) cover[x - start]!++;
  }
  const allowed = Math.floor(SEPARATOR_SHARE * lines.length);
  const minSeparator = MIN_SEPARATOR_EM * Math.min(...lines.map((line) => line.size));
  const stretches: { x0: number; x1: number }[] = [];
  let open: number | null = null;
  for (let index = 0; index <= cover.length; index++) {
    const covered = index < cover.length && cover[index]! > allowed;
    if (covered && open === null) open = index;
    if (!covered && open !== null) {
      const last = stretches[stretches.length - 1];
      if (last && start + open - last.x1 - 1 < minSeparator) last.x1 = start + index - 1;
      else stretches.push({ x0: start + open, x1: start + index - 1 });
      open = null;
    }
  }
  return stretches;
}

/** A row's runs in the columns: a run over a separator is cut at the space nearest to it. */
function cellsOf(runs: TextRun[], columns: { x0: number; x1: number }[]): string[] {
  const cells = columns.map(() => [] as string[]);
  for (const run of runs) {
    for (const piece of splitAtSeparators(run, columns)) cells[columnOf(piece, columns)]!.push(piece.text);
  }
  return cells.map((parts) => parts.join(' ').trim());
}

/** The column a piece overlaps most (a header wider than its column's cells reaches past them), else the nearest. */
function columnOf(piece: TextRun, columns: { x0: number; x1: number }[]): number {
  let best = 0;
  let bestScore = -Infinity;
  columns.forEach((column, index) => {
    const overlap = Math.min(piece.x1, column.x1) - Math.max(piece.x0, column.x0);
    if (overlap > bestScore) [best, bestScore] = [index, overlap];
  });
  return best;
}

/** The run in pieces, one per column it spans; character positions are estimated from the run's width. */
function splitAtSeparators(run: TextRun, columns: { x0: number; x1: number }[]): TextRun[] {
  const inside = columns.filter((column) => column.x1 >= run.x0 && column.x0 <= run.x1);
  if (inside.length < 2) return [run];
  const perChar = (run.x1 - run.x0) / Math.max(1, run.text.length);
  const pieces: TextRun[] = [];
  let from = 0;
  for (let index = 1; index < inside.length; index++) {
    const separator = (inside[index - 1]!.x1 + inside[index]!.x0) / 2;
    const target = (separator - run.x0) / perChar;
    let best = -1;
    for (let at = from; at < run.text.length; at++) if (run.text[at] === ' ' && (best < 0 || Math.abs(at - target) < Math.abs(best - target))) best = at;
    if (best < 0) break;
    pieces.push({ text: run.text.slice(from, best), x0: run.x0 + from * perChar, x1: run.x0 + best * perChar });
    from = best + 1;
  }
  pieces.push({ text: run.text.slice(from), x0: run.x0 + from * perChar, x1: run.x1 });
  return pieces.filter((piece) => piece.text.trim() !== '');
}

/** Rows closer than the usual row pitch are one row's wrapped cells: their text joins the row above. */
function mergeWrappedRows(rows: { y: number; cells: string[] }[]): { y: number; cells: string[] }[] {
  const pitches = rows.slice(1).map((row, index) => row.y - rows[index]!.y).sort((a, b) => a - b);
  const usual = pitches[Math.floor(pitches.length / 2)] ?? 0;
  const merged: { y: number; cells: string[] }[] = [];
  for (const row of rows) {
    const above = merged[merged.length - 1];
    if (above && row.y - above.y < WRAPPED_ROW_SHARE * usual) {
      above.cells = above.cells.map((cell, index) => [cell, row.cells[index] ?? ''].filter(Boolean).join(' '));
      above.y = row.y;
    } else merged.push({ ...row });
  }
  return merged;
}
