import { isHeading } from './class-signals.js';
import { isCommentFormHeading, isCommentsHeading, isOtherLanguageWidgetHeading, isReaderReviewsHeading } from './heading-words.js';
import { itemListShare, signature } from './item-lists.js';
import type { StatsMap } from './measure.js';
import { oneLine, withoutLeadingSigns } from './text.js';

/**
 * Widgets about other pages that shops and publishers head with the same few words ("Similar
 * items", "You may also like", "Customers also viewed", "Related searches", "More from the KALLAX
 * series", "Accessories for KALLAX", "Get the look", "As seen on Instagram") whatever their class
 * names are (often generated); on a product page, so are its customers' reviews ("Customer
 * Reviews", "51 Reviews"). The heading names the widget; the widget is the smallest ancestor that
 * the heading opens and that holds more than the heading. The comment section under an article
 * ("Comments", "12 Responses") and the form to add one ("Leave a reply") are named by theirs too.
 */

const RECOMMENDATION_HEADING =
  /^(?:similar (?:items|products)|(?:you|we think you) (?:may|might|will) (?:also )?(?:like|love|enjoy)|(?:related|similar) (?:products|items|searches|pages|questions|posts|articles|threads|topics|discussions|stories|content|reading|links|guides)|customers (?:also|who) (?:bought|viewed|purchased)|(?:people|others|shoppers)(?: like you)? (?:also|who) (?:bought|viewed|searched|search)|frequently bought together|recently viewed|recommended (?:for you|products)|explore related|compare similar|shop similar|more (?:like this|to explore)|sponsored (?:by|content|products|items)|more from|accessories for|(?:complete|get|shop) the look|as seen on|further reading|(?:most )?popular (?:posts|articles|stories)|latest (?:articles|posts|stories)|from (?:the|our) blog|related insights|recommended (?:reading|posts|articles|stories)|suggested (?:topics|posts|articles|reading)|most (?:viewed|read|shared)(?:$| (?:in|on|across|this|today|now|stories|articles|posts|news)\b)|want more like this|share this (?:story|article|post|page)$|users? (?:who are )?(?:viewing|browsing) this)\b/i;

/** At most this many characters of heading ("Similar items you may like (24)"). */
const MAX_HEADING = 60;

/** Customers' reviews of a product: "Customer Reviews", "Ratings & Reviews", "Customers say", "51 Reviews". */
const REVIEW_HEADING = /^(?:customer reviews|ratings? (?:&|and) reviews|customers say|what (?:our )?customers are saying|[\d,.]+k? (?:customer |product )?reviews)\b/i;

/**
 * The heading's words as a reader sees them: markup splits "<span>8</span>\n  Reviews" over lines,
 * and an emoji or a bullet may lead them ("🔥 Recommended posts").
 */
function headingText(element: Element): string {
  return withoutLeadingSigns(oneLine(element.textContent ?? ''));
}

function isShortHeading(element: Element, stats: StatsMap): boolean {
  if (!isHeading(element) && element.getAttribute('role') !== 'heading') return false;
  return (stats.get(element)?.text ?? 0) <= MAX_HEADING;
}

/** Shorter than this, a paragraph that is only the widget's words is its label, styled as a heading. */
const MAX_LABEL = 40;

/** Where sites set a label styled as a heading: a paragraph, or a bare box (Quora's "Related questions"). */
const LABEL_TAGS = new Set(['p', 'div', 'span']);

/** A short box holding only a label's words ("Frequently Bought Together" in a styled `<p>`). */
function isLabel(element: Element, stats: StatsMap): boolean {
  return LABEL_TAGS.has(element.localName) && (stats.get(element)?.text ?? 0) <= MAX_LABEL;
}

export function isRecommendationHeading(element: Element, stats: StatsMap): boolean {
  if (!isShortHeading(element, stats) && !isLabel(element, stats)) return false;
  const text = headingText(element);
  return RECOMMENDATION_HEADING.test(text) || isOtherLanguageWidgetHeading(text);
}

/** The heading of a product's customer reviews: on a product page, a widget like the recommendations. */
export function isReviewHeading(element: Element, stats: StatsMap): boolean {
  return isShortHeading(element, stats) && REVIEW_HEADING.test(headingText(element));
}

/**
 * What a comment heading heads: the form to add a comment, the comments themselves, or readers'
 * reviews (comments only when the form to write one is with them).
 */
export type CommentHeading = 'form' | 'section' | 'reviews';

/**
 * Whether `element` heads a comment form, on any page (on a forum the thread is the content, the
 * form to add to it is not), or, where comments are not the content, the comment section.
 */
export function commentHeading(element: Element, stats: StatsMap, keepComments: boolean): CommentHeading | undefined {
  if (!isShortHeading(element, stats)) return undefined;
  const text = headingText(element);
  if (isCommentFormHeading(text)) return 'form';
  if (keepComments) return undefined;
  if (isCommentsHeading(text)) return 'section';
  return isReaderReviewsHeading(text) ? 'reviews' : undefined;
}

/*
 * The sizes and shares below are Pluck's own, set by hand against both dev sets (see
 * docs/extraction-history.md); text sizes are characters of visible text.
 */

/** A widget's part holds content once it has this much text beyond its heading's ("See all" links do not). */
const WIDGET_CONTENT_TEXT = 40;
/** Climbing stops at a parent with more than this many times the text of the part it holds. */
const WIDGET_PARENT_GROWTH = 1.2;
/** A block after the heading is the widget's when more than this share of its text is in a list of cards, ... */
const WIDGET_CARD_SHARE = 0.6;
/** ... or, after a bare heading, when this share of its text is links (related searches). */
const WIDGET_LINK_SHARE = 0.3;
/** Wrappers are followed down at most this many levels; ... */
const MAX_WRAPPER_DEPTH = 4;
/** ... a child holding this share of its parent's text is the parent's content, wrapped. */
const WRAPPED_SHARE = 0.9;
/** A row is at least this many alike boxes, ... */
const ROW_ITEMS = 3;
/** ... holding this share of the row's text at least. */
const ROW_SHARE = 0.6;

/** Whether the part a heading opens holds content of its own beyond the heading. */
function holdsMoreThanHeading(part: Element, heading: Element, stats: StatsMap): boolean {
  return (stats.get(part)?.text ?? 0) > (stats.get(heading)?.text ?? 0) + WIDGET_CONTENT_TEXT;
}

/** The first child holding measured text. */
function firstWithText(parent: Element, stats: StatsMap): Element | null {
  for (let child = parent.firstElementChild; child; child = child.nextElementSibling) {
    if ((stats.get(child)?.text ?? 0) > 0) return child;
  }
  return null;
}

/**
 * The part a widget's heading opens: climb while the heading (or the part holding it) is the
 * parent's first text, until the part holds more than the heading and the parent adds more than a
 * little ("See all" links) to it. Never `stop` itself.
 */
function widgetHead(heading: Element, stats: StatsMap, stop: Element): Element {
  let current = heading;
  for (let parent = heading.parentElement; parent && parent !== stop; parent = parent.parentElement) {
    if (firstWithText(parent, stats) !== current) break;
    if (holdsMoreThanHeading(current, heading, stats) && (stats.get(parent)?.text ?? 0) > (stats.get(current)?.text ?? 0) * WIDGET_PARENT_GROWTH) break;
    current = parent;
  }
  return current;
}

/** A paragraph this long is prose, written to be read. */
const PROSE = 200;

/** Shorter than this, a block after a comment heading is the section's furniture: a count, a note on moderation. */
const MAX_COMMENT_NOTE = 400;

/**
 * The comment section or form a comment heading opens: its head (as for a recommendation), and
 * the short blocks and forms after it up to the next heading. A section of prose after a bare
 * "Comments" is a text about comments (a style guide's), not a place for them: nothing goes,
 * unless the section holds the box to write one in; then its comments go however long they run.
 */
export function commentWidget(heading: Element, kind: CommentHeading, stats: StatsMap, stop: Element): Element[] {
  const head = widgetHead(heading, stats, stop);
  const widget = [head];
  for (let next = head.nextElementSibling; next; next = next.nextElementSibling) {
    const own = stats.get(next);
    if (!own || own.text === 0) continue;
    if (isHeading(next) || (next.localName !== 'form' && own.text > MAX_COMMENT_NOTE)) break;
    widget.push(next);
  }
  if (kind === 'form') return widget;
  const forWriting = widget.some((element) => element.localName === 'textarea' || element.querySelector('textarea') !== null);
  if (forWriting) return widget;
  return kind === 'section' && widget.every((element) => (stats.get(element)?.maxProse ?? 0) < PROSE) ? widget : [];
}

/**
 * The widget a recommendation heading opens: its head (`widgetHead`), and what comes next when
 * the heading stands beside its widget rather than in it. On a product page (`productPage`) a
 * row of alike boxes after the heading is the widget's too: there it can only be other products,
 * where on a listing it may be the listing itself.
 */
export function recommendationWidget(heading: Element, stats: StatsMap, stop: Element, productPage: boolean): Element[] {
  const current = widgetHead(heading, stats, stop);
  // A heading set beside its widget rather than in it: the widget is what comes next, when it is
  // mostly links (searches) or cards, even past a header that has a line of its own.
  const next = current.nextElementSibling;
  const nextStats = next ? stats.get(next) : undefined;
  if (!next || !nextStats) return [current];
  const slides = isCarousel(next, stats) || (productPage && isRow(next, stats)) || itemListShare(next, stats) > WIDGET_CARD_SHARE;
  if (holdsMoreThanHeading(current, heading, stats)) return slides ? [current, next] : [current];
  return slides || nextStats.linkText >= nextStats.text * WIDGET_LINK_SHARE ? [current, next] : [current];
}

/**
 * Whether `test` holds for `element` or for a wrapper chain under it: followed down, at most
 * `MAX_WRAPPER_DEPTH` levels, while one child holds nearly all of the element's text.
 */
function throughWrappers(element: Element, stats: StatsMap, test: (current: Element) => boolean): boolean {
  const total = stats.get(element)?.text ?? 0;
  for (let current: Element | null = element, depth = 0; current && depth < MAX_WRAPPER_DEPTH; depth++) {
    if (test(current)) return true;
    let only: Element | null = null;
    for (let child: Element | null = current.firstElementChild; child; child = child.nextElementSibling) {
      if ((stats.get(child)?.text ?? 0) >= total * WRAPPED_SHARE) only = child;
    }
    current = only;
  }
  return false;
}

/**
 * A row of alike boxes, or a wrapper of one: `ROW_ITEMS` or more children of the same tag and
 * class holding most of its text. After a recommendation heading these are the items, however much
 * text each holds (an ad's disclosure).
 */
function isRow(element: Element, stats: StatsMap): boolean {
  return throughWrappers(element, stats, (current) => {
    const total = stats.get(current)?.text ?? 0;
    const bySignature = new Map<string, { count: number; text: number }>();
    for (let child: Element | null = current.firstElementChild; child; child = child.nextElementSibling) {
      const text = stats.get(child)?.text ?? 0;
      if (text === 0) continue;
      const key = signature(child);
      const group = bySignature.get(key) ?? { count: 0, text: 0 };
      group.count++;
      group.text += text;
      bySignature.set(key, group);
    }
    for (const group of bySignature.values()) if (group.count >= ROW_ITEMS && group.text >= total * ROW_SHARE) return true;
    return false;
  });
}

/** Class words of the slider libraries and of hand-made ones ("carousel--peek", "swiper-wrapper"). */
const CAROUSEL_CLASS = /(?:^|[\s_-])(?:carousel|slider|swiper|slick|splide|glide)(?:$|[\s_-])/i;

/** A carousel by class, or a wrapper of one. */
function isCarousel(element: Element, stats: StatsMap): boolean {
  return throughWrappers(element, stats, (current) => CAROUSEL_CLASS.test(current.getAttribute('class') ?? ''));
}
