import { findMainContent } from '../../src/extract/in-page/main-content.js';
import { createVisibilityFilter } from '../../src/extract/in-page/visibility.js';
import { describe } from './explain.page.js';


/** Runs in the page: every pruned element's full text and the rule that pruned it. */
export function pruneAudit(options: { url: string }): { pageType: string; pruned: Array<{ what: string; reason: string; text: string }> } {
  const reasons = new Map<Element, string>();
  const main = findMainContent(document.body, createVisibilityFilter(), options.url, reasons);
  return {
    pageType: main.pageType,
    pruned: Array.from(main.pruned, (element) => ({
      what: describe(element),
      reason: (reasons.get(element) ?? '?').replace(/ \(.*$/, ''),
      text: (element as HTMLElement).innerText ?? element.textContent ?? '',
    })),
  };
}
