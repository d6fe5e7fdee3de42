import type { Page } from 'playwright-core';
import type { PageWarning } from '../browser/types.js';
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

export interface CleanHtmlOptions {
  onlyMainContent: boolean;
  includeTags: string[];
  excludeTags: string[];
}

/**
 * The rendered page's HTML without what a reader of content does not want: scripts, styles,
 * templates, comments, hidden inputs and inline event handlers; with `onlyMainContent`, also the
 * site's chrome by its usual markup (header, nav, footer, aside and their ARIA roles, cookie and
 * modal layers); `includeTags` keeps only the elements they match, `excludeTags` removes theirs.
 * Done on a parsed copy, so the live page (and any screenshot taken of it) is untouched. An
 * invalid selector is answered `invalidSelector`.
 */
export async function readCleanHtml(page: Page, options: CleanHtmlOptions, maxChars: number): Promise<{ html: string; truncated: boolean } | { invalidSelector: string }> {
  return evaluateFunction(
    page,
    ({ options, max }: { options: CleanHtmlOptions; max: number }) => {
      const copy = new DOMParser().parseFromString(document.documentElement?.outerHTML ?? '', 'text/html');
      const removeAll = (selector: string) => {
        for (const element of copy.querySelectorAll(selector)) element.remove();
      };
      removeAll('script, style, noscript, template, link[rel="stylesheet" i], meta, input[type="hidden" i]');
      const walker = copy.createTreeWalker(copy, NodeFilter.SHOW_COMMENT);
      const comments: Node[] = [];
      while (walker.nextNode()) comments.push(walker.currentNode);
      for (const comment of comments) comment.parentNode?.removeChild(comment);
      for (const element of copy.querySelectorAll('*')) {
        for (const attribute of [...element.attributes]) if (attribute.name.toLowerCase().startsWith('on')) element.removeAttribute(attribute.name);
      }
      if (options.onlyMainContent) {
        removeAll(
          'header, nav, footer, aside, [role="banner" i], [role="navigation" i], [role="contentinfo" i], [role="complementary" i], [aria-modal="true" i], [class*="cookie" i], [id*="cookie" i]',
        );
      }
      for (const selector of options.excludeTags) {
        try {
          removeAll(selector);
        } catch {
          return { invalidSelector: selector };
        }
      }
      let html = '';
      if (options.includeTags.length > 0) {
        const kept: string[] = [];
        for (const selector of options.includeTags) {
          try {
            for (const element of copy.querySelectorAll(selector)) if (!kept.some((outer) => outer.includes(element.outerHTML))) kept.push(element.outerHTML);
          } catch {
            return { invalidSelector: selector };
          }
        }
        html = kept.join('\n');
      } else {
        html = copy.body?.innerHTML.trim() ?? '';
      }
      return html.length > max ? { html: html.slice(0, max), truncated: true } : { html, truncated: false };
    },
    { options, max: maxChars },
  );
}

/** The warning an answer cut at the service's bound carries. */
export function truncatedAnswer(what: string, maxChars: number): PageWarning {
  return {
    code: 'ANSWER_TRUNCATED',
    message: `${what} was longer than this service's bound of ${maxChars} characters (ANSWER_MAX_CHARS) and was cut there`,
  };
}
