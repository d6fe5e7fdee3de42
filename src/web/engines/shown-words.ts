import type { Page } from 'playwright-core';
import { evaluateFunction } from '../../extract/page-script.js';

/**
 * Words the page shows (its body's rendered text: what is hidden by its stylesheets does not
 * count), up to `enough`: the static engine's check that a page rendered without scripts is not
 * an application's empty shell.
 */
export function shownWords(page: Page, enough: number): Promise<number> {
  return evaluateFunction(
    page,
    (max: number) => {
      const text = document.body?.innerText ?? '';
      let words = 0;
      for (const _word of text.matchAll(/\S+/g)) {
        words += 1;
        if (words >= max) break;
      }
      return words;
    },
    enough,
  );
}
