/**
 * A PDF page's text layer is a bag of positioned text pieces; this puts them in reading order.
 * Pieces on one baseline make a row; a row splits into runs where a gap is wider than a word
 * space (table cells, the two sides of a column gutter). A page set in two columns is read
 * column by column, between the rows that cross the gutter (a title, a full-width figure
 * caption). Page furniture (running heads, page numbers) is left out before any of that.
 */

/** One piece of the text layer, in page space with y growing down from the page's top edge. */
export interface TextPiece {
  text: string;
  x0: number;
  x1: number;
  /** Baseline. */
  y: number;
  size: number;
}

export interface PageText {
  /** 1-based. */
  number: number;
  width: number;
  height: number;
  pieces: TextPiece[];
}

/** Text between two gaps wider than a word space. */
export interface TextRun {
  text: string;
  x0: number;
  x1: number;
}

/** A line in reading order. */
export interface TextLine {
  page: number;
  /** Where on the page: 0 the full width, 1 the left column, 2 the right column. */
  column: 0 | 1 | 2;
  y: number;
  x0: number;
  x1: number;
  /** The font size most of the line's characters have. */
  size: number;
  /** The runs joined by spaces. */
  text: string;
  runs: TextRun[];
}

export interface PageRow {
  y: number;
  pieces: TextPiece[];
  runs: TextRun[];
}

/** Pieces whose baselines differ by less than this share a row (a superscript sits about a third of an em up). */
const ROW_TOLERANCE_EM = 0.45;
/** A gap this wide between two pieces holds a space, when neither side brings one. */
const SPACE_GAP_EM = 0.15;
/** A gap wider than this ends a run: wider than a justified line stretches its spaces, narrower than table cells sit apart. */
const RUN_GAP_EM = 0.8;

/** The page's text lines in reading order. */
export function pageLines(page: PageText, rows = pageRows(page)): TextLine[] {
  const gutter = findGutter(rows, page.width);
  if (gutter === null) return rows.map((row) => lineOf(page.number, 0, row.runs, row));
  const lines: TextLine[] = [];
  let left: TextLine[] = [];
  let right: TextLine[] = [];
  const flush = () => {
    lines.push(...left, ...right);
    left = [];
    right = [];
  };
  for (const row of rows) {
    const sideOf = (run: TextRun) => (run.x1 <= gutter + GUTTER_SLACK ? 1 : run.x0 >= gutter - GUTTER_SLACK ? 2 : 0);
    if (row.runs.some((run) => sideOf(run) === 0)) {
      flush();
      lines.push(lineOf(page.number, 0, row.runs, row));
      continue;
    }
    const leftRuns = row.runs.filter((run) => sideOf(run) === 1);
    const rightRuns = row.runs.filter((run) => sideOf(run) === 2);
    if (leftRuns.length > 0) left.push(lineOf(page.number, 1, leftRuns, row));
    if (rightRuns.length > 0) right.push(lineOf(page.number, 2, rightRuns, row));
  }
  flush();
  return lines;
}

/** The page's rows, top to bottom, each split into runs. */
export function pageRows(page: PageText): PageRow[] {
  const pieces = page.pieces.filter((piece) => piece.text.trim() !== '').sort((a, b) => a.y - b.y || a.x0 - b.x0);
  const rows: PageRow[] = [];
  let current: TextPiece[] = [];
  for (const piece of pieces) {
    const first = current[0];
    if (first && Math.abs(piece.y - first.y) > ROW_TOLERANCE_EM * Math.max(piece.size, first.size)) {
      rows.push(rowOf(current));
      current = [];
    }
    current.push(piece);
  }
  if (current.length > 0) rows.push(rowOf(current));
  return rows;
}

function rowOf(pieces: TextPiece[]): PageRow {
  const sorted = [...pieces].sort((a, b) => a.x0 - b.x0);
  const runs: TextRun[] = [];
  let run: TextRun | null = null;
  let last: TextPiece | null = null;
  for (const piece of sorted) {
    const gap = last ? piece.x0 - last.x1 : 0;
    const em = Math.max(piece.size, last?.size ?? 0);
    if (!run || gap > RUN_GAP_EM * em) {
      run = { text: piece.text, x0: piece.x0, x1: piece.x1 };
      runs.push(run);
    } else {
      const spaced = gap > SPACE_GAP_EM * em && !/\s$/.test(run.text) && !/^\s/.test(piece.text);
      run.text += (spaced ? ' ' : '') + piece.text;
      run.x1 = Math.max(run.x1, piece.x1);
    }
    last = piece;
  }
  for (const each of runs) each.text = each.text.replace(/\s+/g, ' ').trim();
  const baseline = pieces.reduce((sum, piece) => sum + piece.y * piece.text.length, 0) / Math.max(1, pieces.reduce((sum, piece) => sum + piece.text.length, 0));
  return { y: baseline, pieces: sorted, runs: runs.filter((each) => each.text !== '') };
}

function lineOf(page: number, column: 0 | 1 | 2, runs: TextRun[], row: PageRow): TextLine {
  const x0 = runs[0]?.x0 ?? 0;
  const x1 = runs[runs.length - 1]?.x1 ?? 0;
  const pieces = row.pieces.filter((piece) => piece.x0 >= x0 - 0.5 && piece.x1 <= x1 + 0.5);
  return { page, column, y: row.y, x0, x1, size: dominantSize(pieces.length > 0 ? pieces : row.pieces), text: runs.map((run) => run.text).join(' '), runs };
}

/** The size most characters have, to the half point. */
export function dominantSize(pieces: { text: string; size: number }[]): number {
  const weights = new Map<number, number>();
  for (const piece of pieces) {
    const size = Math.round(piece.size * 2) / 2;
    weights.set(size, (weights.get(size) ?? 0) + piece.text.trim().length);
  }
  let best = 0;
  let bestWeight = -1;
  for (const [size, weight] of weights) if (weight > bestWeight) [best, bestWeight] = [size, weight];
  return best;
}

/** How far a run may reach into the gutter and still be on its side. */
const GUTTER_SLACK = 2;
/** The gutter is looked for in the middle of the page: columns of a sidebar layout are read as one. */
const GUTTER_ZONE = [0.3, 0.7] as const;
/** Each column of a two-column page has at least this many lines, and this share of the rows. */
const GUTTER_MIN_ROWS = 6;
const GUTTER_MIN_SHARE = 0.25;
/** Rows crossing the gutter (a title, an abstract set full width) are at most this share of the rows. */
const GUTTER_MAX_CROSSING = 0.4;
/** A column's line is prose when it fills this share of the column's width; most of a column's lines are. */
const PROSE_FILL = 0.6;

/**
 * The x of the gap between two columns of prose, or null for a page read as one column: the
 * place in the middle of the page that the fewest rows cross, with lines on both sides. A
 * table's cells sit on both sides of some gap too, but they do not fill their side as the lines
 * of a column of prose fill it.
 */
function findGutter(rows: PageRow[], width: number): number | null {
  const textRows = rows.filter((row) => row.runs.length > 0);
  const needed = Math.max(GUTTER_MIN_ROWS, GUTTER_MIN_SHARE * textRows.length);
  let best: { x: number; crossing: number; sides: number } | null = null;
  for (let x = Math.round(width * GUTTER_ZONE[0]); x <= width * GUTTER_ZONE[1]; x += 2) {
    let crossing = 0;
    let left = 0;
    let right = 0;
    for (const row of textRows) {
      if (row.runs.some((run) => run.x0 < x && run.x1 > x)) crossing++;
      else {
        if (row.runs.some((run) => run.x1 <= x)) left++;
        if (row.runs.some((run) => run.x0 >= x)) right++;
      }
    }
    const sides = Math.min(left, right);
    if (sides < needed || crossing > GUTTER_MAX_CROSSING * textRows.length) continue;
    if (!best || crossing < best.crossing || (crossing === best.crossing && sides > best.sides)) best = { x, crossing, sides };
  }
  if (!best) return null;
  const x = centreOfGap(textRows, best.x);
  return isProse(textRows, x, 'left') && isProse(textRows, x, 'right') ? x : null;
}

/** Whether most lines on one side of `x` fill that side as lines of a column do. */
function isProse(rows: PageRow[], x: number, side: 'left' | 'right'): boolean {
  const runs = rows.flatMap((row) => (row.runs.some((run) => run.x0 < x && run.x1 > x) ? [] : row.runs.filter((run) => (side === 'left' ? run.x1 <= x : run.x0 >= x))));
  if (runs.length === 0) return false;
  const start = Math.min(...runs.map((run) => run.x0));
  const end = Math.max(...runs.map((run) => run.x1));
  const full = runs.filter((run) => run.x1 - run.x0 >= PROSE_FILL * (end - start)).length;
  return full >= runs.length / 2;
}

/** The middle of the gap the rows leave around `x`. */
function centreOfGap(rows: PageRow[], x: number): number {
  let leftEdge = -Infinity;
  let rightEdge = Infinity;
  for (const row of rows) {
    if (row.runs.some((run) => run.x0 < x && run.x1 > x)) continue;
    for (const run of row.runs) {
      if (run.x1 <= x) leftEdge = Math.max(leftEdge, run.x1);
      else rightEdge = Math.min(rightEdge, run.x0);
    }
  }
  return leftEdge < rightEdge && Number.isFinite(leftEdge) && Number.isFinite(rightEdge) ? (leftEdge + rightEdge) / 2 : x;
}

/** A row that is only a page number: "7", "- 7 -", "Page 7", "7 of 12", "Page 7 of 12". */
const PAGE_NUMBER = /^[\s\-–—|]*(page\s+)?\d{1,4}(\s*(of|\/)\s*\d{1,4})?[\s\-–—|]*$/i;
/** Rows this near a page's top or bottom edge (share of its height) may be furniture. */
const FURNITURE_MARGIN = 0.12;

/**
 * The rows of every page without the furniture: a page number alone in the top or bottom
 * margin, and a running head or foot (the same words, numbers aside, at the edge of at least
 * half the pages, and of two). Furniture is set no larger than the body text: a chapter's
 * heading at the top of each page ("Chapter 3", "Chapter 4") stays.
 */
export function withoutFurniture(pages: { page: PageText; rows: PageRow[] }[]): { page: PageText; rows: PageRow[] }[] {
  const bodySize = dominantSize(pages.flatMap(({ page }) => page.pieces));
  const key = (row: PageRow) => row.runs.map((run) => run.text).join(' ').toLowerCase().replace(/\d+/g, '#');
  const edgeRows = (page: PageText, rows: PageRow[]) =>
    [rows[0], rows[rows.length - 1]].filter(
      (row): row is PageRow =>
        row !== undefined && dominantSize(row.pieces) <= bodySize + 0.5 && (row.y < page.height * FURNITURE_MARGIN || row.y > page.height * (1 - FURNITURE_MARGIN)),
    );
  const seen = new Map<string, number>();
  for (const { page, rows } of pages) for (const text of new Set(edgeRows(page, rows).map(key))) seen.set(text, (seen.get(text) ?? 0) + 1);
  const repeated = (text: string) => pages.length >= 2 && (seen.get(text) ?? 0) >= Math.max(2, pages.length / 2);
  return pages.map(({ page, rows }) => {
    const furniture = new Set(edgeRows(page, rows).filter((row) => PAGE_NUMBER.test(row.runs.map((run) => run.text).join(' ')) || repeated(key(row))));
    return { page, rows: rows.filter((row) => !furniture.has(row)) };
  });
}

