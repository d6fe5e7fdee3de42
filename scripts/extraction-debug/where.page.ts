import { describe } from './explain.page.js';

/** Runs in the page: the ancestor chain (outermost first) of each of the first texts holding `phrase`. */
export function where(options: { phrase: string }): string[] {
  const found: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node && found.length < 5; node = walker.nextNode()) {
    if (!(node.nodeValue ?? '').includes(options.phrase)) continue;
    const chain: string[] = [];
    for (let element = node.parentElement; element && element !== document.body; element = element.parentElement) chain.push(describe(element));
    found.push(chain.reverse().join(' > '));
  }
  return found;
}
