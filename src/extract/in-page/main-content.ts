import { isContentHeader, nonLinkText, type PruneOptions } from './boilerplate.js';
import { discountPruned, pruneBoilerplate } from './prune.js';
import { classWeight, hasArticleMetaName, hasBoilerplateName, hasBoilerplateRole, hasChromeName, hasCommentName, hasContentName, HEADING_SELECTOR, isChromeElement, isHeading } from './class-signals.js';
import { repeatedCardButtons } from './card-buttons.js';
import { findHeadline, isTitle, pageTitleWords } from './headline.js';
import { isItemList, isTeaserList, itemListShare, MIN_CARDS, teaserShare } from './item-lists.js';
import { type ElementStats, linkDensity, liveElements, measure, PROSE_LINKS, type StatsMap } from './measure.js';
import { detectPageType, type PageType, readStructuredData, type StructuredData } from './page-type.js';
import { lowerCaseWords } from './text.js';
import { step } from './work-budget.js';

/**
 * Finds the page's main content in three steps: the main area (`<main>` when the page has a
 * real one, else the body) without its boilerplate; the article body inside it, found by
 * letting prose blocks vote for their ancestors (Readability's idea, on the live DOM, without
 * changing it); and the choice between the two, by page type and by how much of the area's
 * text the article body holds.
 */

export interface MainContent {
  roots: Element[];
  /** Elements inside the roots left out of the markdown. */
  pruned: Set<Element>;
  pageType: PageType;
  /** Product description from structured data when the page body does not show it. */
  productDescription: string;
  /** Narrowed to an article body inside the main area. */
  narrowed: boolean;
  stats: StatsMap;
}

/*
 * The article-body vote (`scoreCandidates`, `climb`, `withSiblings`) keeps Readability.js's
 * numbers, which that library settled on over years of pages; the shares after them are Pluck's
 * own, set by hand against both dev sets (docs/extraction-history.md says when and why).
 */

/** Readability: a block with less text than this has no vote. */
const VOTING_BLOCK_TEXT = 25;
/** Readability: a block votes for its ancestors up to this many levels up. */
const VOTING_LEVELS = 5;
/** Readability: each this many characters of a block add a point to its vote, up to `MAX_LENGTH_POINTS`. */
const CHARACTERS_PER_POINT = 100;
const MAX_LENGTH_POINTS = 3;
/** Readability: climbing stops at a parent that scores under the last score divided by this. */
const CLIMB_SCORE_DIVISOR = 3;
/** Readability: a sibling of the top candidate joins it at this share of its score, and at least `SIBLING_SCORE_FLOOR`. */
const SIBLING_SCORE_SHARE = 0.2;
const SIBLING_SCORE_FLOOR = 10;
/** Readability: a paragraph beside the top candidate joins it past this length, with links under `SIBLING_PARAGRAPH_LINKS`. */
const SIBLING_PARAGRAPH_TEXT = 80;
const SIBLING_PARAGRAPH_LINKS = 0.25;
/** Readability: a parent gets a block's whole vote, a grandparent half, one further up the vote divided by this times its level (the parent is level 0). */
const FAR_VOTE_DIVISOR = 3;

/** A block whose own text is half links or more is a line of links, not prose. */
const PROSE_BLOCK_LINKS = 0.5;
/** `<main>` is the area when it holds at least this share of the page's own text (shop footers can outweigh it). */
const MAIN_AREA_SHARE = 0.25;
/** An article among several stacked on one page holds at least this much text. */
const STACKED_ARTICLE_TEXT = 200;
/** A parent with at most this much more text than its only child is a wrapper of it. */
const WRAPPER_SLACK = 1.05;
/** A block that is more than this share teasers for other pages is not this page's content. */
const TEASER_SHARE = 0.5;
/** Text made of fewer distinct words than this share of its words is filler repeated. */
const DISTINCT_WORD_SHARE = 0.2;
/** The article body holds most of the area's prose at this share. */
const PROSE_SHARE = 0.6;
/** Pruning article furniture that leaves less than this share of the body's text means it was no article. */
const KEPT_BODY_SHARE = 0.5;
/** In a body (a news hub's) teaser lists are looked for this many levels down; beside it, as deep as `teaserShare` looks by default. */
const TEASERS_IN_BODY_DEPTH = 10;
/** A block that is a list of this many cards or more is a listing, not an article body. */
const LIST_BODY_CARDS = 4;

/** Readability's weights: boxes count for a block's vote, lists and headings against it. */
function tagWeight(element: Element): number {
  switch (element.localName) {
    case 'div': case 'article': case 'main': case 'section': return 5;
    case 'pre': case 'td': case 'blockquote': return 3;
    case 'address': case 'ol': case 'ul': case 'dl': case 'dd': case 'dt': case 'li': case 'form': return -3;
    case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': case 'th': return -5;
    default: return 0;
  }
}

function isProseBlock(element: Element, stats: ElementStats): boolean {
  if (isHeading(element) || stats.ownText < VOTING_BLOCK_TEXT) return false;
  return stats.ownLinkText / stats.ownText < PROSE_BLOCK_LINKS;
}

const SITE_LANDMARKS = 'header, footer, nav, [role="banner"], [role="contentinfo"], [role="navigation"]';

/**
 * `<main>` / `role=main` when it holds a fair share of the page's own text, not counting the site's
 * header, footer and menus around it (a shop's legal footnotes can outweigh its cards).
 */
function mainArea(body: Element, stats: StatsMap): Element {
  let best: Element | undefined;
  for (const element of Array.from(body.querySelectorAll('main, [role="main"]'))) {
    if (!stats.has(element)) continue;
    if (!best || nonLinkText(stats.get(element)) > nonLinkText(stats.get(best))) best = element;
  }
  if (!best) return body;
  let pageText = nonLinkText(stats.get(body));
  for (const landmark of Array.from(body.querySelectorAll(SITE_LANDMARKS))) {
    if (landmark.contains(best) || best.contains(landmark) || landmark.parentElement?.closest(SITE_LANDMARKS)) continue;
    pageText -= nonLinkText(stats.get(landmark));
  }
  return nonLinkText(stats.get(best)) >= MAIN_AREA_SHARE * pageText ? best : body;
}

/**
 * Pages that stack several articles (infinite scroll, aggregators) are about the one whose
 * headline is the page's title.
 */
function titledArticle(area: Element, stats: StatsMap): Element | undefined {
  const articles = Array.from(area.querySelectorAll('article, [itemtype*="Article"]')).filter(
    (element) => (stats.get(element)?.text ?? 0) > STACKED_ARTICLE_TEXT && !element.parentElement?.closest('article, [itemtype*="Article"]'),
  );
  if (articles.length < 2) return undefined;
  const title = pageTitleWords();
  return articles.find((article) => {
    const headline = article.querySelector('[itemprop="headline"], h1, h2');
    return isTitle(lowerCaseWords(headline?.textContent ?? ''), title);
  });
}

function scoreCandidates(area: Element, live: Element[], stats: StatsMap): Map<Element, number> {
  const scores = new Map<Element, number>();
  for (const element of live) {
    const own = stats.get(element);
    if (!own || !isProseBlock(element, own)) continue;
    const blockScore = 1 + own.ownCommas + Math.min(Math.floor(own.ownText / CHARACTERS_PER_POINT), MAX_LENGTH_POINTS);
    let ancestor = element.parentElement;
    for (let level = 0; ancestor && level < VOTING_LEVELS; level++, ancestor = ancestor.parentElement) {
      if (!scores.has(ancestor)) scores.set(ancestor, tagWeight(ancestor) + classWeight(ancestor));
      const divider = level === 0 ? 1 : level === 1 ? 2 : level * FAR_VOTE_DIVISOR;
      scores.set(ancestor, (scores.get(ancestor) ?? 0) + blockScore / divider);
      if (ancestor === area) break;
    }
  }
  for (const [element, score] of scores) scores.set(element, score * (1 - linkDensity(stats.get(element))));
  return scores;
}

function bestCandidate(scores: Map<Element, number>, area: Element): Element {
  let best: Element = area;
  let bestScore = -Infinity;
  for (const [element, score] of scores) {
    if (score > bestScore && area.contains(element)) {
      best = element;
      bestScore = score;
    }
  }
  return best;
}

/** Climbs past wrappers that add nothing, and to a parent that scores better. */
function climb(top: Element, scores: Map<Element, number>, stats: StatsMap, area: Element): Element {
  let candidate = top;
  let lastScore = scores.get(top) ?? 0;
  for (let parent = top.parentElement; parent && candidate !== area; parent = parent.parentElement) {
    const parentText = stats.get(parent)?.text ?? 0;
    if (parentText <= (stats.get(candidate)?.text ?? 0) * WRAPPER_SLACK) {
      candidate = parent;
      continue;
    }
    if (parent === area) break;
    const score = scores.get(parent);
    if (score === undefined) continue;
    if (score < lastScore / CLIMB_SCORE_DIVISOR) break;
    if (score > lastScore) return parent;
    lastScore = score;
  }
  return candidate;
}

/** A footer, sidebar or comment box next to the article body is not more of it, whatever it scores. */
function isFurnitureByName(element: Element): boolean {
  return isChromeElement(element) || hasChromeName(element) || hasCommentName(element) || hasBoilerplateName(element);
}

/**
 * Siblings of the top candidate that carry content too (a split article body, the header holding
 * a docs page's title and lead); not a grid of teasers for other pages, however much summary text
 * its cards hold. An article's header goes with its headline (`withHeader` false).
 */
function withSiblings(top: Element, scores: Map<Element, number>, stats: StatsMap, pruned: Set<Element>, withHeader: boolean): Element[] {
  const parent = top.parentElement;
  if (!parent || top.localName === 'body') return [top];
  const topScore = scores.get(top) ?? 0;
  const threshold = Math.max(SIBLING_SCORE_FLOOR, topScore * SIBLING_SCORE_SHARE);
  const roots: Element[] = [];
  for (let sibling = parent.firstElementChild; sibling; sibling = sibling.nextElementSibling) {
    const own = stats.get(sibling);
    if (sibling === top) roots.push(sibling);
    else if (!own || pruned.has(sibling)) continue;
    else if (withHeader && isContentHeader(sibling, own)) roots.push(sibling);
    else if (isFurnitureByName(sibling)) continue;
    else if ((scores.get(sibling) ?? 0) + (hasContentName(sibling) ? SIBLING_SCORE_SHARE * topScore : 0) >= threshold) {
      if (teaserShare(sibling, stats) <= TEASER_SHARE) roots.push(sibling);
    } else if (sibling.localName === 'p' && own.text > SIBLING_PARAGRAPH_TEXT && linkDensity(own) < SIBLING_PARAGRAPH_LINKS) roots.push(sibling);
    else if (isSameKindOfBlock(sibling, top) && (scores.get(sibling) ?? 0) > 0 && own.maxProse >= SPLIT_BODY_PROSE && linkDensity(own) < PROSE_LINKS) {
      if (teaserShare(sibling, stats) <= TEASER_SHARE) roots.push(sibling);
    }
  }
  return roots;
}

/** A section of a page holds a heading and at least this much text besides links. */
const SECTION_TEXT = 100;

/** A section of the page's own: a heading and text, not a list of cards or teasers for other pages. */
function isPageSection(element: Element, stats: StatsMap): boolean {
  if (nonLinkText(stats.get(element)) < SECTION_TEXT || element.querySelector(HEADING_SELECTOR) === null) return false;
  return !isItemList(element, stats) && teaserShare(element, stats) <= TEASER_SHARE;
}

/**
 * A landing or service page is a stack of sections (hero, features, process, services), each
 * with its heading, their prose set deep in page-builder boxes: the best-scoring one (a carousel
 * of long cards, the longest feature) is one part of the page, not its body. It is one of them
 * when sections of its tag stand before it (an article body comes first, its header aside) and
 * another besides; one named as the content ("article", "entry-content") is the body.
 */
function isOneOfSections(candidate: Element, stats: StatsMap, pruned: Set<Element>): boolean {
  const parent = candidate.parentElement;
  if (!parent || hasContentName(candidate) || !candidate.querySelector(HEADING_SELECTOR)) return false;
  let before = 0;
  let after = 0;
  let seen = false;
  for (let sibling = parent.firstElementChild; sibling; sibling = sibling.nextElementSibling) {
    if (sibling === candidate) seen = true;
    else if (sibling.localName === candidate.localName && !pruned.has(sibling) && isPageSection(sibling, stats)) {
      if (seen) after++;
      else before++;
    }
  }
  return before >= 1 && before + after >= 2;
}

/** A paragraph this long in a block made like the article body's is more of the body. */
const SPLIT_BODY_PROSE = 100;

/**
 * Page builders (Squarespace, Bricks) cut one article into a row of alike blocks, text,
 * image, text: their classes match the body block's, and their depth makes their prose score low.
 * Low, not nothing: a section of the same make whose prose lies deeper still (an FAQ of
 * accordions under the article) scores nothing and stays out.
 */
function isSameKindOfBlock(sibling: Element, top: Element): boolean {
  const classes = (top.getAttribute('class') ?? '').trim();
  return classes !== '' && sibling.localName === top.localName && sibling.getAttribute('class')?.trim() === classes;
}

/** A paragraph of this many characters is prose, not a label or a line of chrome. */
const PROSE_BESIDE_AREA = 300;

/**
 * A category or product page often sets its description (the category's buying guide, the
 * product's long text) beside `<main>` rather than in it, which then only holds the grid or the
 * purchase box. Regions after the main area (following siblings of it and of its ancestors, not
 * looked into) that are real prose and not site chrome are part of the page's content too. Before
 * it stand banners and heroes.
 */
function proseBesideArea(area: Element, body: Element, stats: StatsMap): Element[] {
  // Walking up and onwards visits them in document order, all after the area.
  const found: Element[] = [];
  for (let inner: Element | null = area; inner && inner !== body; inner = inner.parentElement) {
    for (let sibling = inner.nextElementSibling; sibling; sibling = sibling.nextElementSibling) {
      const own = stats.get(sibling);
      if (!own || own.maxProse < PROSE_BESIDE_AREA || nonLinkText(own) < PROSE_BESIDE_AREA || linkDensity(own) > PROSE_LINKS) continue;
      if (isFurnitureByName(sibling) || hasArticleMetaName(sibling) || hasBoilerplateRole(sibling) || sibling.localName === 'form') continue;
      if (isItemList(sibling, stats) || teaserShare(sibling, stats) > TEASER_SHARE || !isVariedText(sibling)) continue;
      found.push(sibling);
    }
  }
  return found;
}

/** Words, not a filler repeated (font probes, placeholders): checked only on a few candidates. */
function isVariedText(element: Element): boolean {
  const words = lowerCaseWords(element.textContent ?? '');
  return new Set(words).size >= words.length * DISTINCT_WORD_SHARE;
}

/** Narrow to the article body when the page is prose-shaped and that body holds most of it. */
function narrowingThreshold(pageType: PageType): number {
  switch (pageType) {
    case 'article': return 0.4;
    case 'docs': return 0.5;
    case 'other': return 0.65;
    default: return Infinity;
  }
}

function rootsText(roots: Element[], stats: StatsMap): number {
  return roots.reduce((sum, root) => sum + nonLinkText(stats.get(root)), 0);
}

/**
 * Text in grids of teasers for other pages (latest news, more stories) outside the roots: summary
 * text, but not what this page is about.
 */
function teaserText(area: Element, roots: Element[], stats: StatsMap, pruned: Set<Element>): number {
  let total = 0;
  const visit = (element: Element) => {
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
      if (!stats.has(child) || pruned.has(child) || roots.includes(child)) continue;
      const holdsRoot = roots.some((root) => child.contains(root));
      if (!holdsRoot && isTeaserList(child, stats)) total += nonLinkText(stats.get(child));
      else if (holdsRoot || (stats.get(child)?.elements ?? 0) > MIN_CARDS) visit(child);
    }
  };
  visit(area);
  return total;
}

/** Below this share of all the area's text, links included, a body is one block of a page of links. */
const LINKED_PAGE_SHARE = 0.35;

/**
 * A page of results or teasers (a marketplace search, a news hub) is mostly links: counted
 * without them, a blurb above the results (Etsy's note on paid ads) can pass for most of its
 * text. A body that holds little of the text with the links counted is not what such a page is.
 */
function holdsLittleOfAllText(roots: Element[], area: Element, stats: StatsMap): boolean {
  const text = roots.reduce((sum, root) => sum + (stats.get(root)?.text ?? 0), 0);
  return text < LINKED_PAGE_SHARE * (stats.get(area)?.text ?? 0);
}

/**
 * Whether the article body holds enough of the area to narrow to. On an article, teaser grids
 * beside it do not count; elsewhere they may be what the page lists.
 */
function holdsMostOfArea(roots: Element[], area: Element, stats: StatsMap, pruned: Set<Element>, pageType: PageType): boolean {
  const threshold = narrowingThreshold(pageType);
  const text = rootsText(roots, stats);
  const areaText = nonLinkText(stats.get(area));
  if (pageType === 'other' && holdsLittleOfAllText(roots, area, stats)) return false;
  if (text >= threshold * areaText) return true;
  return pageType === 'article' && text >= threshold * (areaText - teaserText(area, roots, stats, pruned));
}

/** A paragraph run this long, mostly not links, is prose (not a label, a caption, a link line). */
const PROSE_RUN = 80;

/**
 * Whether the article body holds most of the area's prose. Page builders (Elementor and the like)
 * set each paragraph of a service page in its own deep box, where no ancestor gathers their score,
 * while an FAQ of long answers beside them scores high and can hold 40% of the text: narrowing to
 * it would drop the page's own words. Lists of cards and teasers do not count (their summaries
 * are about other pages).
 */
function holdsMostProse(roots: Element[], area: Element, stats: StatsMap, pruned: Set<Element>): boolean {
  // Telling lists apart walks their items; only needed when the plain count says no.
  return proseShare(roots, area, stats, pruned, false) >= PROSE_SHARE || proseShare(roots, area, stats, pruned, true) >= PROSE_SHARE;
}

function proseShare(roots: Element[], area: Element, stats: StatsMap, pruned: Set<Element>, skipLists: boolean): number {
  let inRoots = 0;
  let total = 0;
  const visit = (element: Element, inside: boolean) => {
    const own = stats.get(element);
    // No prose run anywhere below: nothing to count (most of a page).
    if (!own || own.maxProse < PROSE_RUN) return;
    const within = inside || roots.includes(element);
    if (skipLists && !within && element.childElementCount >= MIN_CARDS && (isItemList(element, stats) || isTeaserList(element, stats))) return;
    if (own.ownText >= PROSE_RUN && own.ownLinkText < own.ownText * PROSE_LINKS) {
      total += own.ownText;
      if (within) inRoots += own.ownText;
    }
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) if (!pruned.has(child)) visit(child, within);
  };
  visit(area, false);
  return total === 0 ? 1 : inRoots / total;
}

/** Prunes article furniture inside the article body, unless that would gut it (then it was not one). */
function pruneArticleBody(roots: Element[], stats: StatsMap, options: PruneOptions, pruned: Set<Element>): void {
  const before = rootsText(roots, stats);
  const added = pruneBoilerplate(roots, stats, { ...options, articleBody: true }, pruned);
  discountPruned(added, stats);
  if (rootsText(roots, stats) >= before * KEPT_BODY_SHARE) return;
  discountPruned(added, stats, -1);
  for (const element of added) pruned.delete(element);
}

/**
 * Whether teasers (a linked headline, a byline, a summary each) hold most of the body: inside its
 * roots, or as the roots themselves when they are the alike items of one list. The teasers' text
 * includes their headline links and the body's leaves links out: a teaser's words are mostly its
 * link, so a page of teasers has little text besides them.
 */
function isTeaserBody(roots: Element[], stats: StatsMap): boolean {
  const parent = roots[0]?.parentElement;
  const scope = parent && roots.length > 1 && roots.every((root) => root.parentElement === parent) ? [parent] : roots;
  const inTeasers = scope.reduce((sum, element) => sum + teaserShare(element, stats, TEASERS_IN_BODY_DEPTH) * (stats.get(element)?.text ?? 0), 0);
  return inTeasers > TEASER_SHARE * rootsText(scope, stats);
}

/** Cards say their button once each (a listing's, a service page's case studies): those lines go (see `repeatedCardButtons`). */
function pruneCardButtons(area: Element, stats: StatsMap, pruned: Set<Element>, reasons?: Map<Element, string>): Element[] {
  const labels = repeatedCardButtons(area, stats, pruned);
  for (const label of labels) {
    pruned.add(label);
    reasons?.set(label, 'repeated card button');
  }
  return labels;
}

/** Page kinds whose main area may leave their description beside it. */
const BESIDE_TYPES = new Set<PageType>(['listing', 'product', 'other']);

/** `reasons`, for debugging, is filled with the rule that pruned each element. */
export function findMainContent(body: Element, keep: (element: Element) => boolean, url: string, reasons?: Map<Element, string>): MainContent {
  const stats = step('measure', () => measure(body, keep));
  const data = step('structured data', readStructuredData);
  const area = step('main area', () => titledArticle(body, stats) ?? mainArea(body, stats));
  const pageType = step('page type', () => detectPageType(data, url, () => itemListShare(area, stats)));
  const pruned = new Set<Element>();
  const headline = findHeadline(body, stats);
  const areaOptions: PruneOptions = {
    includesChrome: area === body,
    // On a Q&A page the question and its answers are the content; the remarks under each post are not.
    keepComments: pageType === 'forum' && !data.types.has('QAPage'),
    threadPage: pageType === 'forum',
    productPage: pageType === 'product',
    docsPage: pageType === 'docs',
    dropReviews: pageType === 'product' || pageType === 'listing',
    articleBody: false,
    ...(headline ? { headline } : {}),
    ...(reasons ? { reasons } : {}),
  };
  step('boilerplate', () => discountPruned(pruneBoilerplate([area], stats, areaOptions, pruned), stats));
  step('card buttons', () => discountPruned(pruneCardButtons(area, stats, pruned, reasons), stats));
  const scores = step('scoring', () => scoreCandidates(area, liveElements(area, stats, pruned), stats));
  const candidate = climb(bestCandidate(scores, area), scores, stats, area);
  const roots = step('siblings', () => withSiblings(candidate, scores, stats, pruned, pageType !== 'article'));
  const narrow = step(
    'narrowing',
    () =>
      !isOneOfSections(candidate, stats, pruned) &&
      holdsMostOfArea(roots, area, stats, pruned, pageType) && !isItemList(candidate, stats, LIST_BODY_CARDS) && holdsMostProse(roots, area, stats, pruned),
  );
  const description = productDescription(pageType, data);
  if (!narrow) {
    // A thread is its posts, a product its description: the furniture around them (user cards,
    // dates, vote, share and category links) goes.
    if (pageType === 'forum' || pageType === 'product') step('post furniture', () => pruneArticleBody([area], stats, areaOptions, pruned));
    const beside = area !== body && BESIDE_TYPES.has(pageType) ? step('prose beside', () => proseBesideArea(area, body, stats)) : [];
    if (beside.length > 0) step('boilerplate beside', () => discountPruned(pruneBoilerplate(beside, stats, { ...areaOptions, includesChrome: true }, pruned), stats));
    return { roots: [area, ...beside], pruned, pageType, productDescription: description, narrowed: false, stats };
  }
  // A body that is a list of teasers is made of the headlines, bylines and dates an article body
  // sheds. (Articles are left out: their bodies hold lists that look like teasers, reading lists.)
  if (pageType === 'article' || !isTeaserBody(roots, stats)) {
    step('article body', () => pruneArticleBody(roots, stats, { ...areaOptions, dropHeadline: pageType === 'article', dropTeasers: pageType === 'article' }, pruned));
  }
  return { roots, pruned, pageType, productDescription: description, narrowed: true, stats };
}

function productDescription(pageType: PageType, data: StructuredData): string {
  return pageType === 'product' ? data.productDescription : '';
}
