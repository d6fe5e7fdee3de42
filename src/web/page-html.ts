import type { Page } from 'playwright-core';
import { evaluateFunction } from '../extract/page-script.js';

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

/** The warning an answer cut at the service's bound carries. */
export function truncatedAnswer(what: string, maxChars: number) {
  return {
    code: 'ANSWER_TRUNCATED' as const,
    message: `${what} was longer than this service's bound of ${maxChars} characters (ANSWER_MAX_CHARS) and was cut there`,
  };
}
