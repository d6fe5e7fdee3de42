import { escapeInline } from '../extract/in-page/text.js';
import { fenced } from './reading.js';

/**
 * CSV (RFC 4180: quoted fields, doubled quotes, line breaks inside quotes) as a markdown table
 * when it is small and regular enough to read as one; otherwise as it is, in a fence.
 */

/** More rows than this read better as the file itself than as a table nobody scrolls. */
const TABLE_MAX_ROWS = 200;
/** More columns than this make pipe-table lines too wide to read. */
const TABLE_MAX_COLUMNS = 20;
/** A cell this long (a paragraph in a cell) breaks a table's lines. */
const TABLE_MAX_CELL_CHARS = 200;

export function csvMarkdown(text: string, delimiter: ',' | '\t'): string {
  const body = text.trim();
  if (body === '') return '';
  const rows = parseCsv(body, delimiter, TABLE_MAX_ROWS + 1);
  if (rows && isRegular(rows)) return pipeTable(rows);
  return fenced(body, delimiter === '\t' ? 'tsv' : 'csv');
}

function isRegular(rows: string[][]): boolean {
  const width = rows[0]?.length ?? 0;
  if (rows.length < 2 || rows.length > TABLE_MAX_ROWS || width < 2 || width > TABLE_MAX_COLUMNS) return false;
  return rows.every((row) => row.length === width && row.every((cell) => cell.length <= TABLE_MAX_CELL_CHARS));
}

function pipeTable(rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map((cell) => escapeInline(cell.replace(/\s*\n\s*/g, ' ').trim()).replace(/\|/g, '\\|')).join(' | ')} |`;
  const [header = [], ...body] = rows;
  return [line(header), line(header.map(() => '---')), ...body.map(line)].join('\n');
}

/**
 * The rows of a CSV text; null past `maxRows` rows (the caller fences it then) or when a quote
 * is never closed.
 */
export function parseCsv(text: string, delimiter: string, maxRows: number): string[][] | null {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted) {
      if (char !== '"') field += char;
      else if (text[index + 1] === '"') {
        field += '"';
        index++;
      } else quoted = false;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === delimiter) {
      row.push(field);
      field = '';
    } else if (char === '\n') {
      row.push(field);
      rows.push(row);
      if (rows.length > maxRows) return null;
      row = [];
      field = '';
    } else if (char !== '\r') field += char;
  }
  if (quoted) return null;
  row.push(field);
  rows.push(row);
  return rows.length > maxRows ? null : rows;
}
