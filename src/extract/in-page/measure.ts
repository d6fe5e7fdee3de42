import { BLOCK_TAGS } from './markdown.js';

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

function textLength(value: string): number {
  let length = 0;
  let inSpace = true;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    const space = code === 32 || code === 10 || code === 9 || code === 13 || code === 160 || code === 12;
    if (!space) length++;
    else if (!inSpace) length++;
    inSpace = space;
  }
  return length;
}

function countCommas(value: string): number {
  let commas = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code === 44 || code === 0xff0c || code === 0x3001 || code === 0x060c) commas++;
  }
  return commas;
}

export function measure(root: Element, keep: (element: Element) => boolean): StatsMap {
  const stats: StatsMap = new Map();
  const visit = (element: Element, owner: ElementStats, inLink: boolean, depth: number): ElementStats => {
    const own = emptyStats(depth);
    stats.set(element, own);
    const blockOwner = BLOCK_TAGS.has(element.localName) ? own : owner;
    const linked = inLink || element.localName === 'a';
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
    if (own.ownText > own.maxProse && own.ownLinkText < own.ownText * 0.3) own.maxProse = own.ownText;
    return own;
  };
  visit(root, emptyStats(0), false, 0);
  return stats;
}

export function linkDensity(stats: ElementStats | undefined): number {
  if (!stats || stats.text === 0) return 0;
  return stats.linkText / stats.text;
}
