import type { WebOperation } from '../../config.js';
import type { OutputRequest } from '../outputs.js';
import { htmlOutput } from './html.js';
import { imagesOutput } from './images.js';
import { jsonOutput } from './json.js';
import { linksOutput } from './links.js';
import { markdownOutput } from './markdown.js';
import { pdfOutput } from './pdf.js';
import type { AfterPageOutputEntry, Asked, OutputEntry, OutputName, PageNeed, PageOutputEntry } from './reading.js';
import { rawHtmlOutput } from './raw-html.js';
import { scrapeOutput } from './scrape.js';
import { screenshotOutput } from './screenshot.js';

/**
 * The outputs of a page, in the order they are read of it. Each entry says what it needs from
 * the page, what it costs and how it is read (`reading.ts`); the page pipeline reads the
 * entries asked for, in this order, around two readings they share:
 *
 * 1. refusals known once the page is there (`refuse`), before anything is read;
 * 2. the page's metadata, and beside it the entries that may read early (`readsEarly`: a
 *    capture mostly waits for Chromium's next frames), unless the page text is asked: its last
 *    wait, for a page that showed nothing yet, changes what the page shows. Nothing else read
 *    later changes it (the HTML is cleaned on a copy);
 * 3. the page text, when an entry asked needs it: once, for all of them;
 * 4. each entry's reader, in the table's order; their warnings follow the load's in that order;
 * 5. once the page is back in the pool, the entries made after it (the AI extraction), then the
 *    captures stored as files.
 *
 * To add an output, add its entry here in its place; the engines that load pages will say which
 * needs they meet.
 */
export const OUTPUT_TABLE: ReadonlyArray<OutputEntry<OutputName>> = [
  markdownOutput,
  htmlOutput,
  rawHtmlOutput,
  linksOutput,
  imagesOutput,
  scrapeOutput,
  screenshotOutput,
  pdfOutput,
  jsonOutput,
];

/** An entry asked for, with the options it is asked with. */
export interface AskedOutput<E extends OutputEntry<OutputName> = OutputEntry<OutputName>> {
  entry: E;
  options: Asked<OutputName>;
}

/** The entries a request asks for, in the table's order. */
export function askedOutputs(request: OutputRequest): AskedOutput[] {
  return OUTPUT_TABLE.flatMap((entry) => {
    const options = request[entry.name];
    return options ? [{ entry, options }] : [];
  });
}

/** One request's outputs in the steps above. */
export interface ReadingPlan {
  /** Step 2: read beside the metadata (they are among `onPage` too, in their place). */
  early: Array<AskedOutput<PageOutputEntry<OutputName>>>;
  /** Step 3: the page text is read before the outputs. */
  readsText: boolean;
  /** Steps 1 and 4: read while the page is held. */
  onPage: Array<AskedOutput<PageOutputEntry<OutputName>>>;
  /** Step 5: made once the page is back in the pool. */
  afterPage: Array<AskedOutput<AfterPageOutputEntry<OutputName>>>;
}

export function readingPlan(request: OutputRequest): ReadingPlan {
  const asked = askedOutputs(request);
  const onPage = asked.flatMap(({ entry, options }) => ('read' in entry ? [{ entry, options }] : []));
  const afterPage = asked.flatMap(({ entry, options }) => ('readAfterPage' in entry ? [{ entry, options }] : []));
  const readsText = needs(asked, 'page text');
  return { early: readsText ? [] : onPage.filter(({ entry }) => entry.readsEarly), readsText, onPage, afterPage };
}

function needs(asked: AskedOutput[], need: PageNeed): boolean {
  return asked.some(({ entry }) => entry.needs.includes(need));
}

/**
 * The price of a request: one page load with every output it asks for that shares the load
 * costs the dearest of them; each output priced on top (a capture, the AI extraction) adds its
 * own. So each spec endpoint, which asks for one output, costs exactly its configured price, and
 * a request for the metadata alone pays for the load as `content`.
 */
export function costOf(request: OutputRequest, costs: Record<WebOperation, number>): number {
  const asked = askedOutputs(request);
  if (asked.length === 0) return costs.content;
  const shared = asked.flatMap(({ entry }) => ('sharesLoad' in entry.price ? [costs[entry.price.sharesLoad]] : []));
  const onTop = asked.reduce((sum, { entry }) => sum + ('onTop' in entry.price ? costs[entry.price.onTop] : 0), 0);
  return (shared.length > 0 ? Math.max(...shared) : 0) + onTop;
}

/** Images and fonts matter to the painted page only: a page read for its text does not wait for them (page-settle.ts). */
export function settleFor(request: OutputRequest): 'text' | 'render' {
  return needs(askedOutputs(request), 'painted page') ? 'render' : 'text';
}
