import type { StatsMap } from './measure.js';

/**
 * Repeated cards: a container whose text sits mostly in three or more alike children (same tag
 * and first class) that each hold a link and little text of their own. Product grids, teaser
 * lists, "you may also like" carousels look like this; article sections and forum posts do not.
 */

/*
 * The sizes and shares below are Pluck's own, set by hand against both dev sets (see
 * docs/extraction-history.md); text sizes are characters of visible text.
 */

/** A list of cards has this many alike cards at least; ... */
export const MIN_CARDS = 3;
/** ... a list of teasers, this many; ... */
const MIN_TEASERS = 5;
/** ... and a list counted into a block's share of cards (`itemListShare`), this many. */
const MIN_CARDS_IN_SHARE = 4;
/** Cards: at least this share of them hold a link, ... */
const LINKED_CARD_SHARE = 0.75;
/** ... and together at least this share of the list's text. */
const CARDS_TEXT_SHARE = 0.6;
/** Cards are card-like with this share of their text in links, or less than `MAX_CARD_OWN_TEXT` each outside links. */
const CARD_LINK_SHARE = 0.3;
const MAX_CARD_OWN_TEXT = 150;
/** Teasers are looser: this share of their text in links, and less than `MAX_TEASER_OWN_TEXT` each outside them. */
const TEASER_LINK_SHARE = 0.15;
const MAX_TEASER_OWN_TEXT = 400;
/** A run of text this long is a headline or a sentence, not a label or a date. */
const TEASER_OPENING_TEXT = 15;
/** Teaser lists are looked for this many levels under a block unless asked deeper (a grid in its wrappers). */
const TEASER_GRID_DEPTH = 3;

export function signature(element: Element): string {
  const firstClass = (element.getAttribute('class') ?? '').trim().split(/\s+/)[0] ?? '';
  return `${element.localName}.${firstClass.replace(/\d+/g, '')}`;
}

function isInLink(node: Node, item: Element): boolean {
  const link = node.parentElement?.closest('a');
  return link != null && item.contains(link);
}

/**
 * A teaser opens with its headline link (the first run of real text, past a label or a date, is
 * a link) or ends with its "Read more" link.
 */
function isTeaserItem(item: Element): boolean {
  const walker = document.createTreeWalker(item, NodeFilter.SHOW_TEXT);
  let opening = true;
  let last: Node | null = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = (node.nodeValue ?? '').trim();
    if (text.length === 0) continue;
    if (opening && text.length >= TEASER_OPENING_TEXT) {
      if (isInLink(node, item)) return true;
      opening = false;
    }
    last = node;
  }
  return last !== null && isInLink(last, item);
}

interface Group {
  count: number;
  linked: number;
  text: number;
  linkText: number;
}

/**
 * Teasers (a headline link or a "read more" link, and a summary) are looser cards: `MIN_TEASERS` or more;
 * only used where the list is beside the content, never to cut inside it.
 */
export function isTeaserList(container: Element, stats: StatsMap): boolean {
  return isItemList(container, stats, MIN_TEASERS, true);
}

export function isItemList(container: Element, stats: StatsMap, minItems = MIN_CARDS, teasers = false): boolean {
  const groups = new Map<string, Group>();
  for (let child = container.firstElementChild; child; child = child.nextElementSibling) {
    const own = stats.get(child);
    if (!own || own.text === 0) continue;
    const key = signature(child);
    const group = groups.get(key) ?? { count: 0, linked: 0, text: 0, linkText: 0 };
    group.count++;
    group.text += own.text;
    group.linkText += own.linkText;
    if (own.linkText > 0 && (!teasers || isTeaserItem(child))) group.linked++;
    groups.set(key, group);
  }
  const total = stats.get(container)?.text ?? 0;
  for (const group of groups.values()) {
    if (group.count < minItems || group.linked < group.count * LINKED_CARD_SHARE || group.text < total * CARDS_TEXT_SHARE) continue;
    const perItem = (group.text - group.linkText) / group.count;
    const cardLike = teasers
      ? group.linkText >= group.text * TEASER_LINK_SHARE && perItem < MAX_TEASER_OWN_TEXT
      : group.linkText >= group.text * CARD_LINK_SHARE || perItem < MAX_CARD_OWN_TEXT;
    if (cardLike) return true;
  }
  return false;
}

/** Share of `element`'s text held by containers `isList` accepts, at most `depth` levels down. */
function shareInLists(element: Element, stats: StatsMap, isList: (container: Element) => boolean, depth: number): number {
  const total = stats.get(element)?.text ?? 0;
  if (total === 0) return 0;
  let inLists = 0;
  const visit = (container: Element, level: number) => {
    if (isList(container)) {
      inLists += stats.get(container)?.text ?? 0;
      return;
    }
    if (level === depth) return;
    for (let child = container.firstElementChild; child; child = child.nextElementSibling) if (stats.has(child)) visit(child, level + 1);
  };
  visit(element, 0);
  return inLists / total;
}

/** Share of `element`'s text held by teaser lists at most `depth` levels down (a grid of teasers). */
export function teaserShare(element: Element, stats: StatsMap, depth = TEASER_GRID_DEPTH): number {
  return shareInLists(element, stats, (container) => isTeaserList(container, stats), depth);
}

/** Share of `element`'s text held by lists of cards anywhere below it (a shop's product grid). */
export function itemListShare(element: Element, stats: StatsMap): number {
  return shareInLists(element, stats, (container) => isItemList(container, stats, MIN_CARDS_IN_SHARE), Infinity);
}
