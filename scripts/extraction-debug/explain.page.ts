import { findHeadline } from '../../src/extract/in-page/headline.js';
import { findMainContent } from '../../src/extract/in-page/main-content.js';
import { createVisibilityFilter } from '../../src/extract/in-page/visibility.js';

/** `tag#id.first.three.classes`, for debugging output. */
export function describe(element: Element): string {
  const classes = (element.getAttribute('class') ?? '').trim().split(/\s+/).slice(0, 3).join('.');
  const id = element.getAttribute('id');
  return `${element.localName}${id ? `#${id}` : ''}${classes ? `.${classes}` : ''}`;
}

/** Runs in the page: what the main-content finder decided and by which rule, for debugging one page. */
export function explain(options: { url: string; showHidden: boolean }): string[] {
  const body = document.body;
  const visible = createVisibilityFilter(options.showHidden);
  const reasons = new Map<Element, string>();
  const main = findMainContent(body, visible, options.url, reasons);
  const headline = findHeadline(body, main.stats);
  const lines = [
    `type ${main.pageType} narrowed ${main.narrowed} bodyText ${main.stats.get(body)?.text}`,
    `headline ${headline ? `${describe(headline)}: ${(headline.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 80)}` : 'none'}`,
  ];
  for (const root of main.roots) lines.push(`root ${describe(root)} text ${main.stats.get(root)?.text} link ${main.stats.get(root)?.linkText}`);
  for (const element of main.pruned) {
    const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim();
    const own = main.stats.get(element);
    lines.push(`pruned ${describe(element)} ${text.length} ${own?.text}/${own?.linkText} [${reasons.get(element) ?? '?'}]: ${text.slice(0, 80)}`);
  }
  return lines;
}
