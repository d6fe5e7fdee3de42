import { hasMemberRankName } from './class-signals.js';
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
