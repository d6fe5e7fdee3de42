import type { Page } from 'playwright-core';
import { EventLoopSlices } from '../../event-loop.js';
import { evaluateFunction } from '../../extract/page-script.js';
import { type PageOutputEntry, truncationWarnings } from './reading.js';

/** The page's links, as the browser resolved them. */
export const linksOutput: PageOutputEntry<'links'> = {
  name: 'links',
  needs: ['document'],
  price: { sharesLoad: 'links' },
  async read(_asked, { loaded, bounds }) {
    const { links, truncated } = await collectLinks(loaded.page, bounds.answerMaxChars);
    return { value: links, warnings: truncationWarnings(truncated, 'The list of links', bounds.answerMaxChars) };
  },
  // A document's links are those its text shows: markdown links, and bare URLs.
  async readDocument(_asked, { text, finalUrl, bounds }) {
    const found = [...text.markdown.matchAll(/\]\(([^)\s]+)\)|\bhttps?:\/\/[^\s<>()[\]"'`]+/g)].map((match) => match[1] ?? match[0]);
    const absolute = found.flatMap((link) => (URL.canParse(link, finalUrl) ? [new URL(link, finalUrl).href] : []));
    const { kept, truncated } = withinChars(await httpUrls(absolute, true), bounds.answerMaxChars);
    return { value: kept, warnings: truncationWarnings(truncated, 'The list of links', bounds.answerMaxChars) };
  },
};

function withinChars(links: string[], maxChars: number): { kept: string[]; truncated: boolean } {
  let left = maxChars;
  const kept: string[] = [];
  for (const link of links) {
    if (link.length > left) return { kept, truncated: true };
    left -= link.length;
    kept.push(link);
  }
  return { kept, truncated: false };
}

/**
 * Every http(s) link of the page, absolute (resolved by the browser against the page and
 * <base>), deduplicated, fragment removed. At most `maxChars` of links cross from the page.
 */
export async function collectLinks(page: Page, maxChars: number): Promise<{ links: string[]; truncated: boolean }> {
  const found = await evaluateFunction(
    page,
    (max: number) => {
      const hrefs: string[] = [];
      let left = max;
      for (const anchor of document.querySelectorAll('a[href], area[href]')) {
        const href = (anchor as HTMLAnchorElement).href;
        if (href.length > left) return { hrefs, truncated: true };
        left -= href.length;
        hrefs.push(href);
      }
      return { hrefs, truncated: false };
    },
    maxChars,
  );
  return { links: await httpUrls(found.hrefs, true), truncated: found.truncated };
}

/**
 * http(s) URLs only, each once; links lose their fragment (the same page), images keep theirs.
 * A page may hold 200,000 links (about a second of URL parsing): other requests get turns between slices.
 */
export async function httpUrls(values: string[], dropFragment: boolean): Promise<string[]> {
  const kept = new Set<string>();
  const slices = new EventLoopSlices();
  for (const value of values) {
    await slices.pause();
    if (!URL.canParse(value)) continue;
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    if (dropFragment) url.hash = '';
    kept.add(url.href);
  }
  return [...kept];
}
