import { hasControlName, hasMemberRankName } from './class-signals.js';
import type { ElementStats } from './measure.js';
import { oneLine } from './text.js';

/**
 * What a forum or Q&A page sets around its posts besides the posts: vote, like and post counts,
 * buttons written as text, members' ranks, the thread's status. Asked only on a thread page,
 * inside the boilerplate walk.
 */

const POST_COUNT = 'post count';
const MEMBER_RANK = 'member rank';
const THREAD_STATUS = 'thread status';

/** A count as sites show one: "11", "-3", "1,204", "2.5k", "3 likes", "12 votes". */
const COUNT = /^[-+]?\d[\d.,]*[km]?(?: (?:likes?|votes?|reactions?|upvotes?|points?))?$/i;

/** A post's buttons, where the page writes them as text: "Quote", "Reply", "Report". */
const POST_ACTION = /^(?:quote|multi-?quote|reply|like|share|report|permalink)$/i;
const POST_ACTION_RULE = 'post action';

/**
 * Where a number alone is the text's own: a table (a cell, a row of digits), code, a footnote mark.
 * A link so written is a value after its label ("Posts: 1725"), which goes with the rest of the
 * user card or not at all.
 */
const NUMBER_PLACES = 'a, table, code, pre, sup, sub';

/** An element holding nothing but a count: a post's votes, likes or replies. */
function isLoneCount(element: Element, own: ElementStats, text: string): boolean {
  return own.text <= 20 && COUNT.test(text) && element.closest(NUMBER_PLACES) === null;
}

/** A paragraph or a list item of one word is the post's own text, however short; a label is not. */
const TEXT_TAGS = new Set(['p', 'li', 'blockquote', 'td', 'th', 'dd']);

function isPostAction(element: Element, own: ElementStats, text: string): boolean {
  return own.text <= 12 && !TEXT_TAGS.has(element.localName) && POST_ACTION.test(text);
}

/** Longer than this, a box named for a member's rank holds more than the rank. */
const MAX_RANK = 60;

/** A thread's state, said above or below its posts: "Not open for further replies", "This thread has been locked". */
const THREAD_STATUS_WORDS = /^(?:not open for further replies|this (?:thread|topic) (?:is|has been|was) (?:locked|closed|archived))\b/i;
/** Longer than this, an element is more than a count, a button or a status: its text is not read. */
const MAX_STATUS = 150;

/** Longer than this, a box with a button is more than the site's call to act. */
const MAX_CALL_TO_ACTION = 150;
const CALL_TO_ACTION = 'call to action';
const CALL_TO_ACTION_BOXES = new Set(['div', 'section', 'aside']);

/**
 * The site's call to act set between a thread's posts ("Start asking to get answers / Find the
 * answer to your question by asking. / Ask question"): a short box of lines whose only links are
 * styled as buttons. A post has its author's name (a link), an avatar or badges, a date or buttons.
 */
function isCallToAction(element: Element, own: ElementStats): boolean {
  if (own.text > MAX_CALL_TO_ACTION || own.elements < 3 || !CALL_TO_ACTION_BOXES.has(element.localName)) return false;
  if (element.querySelector('img, button, time') !== null) return false;
  const links = Array.from(element.getElementsByTagName('a'));
  return links.length > 0 && links.every((link) => link.hasAttribute('href') && hasControlName(link));
}

/**
 * The rule (named for debugging) by which `element` is a thread's furniture, or undefined.
 * `postFurniturePass`: the pass that drops the posts' furniture (user cards, dates), which looks
 * at a user card before its rank. A rank goes only there: gone earlier, it leaves a card of a name
 * and an avatar that reads as a link list, and the name would go with it.
 */
export function threadFurnitureRule(element: Element, own: ElementStats, postFurniturePass: boolean): string | undefined {
  if (own.text <= MAX_STATUS) {
    const text = oneLine(element.textContent ?? '');
    if (isLoneCount(element, own, text)) return POST_COUNT;
    if (isPostAction(element, own, text)) return POST_ACTION_RULE;
    if (THREAD_STATUS_WORDS.test(text)) return THREAD_STATUS;
    if (isCallToAction(element, own)) return CALL_TO_ACTION;
  }
  if (postFurniturePass && own.text <= MAX_RANK && hasMemberRankName(element)) return MEMBER_RANK;
  return undefined;
}

/** The value of a one-pair list ("<dl><dt>Messages</dt><dd>28</dd></dl>") goes with its label. */
function valueWithLabel(value: Element): Element {
  const list = value.parentElement;
  const labelled = value.localName === 'dd' && value.previousElementSibling?.localName === 'dt';
  return labelled && list?.localName === 'dl' && list.childElementCount === 2 ? list : value;
}

/**
 * What goes when a thread rule matched `element`: a count or a status with its label, a member's
 * rank alone (the name beside it stays). Undefined for other rules.
 */
export function threadFurniturePruned(rule: string, element: Element): Element | undefined {
  if (rule === POST_COUNT || rule === THREAD_STATUS) return valueWithLabel(element);
  if (rule === MEMBER_RANK) return element;
  return undefined;
}
