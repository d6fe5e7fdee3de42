import type { Page } from 'playwright-core';
import { evaluateFunction } from '../extract/page-script.js';

/**
 * Every http(s) link of the page, absolute (resolved by the browser against the page and
 * <base>), deduplicated, fragment removed. At most `maxChars` of links cross from the page.
 */
export async function collectLinks(page: Page, maxChars: number): Promise<{ links: string[]; truncated: boolean }> {
  const { hrefs, truncated } = await evaluateFunction(
    page,
    (max: number) => {
      const found: string[] = [];
      let left = max;
      for (const anchor of document.querySelectorAll('a[href], area[href]')) {
        const href = (anchor as HTMLAnchorElement).href;
        if (href.length > left) return { hrefs: found, truncated: true };
        left -= href.length;
        found.push(href);
      }
      return { hrefs: found, truncated: false };
    },
    maxChars,
  );
  const links = new Set<string>();
  for (const href of hrefs) {
    if (!URL.canParse(href)) continue;
    const url = new URL(href);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    url.hash = '';
    links.add(url.href);
  }
  return { links: [...links], truncated };
}
