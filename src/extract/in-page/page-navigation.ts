import { type ElementStats, linkDensity } from './measure.js';
import { countWords } from './text.js';

/**
 * Navigation a documentation or blog page sets around its content, wherever it is marked: the
 * pager ("Prev · Up · Home · Next", "« Previous post") and the links above the headline
 * (release banners, breadcrumbs, "Supported versions: 18 / 17 / 16 ...").
 */

/** A pager's links: where they go, not what is there. */
const PAGER_LINK = /^(?:[«‹←<]\s*)?(?:prev(?:ious)?|next|up|home|back|top)(?:\s*(?:page|post|topic|chapter))?(?:\s*[»›→>])?$/i;
const PREV_OR_NEXT = /prev|next/i;
/** Longer than this, a block holds more than a pager (titles of the pages beside it at most). */
const MAX_PAGER = 300;
/** A pager has this many of its links at least ("Prev" and "Next", "Up" and "Next"). */
const PAGER_LINKS = 2;

/** A block whose links are a pager's: "Prev" or "Next" and another of its words, in 300 characters or less. */
export function isPager(element: Element, own: ElementStats): boolean {
  if (own.text > MAX_PAGER || own.linkText === 0 || own.elements < PAGER_LINKS) return false;
  // Most short boxes with links say neither word: one native read of the text spares the walk.
  if (!PREV_OR_NEXT.test(element.textContent ?? '')) return false;
  let pagerLinks = 0;
  let prevOrNext = false;
  const links = element.getElementsByTagName('a');
  for (let index = 0; index < links.length; index++) {
    const text = (links[index]?.textContent ?? '').trim();
    if (!PAGER_LINK.test(text)) continue;
    pagerLinks++;
    prevOrNext ||= PREV_OR_NEXT.test(text);
  }
  return pagerLinks >= PAGER_LINKS && prevOrNext;
}

/** Links are at least this share of a block's text above the headline: navigation, not a lead. */
const NAVIGATION_LINK_SHARE = 0.5;
/** Longer than this, a block above the headline is more than a bar of links (a table of contents is kept). */
const MAX_NAVIGATION_ABOVE = 1000;

/** A label of this many words at most before a row of links ("Supported Versions:") is the row's. */
const MAX_LINK_ROW_LABEL = 4;

/** Mostly links by characters, or links behind a short label ("Supported Versions: 18 / 17 / 16", "Development Versions: devel"). */
function isLinkBlock(element: Element, own: ElementStats): boolean {
  if (linkDensity(own) >= NAVIGATION_LINK_SHARE) return true;
  const links = Array.from(element.getElementsByTagName('a'));
  const linkWords = links.reduce((sum, link) => sum + countWords(link.textContent ?? ''), 0);
  return countWords(element.textContent ?? '') - linkWords <= MAX_LINK_ROW_LABEL;
}

/**
 * Boxes that hold a bar of links. Not a link itself, a list item or a heading: a teaser's linked
 * headline without its summary would leave the summary looking like prose.
 */
const LINK_BAR_TAGS = new Set(['div', 'p', 'ul', 'ol', 'nav', 'section', 'table', 'header', 'aside', 'dl', 'span']);

/**
 * A block of links before the page's headline (not holding it): the site's banners, breadcrumbs
 * and version lists. What a page says of itself starts at its headline; a lead above it is prose.
 */
export function isNavigationAboveHeadline(element: Element, own: ElementStats, headline: Element | undefined): boolean {
  if (!headline || own.text > MAX_NAVIGATION_ABOVE || own.linkText === 0 || !LINK_BAR_TAGS.has(element.localName)) return false;
  const above = (element.compareDocumentPosition(headline) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0 && !element.contains(headline);
  return above && isLinkBlock(element, own);
}
