import type { Page } from 'playwright-core';
import { InvalidPageOption } from '../../browser/types.js';
import { evaluateFunction } from '../../extract/page-script.js';
import type { ScrapeTarget } from '../output-options.js';
import type { ScrapedElements } from '../outputs.js';
import { type PageOutputEntry, truncationWarnings } from './reading.js';

/** Elements chosen by CSS selectors, read in the page. */
export const scrapeOutput: PageOutputEntry<'scrape'> = {
  name: 'scrape',
  needs: ['document'],
  price: { sharesLoad: 'scrape' },
  async read({ elements: targets }, { loaded, bounds }) {
    const { elements, elementsFound, truncated } = await scrapeElements(loaded.page, targets, bounds.scrapeMaxResults, bounds.answerMaxChars);
    return { value: { elements, elementsFound }, warnings: truncationWarnings(truncated, 'The text of the results', bounds.answerMaxChars) };
  },
};

export interface ScrapeOutcome extends ScrapedElements {
  /** Results stopped (and the last one was cut) at the answer's bound. */
  truncated: boolean;
}

/**
 * Evaluates every selector in the page. `attributes`, when given, names the attributes to
 * return (null when absent); otherwise all of them are returned. Results per selector are
 * capped, while `elementsFound` counts every match. The text of all results together (html,
 * text and attribute values) is bounded by `maxChars` in the page: `*` on a deep page would
 * otherwise send the same megabytes once per ancestor. An unparseable selector is reported by
 * its index so the caller gets a 422 naming it.
 */
export async function scrapeElements(page: Page, targets: ScrapeTarget[], maxResults: number, maxChars: number): Promise<ScrapeOutcome> {
  const outcome = await evaluateFunction(
    page,
    ({ targets, maxResults, maxChars }: { targets: ScrapeTarget[]; maxResults: number; maxChars: number }) => {
      const elements: Array<{ selector: string; data: { results: unknown[] } }> = [];
      let elementsFound = 0;
      let left = maxChars;
      let truncated = false;
      for (const [index, target] of targets.entries()) {
        let matches: Element[];
        try {
          matches = [...document.querySelectorAll(target.selector)];
        } catch {
          return { invalidIndex: index };
        }
        elementsFound += matches.length;
        const results: unknown[] = [];
        for (const element of matches.slice(0, maxResults)) {
          if (truncated) break;
          const take = (text: string) => {
            if (text.length <= left) {
              left -= text.length;
              return text;
            }
            truncated = true;
            const kept = text.slice(0, left);
            left = 0;
            return kept;
          };
          const rect = element.getBoundingClientRect();
          const attributes: Record<string, string | null> = {};
          if (target.attributes) for (const name of target.attributes) attributes[name] = element.hasAttribute(name) ? take(element.getAttribute(name) ?? '') : null;
          else for (const attribute of element.attributes) attributes[attribute.name] = take(attribute.value);
          results.push({
            text: take(((element as HTMLElement).innerText ?? element.textContent ?? '').trim()),
            html: take(element.outerHTML),
            attributes,
            top: Math.round(rect.top + window.scrollY),
            left: Math.round(rect.left + window.scrollX),
            width: Math.round(rect.width),
            height: Math.round(rect.height),
          });
        }
        elements.push({ selector: target.selector, data: { results } });
      }
      return { elements, elementsFound, truncated };
    },
    { targets, maxResults, maxChars },
  );
  if ('invalidIndex' in outcome && outcome.invalidIndex !== undefined) {
    const index = outcome.invalidIndex;
    throw new InvalidPageOption(`not a valid CSS selector: ${targets[index]!.selector}`, `elements.${index}.selector`);
  }
  return outcome as ScrapeOutcome;
}
