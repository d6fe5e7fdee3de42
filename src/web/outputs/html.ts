import type { Page } from 'playwright-core';
import { evaluateFunction } from '../../extract/page-script.js';
import { invalidSelector, type PageOutputEntry, truncationWarnings } from './reading.js';

/** The rendered page's HTML, cleaned on a copy (`readCleanHtml`), of the part the selection names. */
export const htmlOutput: PageOutputEntry<'html'> = {
  name: 'html',
  needs: ['document'],
  price: { sharesLoad: 'content' },
  async read(selection, { loaded, bounds }) {
    const clean = await readCleanHtml(loaded.page, selection, bounds.answerMaxChars);
    if ('invalidSelector' in clean) throw invalidSelector(clean.invalidSelector, selection);
    return { value: clean.html, warnings: truncationWarnings(clean.truncated, 'The HTML', bounds.answerMaxChars) };
  },
};

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
