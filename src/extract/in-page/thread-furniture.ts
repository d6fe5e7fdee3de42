import { hasControlName, hasMemberRankName } from './class-signals.js';
import type { ElementStats } from './measure.js';
import { oneLine } from './text.js';

/**
 * What a forum or Q&A page sets around its posts besides the posts: vote, like and post counts,
 * buttons written as text, members' ranks, the thread's status, the site's call to ask. The
 * predicates of the thread rules in the boilerplate rule table (`boilerplate-rules.ts`), asked
 * only on a thread page.
 */

/** A count as sites show one: "11", "-3", "1,204", "2.5k", "3 likes", "12 votes". */
const COUNT = /^[-+]?\d[\d.,]*[km]?(?: (?:likes?|votes?|reactions?|upvotes?|points?))?$/i;

/** A post's buttons, where the page writes them as text: "Quote", "Reply", "Report". */
const POST_ACTION = /^(?:quote|multi-?quote|reply|like|share|report|permalink)$/i;

/**
 * Where a number alone is the text's own: a table (a cell, a row of digits), code, a footnote mark.
 * A link so written is a value after its label ("Posts: 1725"), which goes with the rest of the
 * user card or not at all.
 */
const NUMBER_PLACES = 'a, table, code, pre, sup, sub';

/** Longer than this, an element is more than a count. */
const MAX_COUNT = 20;

/** An element holding nothing but a count: a post's votes, likes or replies. */
export function isLoneCount(element: Element, own: ElementStats): boolean {
  return own.text <= MAX_COUNT && COUNT.test(oneLine(element.textContent ?? '')) && element.closest(NUMBER_PLACES) === null;
}

/** A paragraph or a list item of one word is the post's own text, however short; a label is not. */
const TEXT_TAGS = new Set(['p', 'li', 'blockquote', 'td', 'th', 'dd']);

/** Longer than this, an element is more than a button's word. */
const MAX_POST_ACTION = 12;

/** A post's button written as text ("Quote", "Reply"), not a paragraph of that one word. */
export function isPostAction(element: Element, own: ElementStats): boolean {
  return own.text <= MAX_POST_ACTION && !TEXT_TAGS.has(element.localName) && POST_ACTION.test(oneLine(element.textContent ?? ''));
}

/** Longer than this, a box named for a member's rank holds more than the rank. */
const MAX_RANK = 60;

/** A thread's state, said above or below its posts: "Not open for further replies", "This thread has been locked". */
const THREAD_STATUS_WORDS = /^(?:not open for further replies|this (?:thread|topic) (?:is|has been|was) (?:locked|closed|archived))\b/i;
/** Longer than this, an element is more than a thread's status. */
const MAX_STATUS = 150;

/** "Not open for further replies", "This thread has been locked". */
export function isThreadStatus(element: Element, own: ElementStats): boolean {
  return own.text <= MAX_STATUS && THREAD_STATUS_WORDS.test(oneLine(element.textContent ?? ''));
}

/** A member's rank under their name ("Distinguished Member"), by its name. */
export function isMemberRank(element: Element, own: ElementStats): boolean {
  return own.text <= MAX_RANK && hasMemberRankName(element);
}

/** Longer than this, a box with a button is more than the site's call to act. */
const MAX_CALL_TO_ACTION = 150;
const CALL_TO_ACTION_BOXES = new Set(['div', 'section', 'aside']);
/** A call to act is a box of lines: a heading, a line, a button at least. */
const CALL_TO_ACTION_PARTS = 3;

/**
 * The site's call to act set between a thread's posts ("Start asking to get answers / Find the
 * answer to your question by asking. / Ask question"): a short box of lines whose only links are
 * styled as buttons. A post has its author's name (a link), an avatar or badges, a date or buttons.
 */
export function isCallToAction(element: Element, own: ElementStats): boolean {
  if (own.text > MAX_CALL_TO_ACTION || own.elements < CALL_TO_ACTION_PARTS || !CALL_TO_ACTION_BOXES.has(element.localName)) return false;
  if (element.querySelector('img, button, time') !== null) return false;
  const links = Array.from(element.getElementsByTagName('a'));
  return links.length > 0 && links.every((link) => link.hasAttribute('href') && hasControlName(link));
}

/** The value of a one-pair list ("<dl><dt>Messages</dt><dd>28</dd></dl>") goes with its label. */
export function valueWithLabel(value: Element): Element {
  const list = value.parentElement;
  const labelled = value.localName === 'dd' && value.previousElementSibling?.localName === 'dt';
  return labelled && list?.localName === 'dl' && list.childElementCount === 2 ? list : value;
}
