/**
 * What an element's tag, class, id and role say about it. Class names are split into word tokens
 * ("post__share-bar" -> post, share, bar; "relatedPosts" -> related, posts) so that a word only
 * matches whole ("shareholder" is not "share").
 */

const tokenCache = new WeakMap<Element, string[]>();
/** Many elements share one class string ("item", "col-md-4"): tokenised once per run. */
const tokensByName = new Map<string, string[]>();
const NO_TOKENS: string[] = [];
const STATE_PREFIX = /^(has|is|with|no|show|hide|enable|disable|js|page-template|template)[-_]/i;
/**
 * A class ending in what the element may have or lacks ("subscription-eligible" on a shop's
 * product card, "ad-free" on an article) says its state, as the prefixes above do: the word
 * before it is not what the element is. Not "-enabled" or "-active": "sd-sharing-enabled" is
 * WordPress's share bar itself.
 */
const STATE_SUFFIXES = ['-eligible', '_eligible', '-free', '_free'];

function hasStateSuffix(name: string): boolean {
  return STATE_SUFFIXES.some((suffix) => name.endsWith(suffix));
}

function tokenise(name: string): string[] {
  // State classes ("has-sidebar", "is-menu-open", "with-comments") describe, they do not name.
  const names = name.split(/\s+/).filter((part) => !STATE_PREFIX.test(part) && !hasStateSuffix(part));
  return names
    .join(' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((token) => token.length > 0);
}

function cachedTokens(name: string): string[] {
  let tokens = tokensByName.get(name);
  if (!tokens) {
    tokens = tokenise(name);
    tokensByName.set(name, tokens);
  }
  return tokens;
}

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Any heading, for `querySelector`. */
export const HEADING_SELECTOR = [...HEADINGS].join(', ');

export function isHeading(element: Element): boolean {
  return HEADINGS.has(element.localName);
}
/** A slug this many words long was made from a title, not chosen as a name. */
const SLUG_WORDS = 3;

/** The element's first child if it is a heading, past empty anchors (Sphinx's `<span id="old-name">`). */
function firstHeading(element: Element): Element | null {
  let child = element.firstElementChild;
  while (child && !isHeading(child) && child.firstChild === null) child = child.nextElementSibling;
  return child && isHeading(child) ? child : null;
}

/**
 * An id made from the section's own heading ("respond-to-review-comments" over "Respond to review
 * comments", as Sphinx and Markdown renderers write them) repeats the heading's words: it says
 * what the text is about, not what part of the page the element is.
 */
function isHeadingSlug(element: Element, id: string): boolean {
  if (id === '') return false;
  const heading = isHeading(element) ? element : firstHeading(element);
  if (!heading) return false;
  const words = id.toLowerCase().split(/[-_]+/).filter((word) => word.length > 0);
  if (words.length < SLUG_WORDS) return false;
  // Slugs are ASCII; an ASCII split (no Unicode class to compile in every fresh page) finds their words.
  const title = new Set((heading.textContent ?? '').toLowerCase().split(/[^a-z0-9]+/));
  return words.every((word) => title.has(word));
}

export function nameTokens(element: Element): string[] {
  let tokens = tokenCache.get(element);
  if (!tokens) {
    const classes = element.getAttribute('class');
    const id = element.getAttribute('id') ?? '';
    if (!classes && !id) tokens = NO_TOKENS;
    else tokens = cachedTokens(`${classes ?? ''} ${isHeadingSlug(element, id) ? '' : id}`);
    tokenCache.set(element, tokens);
  }
  return tokens;
}

function hasToken(element: Element, words: ReadonlySet<string>): boolean {
  return nameTokens(element).some((token) => words.has(token));
}

/** Site chrome around the content: only pruned outside the main area / article. */
const CHROME_WORDS = new Set([
  'header', 'masthead', 'topbar', 'navbar', 'nav', 'navigation', 'menu', 'megamenu', 'submenu', 'menubar', 'footer',
  'sidebar', 'sidenav', 'offcanvas', 'drawer', 'toolbar', 'announcement', 'skip', 'utility', 'gnav', 'subnav',
]);

/** Boilerplate that also shows up inside content containers. */
const BOILERPLATE_WORDS = new Set([
  'ad', 'ads', 'adv', 'advert', 'advertisement', 'advertising', 'adsense', 'adslot', 'dfp', 'sponsor', 'sponsored',
  'breadcrumb', 'breadcrumbs', 'crumbs', 'cookie', 'cookies', 'consent', 'gdpr', 'newsletter', 'subscribe',
  'subscription', 'signup', 'share', 'sharing', 'sharebar', 'social', 'socials', 'related', 'recommended',
  'recommendations', 'recirculation', 'outbrain', 'taboola', 'popup', 'modal', 'overlay',
  'pagination', 'pager', 'print', 'rss', 'paywall', 'tooltip', 'sr', 'screenreader', 'visuallyhidden', 'disqus',
  'filter', 'filters', 'facet', 'facets', 'refinement', 'refinements', 'sort', 'sorting', 'sortby', 'wishlist',
]);

/** Overlays: modals, drawers, popups. */
const OVERLAY_WORDS = new Set(['modal', 'popup', 'drawer', 'offcanvas', 'lightbox', 'flyout', 'flyin']);

/** Short controls styled as links or labels. */
const CONTROL_WORDS = new Set(['btn', 'button', 'cta', 'compare', 'quickview', 'quickshop', 'swatch', 'swatches']);

/** On a product page: other people's opinions of it, from the shop's own widget or a review service's. */
const REVIEW_WORDS = new Set(['review', 'reviews', 'rating', 'ratings', 'yotpo', 'okendo', 'jdgm', 'stamped', 'trustpilot', 'bazaarvoice', 'bv']);

/** On a product page: what is about other products. */
const PRODUCT_EXTRA_WORDS = new Set(['upsell', 'crosssell', 'recently', 'viewed', 'similar', 'bundle', 'reco', 'recs', 'carousel']);

/** Words naming comment sections (content on forums, boilerplate elsewhere). */
const COMMENT_WORDS = new Set(['comment', 'comments', 'respond', 'replies', 'discussion']);

/** Article furniture: byline, dates, tags, captions. Left out when narrowing to an article body. */
const ARTICLE_META_WORDS = new Set([
  'byline', 'author', 'authors', 'dateline', 'timestamp', 'meta', 'tags', 'tag', 'tagcloud', 'categories', 'caption',
  'credit', 'credits', 'bio', 'subscribe', 'promo', 'inline', 'embed', 'source', 'more', 'readmore', 'next', 'prev',
  'previous',
]);

/** Words that mark a content container. */
const CONTENT_WORDS = new Set([
  'article', 'content', 'entry', 'hentry', 'main', 'post', 'text', 'body', 'story', 'blog', 'prose', 'markdown',
  'rte', 'richtext', 'wysiwyg',
]);

const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search', 'menubar', 'toolbar']);
const BOILERPLATE_ROLES = new Set(['dialog', 'alertdialog', 'menu', 'tooltip']);
const CHROME_TAGS = new Set(['nav', 'footer', 'aside', 'header']);

/** A strip of offers across the top of a shop's pages ("promo-bar", "promotion-banner"): chrome like an announcement bar. */
const PROMO_WORDS = new Set(['promo', 'promotion', 'promotional']);
const STRIP_WORDS = new Set(['bar', 'banner', 'strip', 'ribbon']);

function hasPromoStripName(tokens: string[]): boolean {
  return tokens.some((token, index) => PROMO_WORDS.has(token) && STRIP_WORDS.has(tokens[index + 1] ?? ''));
}

export function hasChromeName(element: Element): boolean {
  const tokens = nameTokens(element);
  return tokens.some((token) => CHROME_WORDS.has(token)) || hasPromoStripName(tokens);
}

/** Words that name the top or bottom part of anything: a page, but also a card or a section. */
const PART_WORDS = new Set(['header', 'footer']);

/** Words that make a header or footer the page's own ("site-footer", "global-header", "l-header"). */
const PAGE_WORDS = new Set(['site', 'page', 'global', 'main', 'app', 'layout', 'l', 'primary', 'master', 'website', 'theme', 'top', 'bottom']);

/** A generated suffix after a class's words ("-sc-14uj3bo-2", "__3xYz"), not a word of it. */
function isSuffixToken(token: string): boolean {
  return token.length <= 2 || /\d/.test(token) || WRAPPER_WORDS.has(token);
}

/** Words for a wrapper around a part ("game_header_ctn", "card-footer-inner"), not a part of their own. */
const WRAPPER_WORDS = new Set(['ctn', 'container', 'wrapper', 'wrap', 'inner', 'outer', 'holder']);

/**
 * Named as the header or footer of a component ("card-header", "product-stories-header",
 * "CustomerCardFooter-sc-e2c04df0-8", "game_header_ctn"), not of the page: in every class and the
 * id naming chrome, that word follows the component's name and precedes only generated suffixes
 * or wrapper words ("footer-group", "footer-links", "site-footer" name page regions).
 */
export function hasComponentPartName(element: Element): boolean {
  let named = false;
  // The attribute, not `.id`: a form's `.id` is its control named "id", when it has one.
  for (const name of [...(element.getAttribute('class') ?? '').split(/\s+/), element.getAttribute('id') ?? '']) {
    const tokens = cachedTokens(name);
    const index = tokens.findIndex((token) => CHROME_WORDS.has(token));
    if (index < 0) continue;
    if (index === 0 || PAGE_WORDS.has(tokens[0] ?? '') || !PART_WORDS.has(tokens[index] ?? '')) return false;
    if (!tokens.slice(index + 1).every(isSuffixToken)) return false;
    named = true;
  }
  return named;
}

const HEADER_WORDS = new Set(['header', 'masthead']);

/** The only chrome words in the element's names say "header" (of the page, or of a section of it). */
export function isNamedHeaderOnly(element: Element): boolean {
  const chrome = nameTokens(element).filter((token) => CHROME_WORDS.has(token));
  return chrome.length > 0 && chrome.every((token) => HEADER_WORDS.has(token));
}

export function hasBoilerplateName(element: Element): boolean {
  const tokens = nameTokens(element);
  // The visible text a tooltip opens from ("tooltip-trigger": Stripe's "Expandable" badges) is not the tooltip.
  const words = tokens.includes('trigger') ? tokens.filter((token) => token !== 'tooltip') : tokens;
  return words.some((token) => BOILERPLATE_WORDS.has(token));
}

/**
 * One name that says "the boilerplate of the content" ("post-share", "cPostShareMenu",
 * "entry-related", "article-social-share"): the boilerplate word follows the content word, so it
 * names a part of the content, not the content. A content word in another of the element's names
 * ("hentry category-social") still protects it. Overlays are left to their own rule: a page can be
 * laid out in one ("page_content_overlay").
 */
export function hasContentPartBoilerplateName(element: Element): boolean {
  for (const name of [...(element.getAttribute('class') ?? '').split(/\s+/), element.getAttribute('id') ?? '']) {
    const tokens = cachedTokens(name);
    const content = tokens.findIndex((token) => CONTENT_WORDS.has(token));
    if (content < 0) continue;
    if (tokens.slice(content + 1).some((token) => BOILERPLATE_WORDS.has(token) && !OVERLAY_WORDS.has(token))) return true;
  }
  return false;
}

export function hasOverlayName(element: Element): boolean {
  return hasToken(element, OVERLAY_WORDS);
}

const FIXED = /(?:^|\s)fixed(?:\s|$)/;
const INSET_0 = /(?:^|\s)inset-0(?:\s|$)/;

/**
 * A layer over the whole viewport by Tailwind's classes (`fixed inset-0`: a modal and its
 * backdrop), read from the names where no stylesheet applies them.
 */
export function isViewportLayer(element: Element): boolean {
  const classes = element.getAttribute('class');
  return classes !== null && FIXED.test(classes) && INSET_0.test(classes);
}

/** What a product's own details are called: a drawer named so ("product-details-modal") holds them. */
const PRODUCT_DETAIL_WORDS = new Set(['details', 'description', 'specs', 'specifications', 'measurements', 'dimensions', 'materials']);

export function hasProductDetailName(element: Element): boolean {
  return hasToken(element, PRODUCT_DETAIL_WORDS);
}

export function hasControlName(element: Element): boolean {
  return hasToken(element, CONTROL_WORDS);
}

/** Customers' reviews are not among these: `reviewRule` drops them at any size, except a box holding the h1 (a title "--rating"). */
export function hasProductExtraName(element: Element): boolean {
  return hasToken(element, PRODUCT_EXTRA_WORDS);
}

/**
 * Reviews by the publisher or the press are part of the product's description: an "editorial
 * review" (the blurbs and an excerpt), a block of critics' quotes named as a description.
 */
const DESCRIPTION_WORDS = new Set(['editorial', 'description']);

/** Customers' reviews, not the publisher's or the press's. */
export function hasCustomerReviewName(element: Element): boolean {
  const tokens = nameTokens(element);
  return tokens.some((token) => REVIEW_WORDS.has(token)) && !tokens.some((token) => DESCRIPTION_WORDS.has(token));
}

const MEMBER_WORDS = new Set(['user', 'member', 'author', 'poster']);
const RANK_WORDS = new Set(['title', 'rank', 'badge']);

/**
 * A forum member's rank under their name ("userTitle", "member-rank", schema.org's `jobTitle`):
 * "Distinguished Member", "Moderator", "Hall of Famer".
 */
export function hasMemberRankName(element: Element): boolean {
  if (element.getAttribute('itemprop') === 'jobTitle') return true;
  const tokens = nameTokens(element);
  return tokens.some((token, index) => MEMBER_WORDS.has(token) && RANK_WORDS.has(tokens[index + 1] ?? ''));
}

export function hasCommentName(element: Element): boolean {
  return hasToken(element, COMMENT_WORDS);
}

export function hasArticleMetaName(element: Element): boolean {
  return hasToken(element, ARTICLE_META_WORDS);
}

export function hasContentName(element: Element): boolean {
  return hasToken(element, CONTENT_WORDS);
}

export function isChromeElement(element: Element): boolean {
  const role = element.getAttribute('role');
  return CHROME_TAGS.has(element.localName) || (role !== null && CHROME_ROLES.has(role));
}

export function hasBoilerplateRole(element: Element): boolean {
  const role = element.getAttribute('role');
  return role !== null && BOILERPLATE_ROLES.has(role);
}

/** Readability's class weight: a content-like name adds this to a candidate's score, a boilerplate-like one takes it away. */
const CLASS_WEIGHT = 25;

export function classWeight(element: Element): number {
  let weight = 0;
  if (hasContentName(element)) weight += CLASS_WEIGHT;
  if (hasBoilerplateName(element) || hasChromeName(element) || hasCommentName(element)) weight -= CLASS_WEIGHT;
  return weight;
}
