import type { MarkdownContext } from './markdown-context.js';

/** HTML tables -> GFM pipe tables; layout tables (nesting, one column, big cells) -> their blocks. */

type BlockConverter = (element: Element, context: MarkdownContext) => string[];

function ownRows(table: HTMLTableElement): HTMLTableRowElement[] {
  return Array.from(table.rows);
}

function isLayoutTable(table: HTMLTableElement, rows: HTMLTableRowElement[]): boolean {
  if (rows.length === 0) return true;
  if (table.querySelector('table')) return true;
  if (table.getAttribute('role') === 'presentation') return true;
  const columns = Math.max(...rows.map((row) => row.cells.length));
  if (columns <= 1) return true;
  return table.querySelector('td h1, td h2, td h3, td h4, td h5, td h6, td blockquote, td pre, td p + p + p') !== null;
}

function cellText(cell: Element, context: MarkdownContext, convert: BlockConverter): string {
  return convert(cell, context)
    .join('<br>')
    .replace(/\n+/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
}

export function serializeTable(table: HTMLTableElement, context: MarkdownContext, convert: BlockConverter): string[] {
  const rows = ownRows(table).filter((row) => context.keep(row));
  if (isLayoutTable(table, rows)) {
    const blocks: string[] = [];
    for (const row of rows) for (const cell of Array.from(row.cells)) if (context.keep(cell)) blocks.push(...convert(cell, context));
    return blocks;
  }
  const grid = rows.map((row) => {
    const cells: string[] = [];
    for (const cell of Array.from(row.cells)) {
      const text = context.keep(cell) ? cellText(cell, context, convert) : '';
      cells.push(text);
      for (let span = 1; span < Math.min(cell.colSpan, 20); span++) cells.push('');
    }
    return cells;
  }).filter((cells) => cells.some((cell) => cell.length > 0));
  if (grid.length === 0) return [];
  const width = Math.max(...grid.map((cells) => cells.length));
  const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, i) => cells[i] ?? '').join(' | ')} |`;
  const [header = [], ...body] = grid;
  const caption = table.caption ? convert(table.caption, context) : [];
  return [...caption, [line(header), line(Array(width).fill('---')), ...body.map(line)].join('\n')];
}
