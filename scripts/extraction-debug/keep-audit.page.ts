import { nameTokens } from '../../src/extract/in-page/class-signals.js';
import { findMainContent } from '../../src/extract/in-page/main-content.js';
import { createVisibilityFilter } from '../../src/extract/in-page/visibility.js';
import { describe } from './explain.page.js';

export interface KeptBlock {
  parent: number;
  what: string;
  tokens: string[];
  text: string;
}

/** Runs in the page: the kept elements of some size, with their parent's index, name words and text (pruned parts left out). */
export function keepAudit(options: { url: string }): { pageType: string; blocks: KeptBlock[] } {
  const main = findMainContent(document.body, createVisibilityFilter(), options.url);
  const blocks: KeptBlock[] = [];
  const textOf = (element: Element): string => {
    let text = '';
    for (let node = element.firstChild; node; node = node.nextSibling) {
      if (node.nodeType === Node.TEXT_NODE) text += node.nodeValue ?? '';
      else if (node.nodeType === Node.ELEMENT_NODE && main.stats.has(node as Element) && !main.pruned.has(node as Element)) text += ` ${textOf(node as Element)} `;
    }
    return text;
  };
  const visit = (element: Element, parent: number) => {
    if (main.pruned.has(element) || (main.stats.get(element)?.text ?? 0) < 150) return;
    const index = blocks.length;
    blocks.push({ parent, what: describe(element), tokens: nameTokens(element), text: textOf(element) });
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) visit(child, index);
  };
  for (const root of main.roots) visit(root, -1);
  return { pageType: main.pageType, blocks };
}
