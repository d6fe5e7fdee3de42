import type { Page } from 'playwright-core';
import { evaluateFunction } from '../../extract/page-script.js';
import { type PageOutputEntry, truncationWarnings } from './reading.js';

/** The rendered page's HTML as it is (what `/v1/web/content` answers). */
export const rawHtmlOutput: PageOutputEntry<'rawHtml'> = {
  name: 'rawHtml',
  needs: ['document'],
  price: { sharesLoad: 'content' },
  async read(_asked, { loaded, bounds }) {
    const raw = await readHtml(loaded.page, bounds.answerMaxChars);
    return { value: raw.html, warnings: truncationWarnings(raw.truncated, 'The HTML', bounds.answerMaxChars) };
  },
};

/**
 * The rendered HTML of the page (doctype and document, as Playwright's `content()` writes it),
 * cut in the page at `maxChars` so a page of any size crosses to Node bounded.
 */
export async function readHtml(page: Page, maxChars: number): Promise<{ html: string; truncated: boolean }> {
  return evaluateFunction(
    page,
    (max: number) => {
      const doctype = document.doctype ? new XMLSerializer().serializeToString(document.doctype) : '';
      const html = doctype + (document.documentElement?.outerHTML ?? '');
      return html.length > max ? { html: html.slice(0, max), truncated: true } : { html, truncated: false };
    },
    maxChars,
  );
}
