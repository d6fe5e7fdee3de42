import type { Page } from 'playwright-core';

/** Every http(s) link of the page, absolute (resolved by the browser against the page and <base>), deduplicated, fragment removed. */
export async function collectLinks(page: Page): Promise<string[]> {
  const hrefs = await page.evaluate(() => [...document.querySelectorAll('a[href], area[href]')].map((a) => (a as HTMLAnchorElement).href));
  const links = new Set<string>();
  for (const href of hrefs) {
    if (!URL.canParse(href)) continue;
    const url = new URL(href);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    url.hash = '';
    links.add(url.href);
  }
  return [...links];
}
