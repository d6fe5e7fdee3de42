import {
  type AreaSize,
  isAdLabel,
  isAffiliateDisclosure,
  isCommentSection,
  isComponentPart,
  isCustomerReviews,
  isLoadingPlaceholder,
  isMarkedChrome,
  isNamedBoilerplate,
  isOverlay,
  isPlainBoilerplate,
  isRelativeTime,
  isSiteNotice,
  nonLinkText,
  type PruneOptions,
} from './boilerplate.js';
import { hasChromeName, hasContentName, isViewportLayer } from './class-signals.js';
import type { ElementStats, StatsMap } from './measure.js';
import { isNavigationAboveHeadline, isPager } from './page-navigation.js';
import { isCallToAction, isLoneCount, isMemberRank, isPostAction, isThreadStatus } from './thread-furniture.js';

/**
 * The boilerplate rules, in the order they are asked of each element (top-down, see `prune.ts`).
 * Each says when it applies (the kind of page and pass), what it matches, and what goes when it
 * does. A rule answers `'prune'` (the element is that boilerplate), `'keep'` (it is content: no
 * later rule is asked, the walk looks inside it) or nothing (the next rule decides). To change
 * a rule, change its row; `npm test` runs the golden corpus (test/golden) and shows which real
 * pages moved.
 */

export type BoilerplateRuleName =
  | 'marked chrome'
  | 'overlay'
  | 'viewport layer'
  | 'comment section'
  | 'site notice'
  | 'affiliate disclosure'
  | 'post count'
  | 'post action'
  | 'thread status'
  | 'call to action'
  | 'member rank'
  | 'ad label'
  | 'pager'
  | 'relative time'
  | 'loading placeholder'
  | 'navigation above the headline'
  | 'chrome on a shell page'
  | 'customer reviews'
  | 'review score'
  | 'large block'
  | 'named boilerplate'
  | 'plain boilerplate';

/** What goes when a rule matched an element. */
export type Removal =
  /** The element, with any container it leaves (nearly) empty: a widget's heading goes with it. */
  | 'element and emptied container'
  /** The element alone: the rest of its card or post is content. */
  | 'element only'
  /** The element, with its label when it is the value of a one-pair list (`<dt>Messages</dt><dd>28</dd>`). */
  | 'element with its label'
  /** On a product page the other product's card around the element; elsewhere the element alone. */
  | 'ad card on a product page';

export type Verdict = 'prune' | 'keep' | undefined;

export interface RuleInput {
  element: Element;
  own: ElementStats;
  stats: StatsMap;
  options: PruneOptions;
  area: AreaSize;
}

export interface BoilerplateRule {
  readonly name: BoilerplateRuleName;
  /** When the rule is asked (on every page and pass when left out). */
  readonly when?: (options: PruneOptions) => boolean;
  readonly match: (input: RuleInput) => Verdict;
  readonly removes: Removal;
}

/**
 * A block holding this share of the area's non-link text, with a paragraph of WRAPS_CONTENT_PROSE
 * characters, wraps the content: its tag or role does not make it chrome. (Values as found in
 * issue 30; docs/extraction-history.md tells how the rules around them were tuned.)
 */
const WRAPS_CONTENT_SHARE = 0.5;
const WRAPS_CONTENT_PROSE = 200;
/** Chrome by name this short is a box (sign-up, links), not a page section. */
const SMALL_CHROME = 500;
/** A page with less non-link text than this is a shell: its chrome outweighs what content it has. */
const SHELL_PAGE = 2000;
/**
 * Below this share of the area's non-link text, or this many characters, a block is small enough
 * for the rules by name and by shape (`named boilerplate`, `plain boilerplate`) to be asked.
 */
const SMALL_BLOCK_SHARE = 0.25;
const SMALL_BLOCK_TEXT = 120;
/** A block named as boilerplate that holds a paragraph this long is content whatever its name. */
const NAMED_BLOCK_PROSE = 400;

function wrapsContent({ own, area }: RuleInput): boolean {
  return nonLinkText(own) >= area.nonLink * WRAPS_CONTENT_SHARE && own.maxProse >= WRAPS_CONTENT_PROSE;
}

/**
 * A product page's name: the box holding it (its title bar, a `<header>`, a box named
 * "product-header") is the product's, looked into and not pruned whole, and a part pruned inside
 * it (a rating, a pre-order notice) does not take it along (`prune.ts`).
 */
export function productName(options: PruneOptions): Element | undefined {
  return options.productPage ? options.headline : undefined;
}

function holdsProductName({ element, options }: RuleInput): boolean {
  const name = productName(options);
  return name !== undefined && element.contains(name);
}

const prune = (matched: boolean): Verdict => (matched ? 'prune' : undefined);

const threadPage = (options: PruneOptions) => options.threadPage;

export const BOILERPLATE_RULES: readonly BoilerplateRule[] = [
  {
    // header, footer, nav, aside and their ARIA roles: pruned at any size unless they wrap the content.
    name: 'marked chrome',
    match: (input) => (isMarkedChrome(input.element, input.options) ? (wrapsContent(input) || holdsProductName(input) ? 'keep' : 'prune') : undefined),
    removes: 'element and emptied container',
  },
  {
    // A consent or sign-up dialog can outweigh a page of link cards; only one wrapping the content
    // and holding the headline is the page itself.
    name: 'overlay',
    match: (input) =>
      isOverlay(input.element) ? (!wrapsContent(input) || input.element.querySelector('h1') === null ? 'prune' : 'keep') : undefined,
    removes: 'element and emptied container',
  },
  {
    // Some apps scroll their whole page in a viewport layer: one that wraps the content stays.
    name: 'viewport layer',
    match: (input) => prune(isViewportLayer(input.element) && !wrapsContent(input)),
    removes: 'element and emptied container',
  },
  { name: 'comment section', match: ({ element, options }) => prune(isCommentSection(element, options)), removes: 'element and emptied container' },
  { name: 'site notice', match: ({ element, own, stats, area }) => prune(isSiteNotice(element, own, stats, area)), removes: 'element and emptied container' },
  { name: 'affiliate disclosure', match: ({ element, own }) => prune(isAffiliateDisclosure(element, own)), removes: 'element and emptied container' },
  { name: 'post count', when: threadPage, match: ({ element, own }) => prune(isLoneCount(element, own)), removes: 'element with its label' },
  { name: 'post action', when: threadPage, match: ({ element, own }) => prune(isPostAction(element, own)), removes: 'element and emptied container' },
  { name: 'thread status', when: threadPage, match: ({ element, own }) => prune(isThreadStatus(element, own)), removes: 'element with its label' },
  { name: 'call to action', when: threadPage, match: ({ element, own }) => prune(isCallToAction(element, own)), removes: 'element and emptied container' },
  {
    // Only in the pass that drops the posts' furniture, which looks at a user card before its
    // rank: gone earlier, a rank leaves a card of a name and an avatar that reads as a link list.
    name: 'member rank',
    when: (options) => options.threadPage && options.articleBody,
    match: ({ element, own }) => prune(isMemberRank(element, own)),
    removes: 'element only',
  },
  { name: 'ad label', match: ({ element, own }) => prune(isAdLabel(element, own)), removes: 'ad card on a product page' },
  { name: 'pager', match: ({ element, own }) => prune(isPager(element, own)), removes: 'element and emptied container' },
  { name: 'relative time', match: ({ element, own }) => prune(isRelativeTime(element, own)), removes: 'element and emptied container' },
  { name: 'loading placeholder', match: ({ element, own }) => prune(isLoadingPlaceholder(element, own)), removes: 'element and emptied container' },
  {
    name: 'navigation above the headline',
    match: ({ element, own, options }) => prune(isNavigationAboveHeadline(element, own, options.headline)),
    removes: 'element and emptied container',
  },
  {
    // Site chrome by name on a page with little else (a sign-up box in the footer of an empty
    // shell) is still chrome; only one holding the headline is the page.
    name: 'chrome on a shell page',
    when: (options) => options.includesChrome,
    match: ({ element, own, stats, area }) =>
      prune(
        area.nonLink < SHELL_PAGE &&
          own.text < SMALL_CHROME &&
          hasChromeName(element) &&
          !isComponentPart(element, own, stats) &&
          !hasContentName(element) &&
          element.querySelector('h1') === null,
      ),
    removes: 'element and emptied container',
  },
  {
    // On a product page customers' reviews can outrun its own description many times over.
    name: 'customer reviews',
    when: (options) => options.dropReviews && options.productPage,
    match: ({ element }) => prune(isCustomerReviews(element)),
    removes: 'element and emptied container',
  },
  {
    // On a listing each card's score goes, the rest of the card stays.
    name: 'review score',
    when: (options) => options.dropReviews && !options.productPage,
    match: ({ element }) => prune(isCustomerReviews(element)),
    removes: 'element only',
  },
  {
    // The rules below go by name and shape, weaker evidence: a large block is content for them.
    name: 'large block',
    match: ({ own, area }) => (nonLinkText(own) < area.nonLink * SMALL_BLOCK_SHARE || own.text < SMALL_BLOCK_TEXT ? undefined : 'keep'),
    removes: 'element and emptied container',
  },
  {
    name: 'named boilerplate',
    match: (input) => {
      if (!isNamedBoilerplate(input.element, input.own, input.stats, input.options)) return undefined;
      return input.own.maxProse < NAMED_BLOCK_PROSE && !holdsProductName(input) ? 'prune' : 'keep';
    },
    removes: 'element and emptied container',
  },
  {
    name: 'plain boilerplate',
    match: ({ element, own, stats, options, area }) => prune(isPlainBoilerplate(element, own, stats, options, area)),
    removes: 'element and emptied container',
  },
];

/** The first rule that prunes `input.element`, or undefined when a rule keeps it or none matches. */
export function pruningRule(input: RuleInput): BoilerplateRule | undefined {
  for (const rule of BOILERPLATE_RULES) {
    if (rule.when && !rule.when(input.options)) continue;
    const verdict = rule.match(input);
    if (verdict === 'prune') return rule;
    if (verdict === 'keep') return undefined;
  }
  return undefined;
}
