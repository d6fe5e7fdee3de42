import { type AreaSize, nonLinkText, type PruneOptions } from './boilerplate.js';
import { type BoilerplateRuleName, productName, pruningRule, type Removal } from './boilerplate-rules.js';
import { BLOCK_TAGS } from './html-blocks.js';
import { holdsH1OutsideLinks } from './headline.js';
import { holdsParagraphsInRow, type StatsMap } from './measure.js';
import { commentHeading, commentWidget, isRecommendationHeading, isReviewHeading, recommendationWidget } from './recommendations.js';
import { hasLetterOrDigit } from './text.js';
import { valueWithLabel } from './thread-furniture.js';
import { checkBudget } from './work-budget.js';

/**
 * Boilerplate inside a chosen area, decided top-down so that a pruned element's descendants are
 * never looked at: each element is asked the rule table (`boilerplate-rules.ts`) in order, then,
 * when no rule pruned it, whether it heads a widget ("Similar items", "Leave a reply"). Every
 * rule is guarded by size: an element holding a large share of the area's non-link text is never
 * boilerplate, whatever its name says.
 */

/** Longer than this, a box holding an ad label is more than the ad's card. */
const MAX_AD_CARD = 200;

/**
 * On a product page the ad is a card of another product (a picture, a name, a price, "Sponsored"):
 * the outermost short box around the label, short of the product's own head (the h1).
 */
function adCard(label: Element, stats: StatsMap, stop: Element): Element {
  let current = label;
  for (let parent = label.parentElement; parent && parent !== stop; parent = parent.parentElement) {
    if ((stats.get(parent)?.text ?? 0) > MAX_AD_CARD || parent.querySelector('h1') !== null) break;
    current = parent;
  }
  return current;
}

/** What goes when a rule whose removal is `removal` matched `element` (see `Removal`). */
function removedFor(removal: Removal, element: Element, stats: StatsMap, root: Element, options: PruneOptions): Element {
  switch (removal) {
    case 'element only': return element;
    case 'element with its label': return valueWithLabel(element);
    case 'ad card on a product page': return options.productPage ? adCard(element, stats, root) : element;
    case 'element and emptied container': return orphanContainer(element, stats, root, productName(options));
  }
}

/** A widget holding this share of the area's non-link text or more is the content (a page of related links). */
const MAX_WIDGET_SHARE = 0.4;
/** Above this much text besides the pruned part, a container is more than its widget's frame. */
const CONTAINER_REST = 80;

/**
 * A heading or label left alone once its list or widget is pruned ("You may also like") goes
 * with it: climb while the parent holds little besides the pruned part, and never into the box
 * holding `headline` (a product's name beside its pruned rating is not a widget's heading).
 */
function orphanContainer(element: Element, stats: StatsMap, stop: Element, headline: Element | undefined): Element {
  let current = element;
  const pruned = stats.get(element)?.text ?? 0;
  for (let parent = current.parentElement; parent && parent !== stop; parent = parent.parentElement) {
    if (headline && parent.contains(headline)) break;
    const rest = (stats.get(parent)?.text ?? 0) - pruned;
    if (rest > CONTAINER_REST || rest > pruned) break;
    current = parent;
  }
  return current;
}

/** A link or emphasis inside a sentence is part of that sentence, whatever its class says. */
function isInlineInText(element: Element): boolean {
  if (BLOCK_TAGS.has(element.localName)) return false;
  const parent = element.parentElement;
  if (!parent) return false;
  // Asked for every inline child of a parent: the parent's own text is scanned once.
  let hasWords = parentHasWords.get(parent);
  if (hasWords === undefined) {
    hasWords = false;
    for (let node = parent.firstChild; node && !hasWords; node = node.nextSibling) {
      hasWords = node.nodeType === Node.TEXT_NODE && hasLetterOrDigit(node.nodeValue ?? '');
    }
    parentHasWords.set(parent, hasWords);
  }
  return hasWords;
}

const parentHasWords = new WeakMap<Element, boolean>();

/**
 * A widget named by its heading ("Similar items", "Leave a reply") goes unless it is a large part
 * of the area. On a product page a recommendation goes at any size: other products are never the
 * product, however short its own text is (a marketplace listing of two lines above four carousels).
 * What is the page itself, its headline or its text, is no widget (`isPageItself`).
 * Undefined when `heading` names no widget.
 */
function smallWidget(heading: Element, stats: StatsMap, root: Element, area: AreaSize, options: PruneOptions): Element[] | undefined {
  const otherPages = isRecommendationHeading(heading, stats);
  const recommendation = otherPages || (options.dropReviews && isReviewHeading(heading, stats));
  const comments = recommendation ? undefined : commentHeading(heading, stats, options.keepComments);
  if (!recommendation && !comments) return undefined;
  const widget = comments ? commentWidget(heading, comments, stats, root) : recommendationWidget(heading, stats, root, options.productPage);
  if (isPageItself(widget, heading, stats, otherPages && !options.productPage)) return [];
  if (recommendation && options.productPage) return widget;
  const nonLink = widget.reduce((sum, element) => sum + nonLinkText(stats.get(element)), 0);
  return nonLink < area.nonLink * MAX_WIDGET_SHARE ? widget : [];
}

/** A widget of other pages links to them: under this share of links, a part that reads as text is the page's own. */
const WIDGET_TEXT_LINKS = 0.1;

/**
 * Whether what a heading opens is the page rather than a widget in it: it holds the page's `h1`,
 * or, for a heading of other pages off a product page, it reads as text (paragraphs in a row,
 * next to no links). A label ("Sponsored content", "More from Acme") set above an article's
 * headline or atop its body would otherwise take the article with it. Product pages are not asked
 * the second: cards of other products may hold no link (eBay's open by script).
 */
function isPageItself(widget: Element[], heading: Element, stats: StatsMap, askText: boolean): boolean {
  if (widget.some((part) => holdsH1OutsideLinks(part, heading))) return true;
  if (!askText) return false;
  const text = widget.reduce((sum, part) => sum + (stats.get(part)?.text ?? 0), 0);
  const links = widget.reduce((sum, part) => sum + (stats.get(part)?.linkText ?? 0), 0);
  return links < text * WIDGET_TEXT_LINKS && widget.some((part) => holdsParagraphsInRow(part, stats));
}

function withReason(element: Element, rule: BoilerplateRuleName | 'widget heading', cause: Element, options: PruneOptions): Element {
  options.reasons?.set(element, `${rule} (${cause === element ? 'itself' : `${cause.localName}.${cause.getAttribute('class') ?? ''} inside`})`);
  return element;
}

/**
 * Adds the boilerplate under `roots` to `pruned` (whose members are not looked into again) and
 * returns what it added.
 */
export function pruneBoilerplate(roots: Element[], stats: StatsMap, options: PruneOptions, pruned: Set<Element>): Element[] {
  const found: Element[] = [];
  const area: AreaSize = {
    text: roots.reduce((sum, root) => sum + (stats.get(root)?.text ?? 0), 0),
    nonLink: roots.reduce((sum, root) => sum + nonLinkText(stats.get(root)), 0),
  };
  const visit = (element: Element, root: Element) => {
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
      const own = stats.get(child);
      if (!own || own.text === 0 || pruned.has(child)) continue;
      checkBudget();
      if (isInlineInText(child)) continue;
      const rule = pruningRule({ element: child, own, stats, options, area });
      if (rule) found.push(withReason(removedFor(rule.removes, child, stats, root, options), rule.name, child, options));
      else {
        const widget = smallWidget(child, stats, root, area, options);
        if (widget) for (const element of widget) found.push(withReason(element, 'widget heading', child, options));
        else visit(child, root);
      }
    }
  };
  for (const root of roots) visit(root, root);
  // Outermost only: an element goes when one of its ancestors was found too (a set walk up, not
  // a comparison of every pair).
  const foundSet = new Set(found);
  const outermost = found.filter((element) => {
    for (let parent = element.parentElement; parent; parent = parent.parentElement) if (foundSet.has(parent)) return false;
    return true;
  });
  const unique = [...new Set(outermost)];
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
