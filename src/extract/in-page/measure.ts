import { BLOCK_TAGS } from './markdown.js';
import { checkBudget } from './work-budget.js';

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

interface MeasureFrame {
  own: ElementStats;
  /** The stats that this element's inline text counts for: its own when it is a block, else its block's. */
  blockOwner: ElementStats;
  linked: boolean;
  /** The next child node to look at. */
  next: ChildNode | null;
}

function frameFor(element: Element, own: ElementStats, owner: ElementStats, inLink: boolean): MeasureFrame {
  const name = element.localName;
  return { own, blockOwner: BLOCK_TAGS.has(name) ? own : owner, linked: inLink || name === 'a', next: element.firstChild };
}

/** Iterative (an explicit stack, children in order): a DOM nested thousands deep cannot overflow it. */
export function measure(root: Element, keep: (element: Element) => boolean): StatsMap {
  const stats: StatsMap = new Map();
  const rootStats = emptyStats(0);
  stats.set(root, rootStats);
  const stack: MeasureFrame[] = [frameFor(root, rootStats, emptyStats(0), false)];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as MeasureFrame;
    const node = frame.next;
    if (node === null) {
      stack.pop();
      const own = frame.own;
      if (own.ownText > own.maxProse && own.ownLinkText < own.ownText * 0.3) own.maxProse = own.ownText;
      const parent = stack[stack.length - 1]?.own;
      if (parent) {
        parent.text += own.text;
        parent.linkText += own.linkText;
        parent.elements += own.elements + 1;
        if (own.maxProse > parent.maxProse) parent.maxProse = own.maxProse;
      }
      continue;
    }
    frame.next = node.nextSibling;
    if (node.nodeType === Node.TEXT_NODE) {
      const value = node.nodeValue ?? '';
      const length = textLength(value);
      if (length === 0) continue;
      const { own, blockOwner } = frame;
      own.text += length;
      blockOwner.ownText += length;
      blockOwner.ownCommas += countCommas(value);
      if (frame.linked) {
        own.linkText += length;
        blockOwner.ownLinkText += length;
      }
    } else if (node.nodeType === Node.ELEMENT_NODE && keep(node as Element)) {
      checkBudget();
      const child = emptyStats(frame.own.depth + 1);
      stats.set(node as Element, child);
      stack.push(frameFor(node as Element, child, frame.blockOwner, frame.linked));
    }
  }
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
