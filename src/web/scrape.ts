import type { Page } from 'playwright-core';
import { InvalidPageOption } from '../browser/types.js';

export interface ScrapeTarget {
  selector: string;
  attributes?: string[];
}

export interface ScrapedElement {
  text: string;
  html: string;
  attributes: Record<string, string | null>;
  top: number;
  left: number;
  width: number;
  height: number;
}

export interface ScrapeOutcome {
  elements: Array<{ selector: string; data: { results: ScrapedElement[] } }>;
  elementsFound: number;
}

/**
 * Evaluates every selector in the page. `attributes`, when given, names the attributes to
 * return (null when absent); otherwise all of them are returned. Results per selector are
 * capped, while `elementsFound` counts every match. An unparseable selector is reported by
 * its index so the caller gets a 422 naming it.
 */
export async function scrapeElements(page: Page, targets: ScrapeTarget[], maxResults: number): Promise<ScrapeOutcome> {
  const outcome = await page.evaluate(
    ({ targets, maxResults }) => {
      const elements = [];
      let elementsFound = 0;
      for (const [index, target] of targets.entries()) {
        let matches: Element[];
        try {
          matches = [...document.querySelectorAll(target.selector)];
        } catch {
          return { invalidIndex: index };
        }
        elementsFound += matches.length;
        const results = matches.slice(0, maxResults).map((element) => {
          const rect = element.getBoundingClientRect();
          const attributes: Record<string, string | null> = {};
          if (target.attributes) for (const name of target.attributes) attributes[name] = element.getAttribute(name);
          else for (const attribute of element.attributes) attributes[attribute.name] = attribute.value;
          return {
            text: ((element as HTMLElement).innerText ?? element.textContent ?? '').trim(),
            html: element.outerHTML,
            attributes,
            top: Math.round(rect.top + window.scrollY),
            left: Math.round(rect.left + window.scrollX),
            width: Math.round(rect.width),
            height: Math.round(rect.height),
          };
        });
        elements.push({ selector: target.selector, data: { results } });
      }
      return { elements, elementsFound };
    },
    { targets, maxResults },
  );
  if ('invalidIndex' in outcome && outcome.invalidIndex !== undefined) {
    const index = outcome.invalidIndex;
    throw new InvalidPageOption(`not a valid CSS selector: ${targets[index]!.selector}`, `elements.${index}.selector`);
  }
  return outcome as ScrapeOutcome;
}
