import { escapeInline, escapeLineStart, finishMarkdown, hasLetter } from '../extract/in-page/text.js';
import { dominantSize, type TextLine } from './pdf-layout.js';
import { findTables } from './pdf-tables.js';

/**
 * Lines in reading order -> markdown blocks. A line set clearly larger than the body text is a
 * heading (sizes ranked: the largest `#`); lines join into a paragraph until a wider gap than
 * the usual line pitch, a line broken early (its next line's first word would have fitted), a
 * first-line indent, or a change of size; a page or column break does not end a paragraph
 * whose last line ran full. Lines opening with a bullet or a number are list items; indented
 * lines at one x, each broken early, are a list whose bullets were drawn rather than written
 * (as a browser prints them). Tables come from pdf-tables.ts.
 */

/** A line this much larger than the body text is a heading. */
const HEADING_RATIO = 1.15;
/** Headings are short: a longer line of large text is a pull quote or a cover. */
const HEADING_MAX_CHARS = 200;
/** Heading levels past this many sizes share the last level. */
const MAX_HEADING_LEVEL = 3;
/** A gap this many times the usual line pitch separates paragraphs. */
const PARAGRAPH_GAP_RATIO = 1.4;
/** A first line indented this many ems starts a paragraph; an indented list sits at least this far in. */
const INDENT_EM = 0.8;
/** Sizes differing by more than this many points are different kinds of text. */
const SIZE_STEP = 1;

const BULLET = /^([•◦▪▫‣∙●○■□►▸\uf0b7\uf0a7\uf076\uf0d8\uf0fc·*–—-])\s+(?=\S)/;
/** Bullets that are never the start of a sentence; the others (dashes, `*`) need a line that starts a block. */
const SURE_BULLET = /^[•◦▪▫‣∙●○■□►▸\uf0b7\uf0a7\uf076\uf0d8\uf0fc·]/;
const ORDERED = /^(?:(\d{1,3})[.)]|\((\d{1,3})\)|([a-z])\)|\(([a-z])\)|([ivx]{1,6})[.)])\s+(?=\S)/;

interface Marker {
  /** The number of a numbered item; a letter or a roman numeral is kept as written. */
  number?: number;
  label?: string;
  length: number;
}

interface ListItem {
  marker: Marker;
  x: number;
  lines: TextLine[];
}

type Block =
  | { type: 'heading'; size: number; lines: TextLine[] }
  | { type: 'paragraph'; lines: TextLine[]; softItemOf?: Block }
  | { type: 'list'; items: ListItem[] }
  | { type: 'table'; rows: string[][] };

interface Region {
  left: number;
  right: number;
}

interface Geometry {
  bodySize: number;
  pitch: number;
  regions: Map<string, Region>;
}

const regionKey = (line: TextLine) => `${line.page}:${line.column}`;

/** The markdown of the lines, and the text of the first heading. */
export function linesToMarkdown(lines: TextLine[]): { markdown: string; firstHeading: string } {
  const geometry = measure(lines);
  const blocks = softLists(buildBlocks(lines, geometry), geometry);
  const levels = headingLevels(blocks);
  const markdown = finishMarkdown(blocks.map((block) => renderBlock(block, levels)).filter(Boolean).join('\n\n'));
  const heading = blocks.find((block) => block.type === 'heading');
  return { markdown, firstHeading: heading?.type === 'heading' ? joinLines(heading.lines) : '' };
}

function measure(lines: TextLine[]): Geometry {
  const bodySize = dominantSize(lines) || 10;
  const isBody = (line: TextLine) => Math.abs(line.size - bodySize) <= SIZE_STEP;
  const pitches: number[] = [];
  for (let index = 1; index < lines.length; index++) {
    const [above, line] = [lines[index - 1]!, lines[index]!];
    const pitch = line.y - above.y;
    if (regionKey(above) === regionKey(line) && isBody(above) && isBody(line) && pitch > 0.8 * bodySize && pitch < 2.5 * bodySize) pitches.push(pitch);
  }
  pitches.sort((a, b) => a - b);
  const regions = new Map<string, Region>();
  const byRegion = new Map<string, TextLine[]>();
  for (const line of lines.filter(isBody)) {
    const regionLines = byRegion.get(regionKey(line)) ?? [];
    regionLines.push(line);
    byRegion.set(regionKey(line), regionLines);
  }
  for (const [key, regionLines] of byRegion) {
    const starts = new Map<number, number>();
    for (const line of regionLines) starts.set(Math.round(line.x0), (starts.get(Math.round(line.x0)) ?? 0) + 1);
    const left = [...starts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
    regions.set(key, { left, right: Math.max(...regionLines.map((line) => line.x1)) });
  }
  return { bodySize, pitch: pitches[Math.floor(pitches.length / 2)] ?? 1.2 * bodySize, regions };
}

function regionOf(line: TextLine, geometry: Geometry): Region {
  return geometry.regions.get(regionKey(line)) ?? { left: line.x0, right: line.x1 };
}

function buildBlocks(lines: TextLine[], geometry: Geometry): Block[] {
  const tables = new Map(findTables(lines).map((table) => [table.start, table]));
  const blocks: Block[] = [];
  const isHeading = (line: TextLine) => line.size >= geometry.bodySize * HEADING_RATIO && line.text.length <= HEADING_MAX_CHARS && hasLetter(line.text);
  for (let index = 0; index < lines.length; index++) {
    const table = tables.get(index);
    if (table) {
      blocks.push({ type: 'table', rows: table.rows });
      index = table.end;
      continue;
    }
    const line = lines[index]!;
    const last = blocks[blocks.length - 1];
    const above = index > 0 && !tables.has(index - 1) && last?.type !== 'table' ? lines[index - 1] : undefined;
    if (isHeading(line)) {
      if (last?.type === 'heading' && above && continuesHeading(above, line)) last.lines.push(line);
      else blocks.push({ type: 'heading', size: line.size, lines: [line] });
      continue;
    }
    const startsBlock = !above || last?.type === 'heading' || !sameFlow(above, line, geometry) || brokeEarly(above, line, geometry);
    const marker = listMarker(line.text, startsBlock || last?.type === 'list');
    if (marker) {
      const item: ListItem = { marker, x: line.x0, lines: [line] };
      if (last?.type === 'list' && above && sameFlow(above, line, geometry)) last.items.push(item);
      else blocks.push({ type: 'list', items: [item] });
      continue;
    }
    if (last?.type === 'list' && above && continuesItem(last.items[last.items.length - 1]!, above, line, geometry)) {
      last.items[last.items.length - 1]!.lines.push(line);
      continue;
    }
    if (last?.type === 'paragraph' && above && continuesParagraph(above, line, geometry)) {
      last.lines.push(line);
      continue;
    }
    const softItemOf = last?.type === 'paragraph' && above && isSoftItemBreak(above, line, geometry) ? last : undefined;
    blocks.push({ type: 'paragraph', lines: [line], ...(softItemOf ? { softItemOf } : {}) });
  }
  return blocks;
}

function continuesHeading(above: TextLine, line: TextLine): boolean {
  return regionKey(above) === regionKey(line) && Math.abs(above.size - line.size) <= SIZE_STEP / 2 && line.y - above.y <= 1.8 * line.size;
}

/** The next line in the same column of the same page, at about the usual distance. */
function sameFlow(above: TextLine, line: TextLine, geometry: Geometry): boolean {
  if (regionKey(above) !== regionKey(line)) return false;
  const gap = line.y - above.y;
  return gap > 0 && gap <= PARAGRAPH_GAP_RATIO * Math.max(geometry.pitch, 1.1 * line.size);
}

/**
 * The first word's width is estimated from its line's average character, which is off by a
 * fifth either way for a short line ("followed it." is narrower per letter than "followed"):
 * a line counts as broken early only when the word would have fitted with this much to spare.
 */
const FIT_MARGIN = 1.25;

/** Whether `above` ended before its column's edge for a reason: `line`'s first word would have fitted after it. */
function brokeEarly(above: TextLine, line: TextLine, geometry: Geometry): boolean {
  const firstWord = line.text.split(' ')[0] ?? '';
  const charWidth = (line.x1 - line.x0) / Math.max(1, line.text.length);
  return above.x1 + FIT_MARGIN * charWidth * (firstWord.length + 1) < regionOf(above, geometry).right - 1;
}

function continuesParagraph(above: TextLine, line: TextLine, geometry: Geometry): boolean {
  if (Math.abs(above.size - line.size) > SIZE_STEP) return false;
  const region = regionOf(line, geometry);
  const indented = line.x0 > region.left + INDENT_EM * line.size && line.x0 > above.x0 + INDENT_EM * line.size;
  // A word hyphenated over the break goes on whatever the line lengths say.
  const ranOn = (/\p{L}-$/u.test(above.text) && /^\p{Ll}/u.test(line.text)) || !brokeEarly(above, line, geometry);
  if (regionKey(above) !== regionKey(line)) {
    // A page or column break: the paragraph goes on when its last line ran to the edge.
    return ranOn && !indented && above.x1 >= regionOf(above, geometry).right - 2 * line.size;
  }
  return sameFlow(above, line, geometry) && ranOn && !indented;
}

function continuesItem(item: ListItem, above: TextLine, line: TextLine, geometry: Geometry): boolean {
  if (Math.abs(above.size - line.size) > SIZE_STEP || line.x0 < item.x + 0.5 * line.size) return false;
  if (regionKey(above) !== regionKey(line)) return !brokeEarly(above, line, geometry);
  return sameFlow(above, line, geometry) && !brokeEarly(above, line, geometry);
}

/** A line broken early right above, both indented at one x, at the usual distance: the next item of a list without written bullets. */
function isSoftItemBreak(above: TextLine, line: TextLine, geometry: Geometry): boolean {
  const region = regionOf(line, geometry);
  return (
    sameFlow(above, line, geometry) &&
    Math.abs(above.x0 - line.x0) <= 1.5 &&
    line.x0 >= region.left + INDENT_EM * line.size &&
    Math.abs(above.size - line.size) <= SIZE_STEP
  );
}

/** The list marker opening a line; dashes and numbers only where a block may start. */
function listMarker(text: string, mayStartBlock: boolean): Marker | null {
  const bullet = BULLET.exec(text);
  if (bullet && (mayStartBlock || SURE_BULLET.test(text))) return { length: bullet[0].length };
  const ordered = mayStartBlock ? ORDERED.exec(text) : null;
  if (!ordered) return null;
  const number = ordered[1] ?? ordered[2];
  if (number !== undefined) return { number: Number(number), length: ordered[0].length };
  return { label: ordered[0].trim(), length: ordered[0].length };
}

/**
 * Paragraphs chained as soft items (indented at one x, each broken early, no gap between them)
 * become one list when there are two or more, and every line of them stands at that x.
 */
function softLists(blocks: Block[], geometry: Geometry): Block[] {
  const out: Block[] = [];
  for (let index = 0; index < blocks.length; index++) {
    const first = blocks[index]!;
    let end = index;
    while (end + 1 < blocks.length) {
      const next = blocks[end + 1]!;
      if (next.type !== 'paragraph' || next.softItemOf !== blocks[end]) break;
      end++;
    }
    const chain = blocks.slice(index, end + 1) as Extract<Block, { type: 'paragraph' }>[];
    const x = first.type === 'paragraph' ? first.lines[0]!.x0 : 0;
    const indented = first.type === 'paragraph' && first.lines[0]!.x0 >= regionOf(first.lines[0]!, geometry).left + INDENT_EM * first.lines[0]!.size;
    if (chain.length >= 2 && indented && chain.every((block) => block.lines.every((line) => Math.abs(line.x0 - x) <= 1.5))) {
      out.push({ type: 'list', items: chain.map((block) => ({ marker: { length: 0 }, x, lines: block.lines })) });
      index = end;
    } else out.push(first);
  }
  return out;
}

/** Heading sizes ranked, largest first: level 1, 2, 3 (and 3 for any smaller). */
function headingLevels(blocks: Block[]): Map<number, number> {
  const sizes = [...new Set(blocks.flatMap((block) => (block.type === 'heading' ? [Math.round(block.size)] : [])))].sort((a, b) => b - a);
  return new Map(sizes.map((size, index) => [size, Math.min(index + 1, MAX_HEADING_LEVEL)]));
}

function renderBlock(block: Block, levels: Map<number, number>): string {
  switch (block.type) {
    case 'heading':
      return `${'#'.repeat(levels.get(Math.round(block.size)) ?? MAX_HEADING_LEVEL)} ${escapeInline(joinLines(block.lines))}`;
    case 'paragraph':
      return escapeLineStart(escapeInline(joinLines(block.lines)));
    case 'list':
      return renderList(block.items);
    case 'table':
      return renderTable(block.rows);
  }
}

function renderList(items: ListItem[]): string {
  const stops = [...new Set(items.map((item) => Math.round(item.x)))].sort((a, b) => a - b);
  const levelOf = (x: number) => {
    let level = 0;
    for (let index = 1; index < stops.length; index++) if (x >= stops[index]! - 3 && stops[index]! - stops[level]! > 3) level = index;
    return Math.min(level, 5);
  };
  return items
    .map((item) => {
      const text = joinLines(item.lines).slice(item.marker.length);
      const marker = item.marker.number !== undefined ? `${item.marker.number}.` : item.marker.label ? `- ${item.marker.label}` : '-';
      return `${'    '.repeat(levelOf(item.x))}${marker} ${escapeInline(text)}`;
    })
    .join('\n');
}

function renderTable(rows: string[][]): string {
  const width = Math.max(...rows.map((row) => row.length));
  const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, index) => escapeInline(cells[index] ?? '').replace(/\|/g, '\\|')).join(' | ')} |`;
  const [header = [], ...body] = rows;
  return [line(header), line(Array<string>(width).fill('---')), ...body.map(line)].join('\n');
}

/** Lines of one block as one text: a word hyphenated at a line's end is joined again. */
export function joinLines(lines: TextLine[]): string {
  let text = '';
  for (const line of lines) {
    const next = line.text.trim();
    if (text === '') text = next;
    else if (/\p{L}-$/u.test(text) && /^\p{Ll}/u.test(next)) text = text.slice(0, -1) + next;
    else if (text.endsWith('\u00ad')) text = text.slice(0, -1) + next;
    else text += ` ${next}`;
  }
  return text;
}
