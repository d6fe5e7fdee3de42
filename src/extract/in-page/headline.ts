import type { StatsMap } from './measure.js';
import { lowerCaseWords } from './text.js';

/**
 * The page's headline: what the page calls itself. Blocks of links above it are navigation
 * (`page-navigation.ts`). It is not written first when the content leaves it out (a story's
 * header, Stack Exchange's question header outside `role=main`): both dev sets' truth leaves
 * titles out, and writing it cost 0.011 F1 on extraction-dev and 0.004 on wcxb-dev's forums
 * (issue 30); the title is in the metadata.
 */

/** Share of the headline's words the page title holds (titles add the site's name; entities vary). */
const TITLE_WORD_SHARE = 0.8;
/** A headline of fewer words than this is a logo or a label as often as a title. */
const MIN_HEADLINE_WORDS = 3;

/** Most of the headline's words are in the title. */
export function isTitle(headline: string[], title: Set<string>): boolean {
  return headline.length >= MIN_HEADLINE_WORDS && headline.filter((word) => title.has(word)).length >= headline.length * TITLE_WORD_SHARE;
}

/** The words of the page's title and its Open Graph title. */
export function pageTitleWords(): Set<string> {
  const ogTitle = document.querySelector('meta[property="og:title"]')?.getAttribute('content') ?? '';
  return new Set(lowerCaseWords(`${ogTitle} ${document.title}`));
}

/** Where a site sets its logo, sometimes in an `h1`. */
const SITE_HEADER = 'header, nav, [role="banner"], [role="navigation"]';

/**
 * The first shown `h1` that the page's title names: of three words or more, mostly in the title;
 * else a shorter one wholly in it ("Furniture" in "Furniture | Shop") outside the site's header,
 * where a logo in an `h1` would be. A page without such an `h1` may head its content with an
 * `h2` (DocBook's pages: "SELECT" in "PostgreSQL: Documentation: 18: SELECT").
 */
export function findHeadline(body: Element, stats: StatsMap): Element | undefined {
  const title = pageTitleWords();
  return titledHeading(body.getElementsByTagName('h1'), stats, title) ?? titledHeading(body.getElementsByTagName('h2'), stats, title);
}

function titledHeading(headings: HTMLCollectionOf<Element>, stats: StatsMap, title: Set<string>): Element | undefined {
  let short: Element | undefined;
  for (let index = 0; index < headings.length; index++) {
    const heading = headings[index];
    if (!heading || !stats.has(heading) || (stats.get(heading)?.text ?? 0) === 0) continue;
    const words = lowerCaseWords(heading.textContent ?? '');
    if (isTitle(words, title)) return heading;
    if (!short && words.length > 0 && words.every((word) => title.has(word)) && heading.closest(SITE_HEADER) === null) short = heading;
  }
  return short;
}

/**
 * Whether `element` holds an `h1` other than `except` (and those holding it) and outside links:
 * a box holding one is the page, not a part of it. An `h1` in a link is a teaser's title.
 */
export function holdsH1OutsideLinks(element: Element, except?: Element): boolean {
  const isHeadline = (h1: Element) => !(except && h1.contains(except)) && h1.closest('a') === null;
  return (element.localName === 'h1' && isHeadline(element)) || Array.from(element.getElementsByTagName('h1')).some(isHeadline);
}
