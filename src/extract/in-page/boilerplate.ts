import {
  hasArticleMetaName,
  hasBoilerplateName,
  hasBoilerplateRole,
  hasChromeName,
  hasCommentName,
  hasContentName,
  hasControlName,
  hasProductExtraName,
  isChromeElement,
} from './class-signals.js';
import { isItemList } from './item-lists.js';
import { type ElementStats, linkDensity, type StatsMap } from './measure.js';

/**
 * Boilerplate inside a chosen area, decided top-down so that a pruned element's descendants are
 * never looked at. Every rule is guarded by size: an element holding a large share of the area's
 * non-link text is never boilerplate, whatever its name says.
 */

export interface PruneOptions {
  /** The area is the whole body: site chrome (header, footer, menus) is still in it. */
  includesChrome: boolean;
  /** Comment threads are the content (forums). */
  keepComments: boolean;
  /** A single product: other products (cards), reviews and purchase forms are not its content. */
  productPage: boolean;
  /** Narrowed to an article body: also drop bylines, captions, tag lists and link lists. */
  articleBody: boolean;
}

export function nonLinkText(stats: ElementStats | undefined): number {
  return stats ? stats.text - stats.linkText : 0;
}

function isLinkList(element: Element, own: ElementStats): boolean {
  const density = linkDensity(own);
  if (element.localName === 'a' || /^h[1-6]$/.test(element.localName)) return false;
  if (element.localName === 'p') return density > 0.8 && own.text < 300;
  return density > 0.5 && nonLinkText(own) < 200;
}

function isChrome(element: Element, options: PruneOptions): boolean {
  if (isChromeElement(element)) {
    const name = element.localName;
    if (name === 'nav' || name === 'aside') return true;
    if (name === 'header' || name === 'footer') return options.includesChrome || options.articleBody;
    return true; // a chrome role
  }
  if (!hasChromeName(element)) return false;
  return options.includesChrome || !hasContentName(element);
}

/** A short control dressed as a link or label: "View details", "Compare", "Add to cart". */
function isControl(element: Element, own: ElementStats): boolean {
  return own.text < 40 && hasControlName(element);
}

function isBoilerplate(element: Element, own: ElementStats, stats: StatsMap, options: PruneOptions): boolean {
  if (isChrome(element, options)) return true;
  if (hasBoilerplateRole(element) || element.localName === 'form') return true;
  if (hasBoilerplateName(element) && !hasContentName(element)) return true;
  if (isControl(element, own)) return true;
  if (!options.keepComments && hasCommentName(element)) return true;
  if (options.productPage && (hasProductExtraName(element) || isItemList(element, stats))) return true;
  if (options.articleBody) {
    if (element.localName === 'figcaption') return true;
    if (hasArticleMetaName(element) && !hasContentName(element)) return true;
    if (isLinkList(element, own)) return true;
  }
  return false;
}

/**
 * A heading or label left alone once its list or widget is pruned ("You may also like") goes
 * with it: climb while the parent holds little besides the pruned part.
 */
function orphanContainer(element: Element, stats: StatsMap, stop: Element): Element {
  let current = element;
  const pruned = stats.get(element)?.text ?? 0;
  for (let parent = current.parentElement; parent && parent !== stop; parent = parent.parentElement) {
    const rest = (stats.get(parent)?.text ?? 0) - pruned;
    if (rest > 80) break;
    current = parent;
  }
  return current;
}

/**
 * Adds the boilerplate under `roots` to `pruned` (whose members are not looked into again) and
 * returns what it added.
 */
export function pruneBoilerplate(roots: Element[], stats: StatsMap, options: PruneOptions, pruned: Set<Element>): Element[] {
  const found: Element[] = [];
  const areaText = roots.reduce((sum, root) => sum + nonLinkText(stats.get(root)), 0);
  const visit = (element: Element, root: Element) => {
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
      const own = stats.get(child);
      if (!own || own.text === 0 || pruned.has(child)) continue;
      const small = nonLinkText(own) < Math.max(areaText * 0.25, 1) || own.text < 120;
      if (small && isBoilerplate(child, own, stats, options)) found.push(orphanContainer(child, stats, root));
      else visit(child, root);
    }
  };
  for (const root of roots) visit(root, root);
  const added = found.filter((element, index) => !found.some((other, j) => j !== index && other !== element && other.contains(element)));
  const unique = [...new Set(added)];
  for (const element of unique) pruned.add(element);
  return unique;
}

/** Subtracts pruned subtrees from their ancestors' totals (`sign` -1 adds them back). */
export function discountPruned(pruned: Iterable<Element>, stats: StatsMap, sign = 1): void {
  for (const element of pruned) {
    const own = stats.get(element);
    if (!own) continue;
    for (let parent = element.parentElement; parent; parent = parent.parentElement) {
      const totals = stats.get(parent);
      if (!totals) break;
      totals.text -= sign * own.text;
      totals.linkText -= sign * own.linkText;
    }
  }
}
