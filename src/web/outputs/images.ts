import type { Page } from 'playwright-core';
import { evaluateFunction } from '../../extract/page-script.js';
import { httpUrls } from './links.js';
import { type PageOutputEntry, truncationWarnings } from './reading.js';

/** The page's images, as the browser chose and resolved them. */
export const imagesOutput: PageOutputEntry<'images'> = {
  name: 'images',
  needs: ['document'],
  price: { sharesLoad: 'links' },
  async read(_asked, { loaded, bounds }) {
    const { images, truncated } = await collectImages(loaded.page, bounds.answerMaxChars);
    return { value: images, warnings: truncationWarnings(truncated, 'The list of images', bounds.answerMaxChars) };
  },
};

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
