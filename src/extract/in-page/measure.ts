import { BLOCK_TAGS } from './html-blocks.js';
import { checkBudget, DomTooDeep, MAX_MAIN_CONTENT_DEPTH } from './work-budget.js';

/**
 * One pass over the kept DOM collecting, per element, how much visible text its subtree holds and
 * how much of it is link text, and per block (the nearest block ancestor of a text run) its own
 * inline text. Everything the main-content scoring needs is read from these numbers.
 */

export interface ElementStats {
  /** Visible text characters in the subtree (whitespace runs count as one). */
  text: number;
  /** Of which inside links. */
  linkText: number;
  /** Text of the inline runs this element owns as a block (0 for inline elements). */
  ownText: number;
  ownLinkText: number;
  /** Commas in the owned runs (a prose signal). */
  ownCommas: number;
  /** Number of descendant elements kept. */
  elements: number;
  depth: number;
  /** Longest prose run (own text of a block that is mostly not links) in the subtree. */
  maxProse: number;
}

export type StatsMap = Map<Element, ElementStats>;

/** Prose is mostly not links: a run or block under this link density. */
export const PROSE_LINKS = 0.3;

function emptyStats(depth: number): ElementStats {
  return { text: 0, linkText: 0, ownText: 0, ownLinkText: 0, ownCommas: 0, elements: 0, depth, maxProse: 0 };
}

/** Whitespace runs other than a lone space: the only ones collapsing changes. */
const COLLAPSIBLE_WHITESPACE = /[\t\n\r\f\u00a0][ \t\n\r\f\u00a0]*| [ \t\n\r\f\u00a0]+/g;

const NOT_WHITESPACE = /[^ \t\n\r\f\u00a0]/;

/** Length with whitespace runs counted as one and leading whitespace not at all (native regex, no loop). */
function textLength(value: string): number {
  // Most text nodes are the indentation between tags: no copy for those.
  if (!NOT_WHITESPACE.test(value)) return 0;
  const collapsed = value.replace(COLLAPSIBLE_WHITESPACE, ' ');
  return collapsed.charCodeAt(0) === 32 ? collapsed.length - 1 : collapsed.length;
}

const COMMAS = /[,\uff0c\u3001\u060c]/g;

/** Commas in a text run; a native regex scan, as most runs hold none. */
function countCommas(value: string): number {
  return value.match(COMMAS)?.length ?? 0;
}

/**
 * Recursive, and bounded: a DOM nested past MAX_MAIN_CONTENT_DEPTH is refused (DomTooDeep) long
 * before the stack could overflow, and goes to the plain conversion. The same walk with an
 * explicit stack (frame objects, or parallel arrays) measured about 1.5 ms (5%) slower per page
 * on wcxb-dev, in alternating runs.
 */
export function measure(root: Element, keep: (element: Element) => boolean): StatsMap {
  const stats: StatsMap = new Map();
  const visit = (element: Element, owner: ElementStats, inLink: boolean, depth: number): ElementStats => {
    checkBudget();
    if (depth > MAX_MAIN_CONTENT_DEPTH) throw new DomTooDeep();
    const own = emptyStats(depth);
    stats.set(element, own);
    const name = element.localName;
    const blockOwner = BLOCK_TAGS.has(name) ? own : owner;
    const linked = inLink || name === 'a';
    for (let node = element.firstChild; node; node = node.nextSibling) {
      if (node.nodeType === Node.TEXT_NODE) {
        const value = node.nodeValue ?? '';
        const length = textLength(value);
        if (length === 0) continue;
        own.text += length;
        blockOwner.ownText += length;
        blockOwner.ownCommas += countCommas(value);
        if (linked) {
          own.linkText += length;
          blockOwner.ownLinkText += length;
        }
      } else if (node.nodeType === Node.ELEMENT_NODE && keep(node as Element)) {
        const child = visit(node as Element, blockOwner, linked, depth + 1);
        own.text += child.text;
        own.linkText += child.linkText;
        own.elements += child.elements + 1;
        if (child.maxProse > own.maxProse) own.maxProse = child.maxProse;
      }
    }
    if (own.ownText > own.maxProse && own.ownLinkText < own.ownText * PROSE_LINKS) own.maxProse = own.ownText;
    return own;
  };
  visit(root, emptyStats(0), false, 0);
  return stats;
}

/** Elements under `root` that are measured and not pruned, in document order (iterative). */
export function liveElements(root: Element, stats: StatsMap, pruned: Set<Element>): Element[] {
  const live: Element[] = [];
  const stack: Element[] = [root];
  const children: Element[] = [];
  while (stack.length > 0) {
    const element = stack.pop() as Element;
    live.push(element);
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
      if (stats.has(child) && !pruned.has(child)) children.push(child);
    }
    while (children.length > 0) stack.push(children.pop() as Element);
  }
  return live;
}

export function linkDensity(stats: ElementStats | undefined): number {
  if (!stats || stats.text === 0) return 0;
  return stats.linkText / stats.text;
}

/** A paragraph of prose holds this much text at least, ... */
const PARAGRAPH_TEXT = 100;
/** ... with links under this share of it. */
const PARAGRAPH_LINKS = 0.1;

/** A paragraph of prose outside list items (a paragraph in one is an item's summary). */
function isProseParagraph(element: Element | null, stats: StatsMap): boolean {
  const own = element?.localName === 'p' ? stats.get(element) : undefined;
  return own !== undefined && own.ownText >= PARAGRAPH_TEXT && own.ownLinkText < own.ownText * PARAGRAPH_LINKS && element?.closest('li') === null;
}

/**
 * Whether `element` holds two paragraphs of prose in a row, or is a paragraph of prose with
 * another after it: text written to be read. A teaser's summary stands alone in its item (a card,
 * a list item), so a widget of teasers has none.
 */
export function holdsParagraphsInRow(element: Element, stats: StatsMap): boolean {
  for (const paragraph of [element, ...Array.from(element.getElementsByTagName('p'))]) {
    if (isProseParagraph(paragraph, stats) && isProseParagraph(paragraph.nextElementSibling, stats)) return true;
  }
  return false;
}
