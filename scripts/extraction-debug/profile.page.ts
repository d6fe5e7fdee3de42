import { findMainContent } from '../../src/extract/in-page/main-content.js';
import { toMarkdown } from '../../src/extract/in-page/markdown.js';
import { documentBase } from '../../src/extract/in-page/urls.js';
import { createVisibilityFilter } from '../../src/extract/in-page/visibility.js';

/** Runs in the page: the extraction's phases timed separately. */
export function profile(options: { url: string }): Record<string, number> {
  const t0 = performance.now();
  const visible = createVisibilityFilter();
  const body = document.body;
  const all = Array.from(body.querySelectorAll('*'));
  const t1 = performance.now();
  const main = findMainContent(body, visible, options.url);
  const t2 = performance.now();
  const md = toMarkdown(main.roots, { base: documentBase(options.url), keep: (e) => visible(e) && !main.pruned.has(e) });
  const t3 = performance.now();
  return { elements: all.length, setup: t1 - t0, main: t2 - t1, markdown: t3 - t2, chars: md.length };
}
