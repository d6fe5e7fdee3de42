import type { Page } from 'playwright-core';
import { EventLoopSlices } from '../event-loop.js';
import { evaluateFunction } from '../extract/page-script.js';

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
 * Every image of the page: each `<img>` as the browser chose it (its current source), the
 * candidates of `srcset`s, `<picture>` sources and the Open Graph image; absolute http(s) URLs,
 * each once. At most `maxChars` of them cross from the page.
 */
export async function collectImages(page: Page, maxChars: number): Promise<{ images: string[]; truncated: boolean }> {
  const found = await evaluateFunction(
    page,
    (max: number) => {
      const urls: string[] = [];
      let left = max;
      const add = (value: string | null | undefined) => {
        if (!value) return true;
        let url: string;
        try {
          url = new URL(value.trim(), document.baseURI).href;
        } catch {
          return true;
        }
        if (url.length > left) return false;
        left -= url.length;
        urls.push(url);
        return true;
      };
      const fromSrcset = (srcset: string | null) => (srcset ?? '').split(',').map((candidate) => candidate.trim().split(/\s+/)[0]);
      const og = document.querySelector('meta[property="og:image" i]')?.getAttribute('content');
      if (!add(og)) return { urls, truncated: true };
      for (const image of document.querySelectorAll('img')) {
        for (const value of [image.currentSrc || image.getAttribute('src'), ...fromSrcset(image.getAttribute('srcset'))]) {
          if (!add(value)) return { urls, truncated: true };
        }
      }
      for (const source of document.querySelectorAll('picture source[srcset]')) {
        for (const value of fromSrcset(source.getAttribute('srcset'))) if (!add(value)) return { urls, truncated: true };
      }
      return { urls, truncated: false };
    },
    maxChars,
  );
  return { images: await httpUrls(found.urls, false), truncated: found.truncated };
}

/**
 * http(s) URLs only, each once; links lose their fragment (the same page), images keep theirs.
 * A page may hold 200,000 links (about a second of URL parsing): other requests get turns between slices.
 */
async function httpUrls(values: string[], dropFragment: boolean): Promise<string[]> {
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
