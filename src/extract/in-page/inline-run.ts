import { patternFor, type WordPattern } from './text.js';

/**
 * Inline markdown pieces (text runs and inline elements) joined into one run. Where two pieces
 * would touch without whitespace ("Merrell" + "Moab 3 Mid", "Publisher" + "Houghton Mifflin"), a
 * space goes between them when the page shows them apart: one of them is laid out as a block by
 * the page's CSS, or two sibling elements meet at a case change no word has inside it (a lower-case
 * letter or digit, then a capital; a letter, then a digit; a capitalised word after capitals). The
 * style is only read at such a meeting point, not for every inline element.
 */

const INLINE_DISPLAY = /^(inline|inline-block|inline-flex|inline-grid|contents|none)$/;

/**
 * An element the page styles as a block or flex box shows on its own line ("Brand" over "Name"):
 * its words must not run into the next ones. A floated drop cap ("T" + "he") is not such a line.
 */
function isLaidOutAsBlock(element: Element): boolean {
  const style = getComputedStyle(element);
  return !INLINE_DISPLAY.test(style.display) && style.float === 'none';
}

/** Markdown a piece may open with before its first word character (link, emphasis, escapes). */
const LEADING_MARKUP = '[*_~`\\';

/** The first two characters of `markdown` after its leading markup (a scan, not a regex: run per piece). */
function firstCharacters(markdown: string): string {
  let index = 0;
  while (index < markdown.length && LEADING_MARKUP.includes(markdown.charAt(index))) index++;
  return markdown.slice(index, index + 2);
}

const SPACE = /\s/;
/** Marks a `<br>` inside inline text until the paragraph is finished. */
export const HARD_BREAK = '\u0000';

/**
 * Inside a word these meet only across a layout break: "MerrellMoab", "108MSRP", "Weight12", and a
 * capitalised word after one in capitals ("HOKAKaha"). Matched on the last character before the
 * meeting point and the two after it.
 */
const CASE_BREAK: WordPattern = {
  unicode: /^(?:[\p{Ll}\p{N}]\p{Lu}|\p{L}\p{N}|\p{Lu}\p{Lu}\p{Ll})/u,
  ascii: /^(?:[a-z0-9][A-Z]|[A-Za-z][0-9]|[A-Z][A-Z][a-z])/,
};

/** Sub- and superscripts sit against their word on purpose (H2O, 1st, a footnote mark). */
const ATTACHED_TAGS = new Set(['sub', 'sup']);
/**
 * Phrase tags pages rarely lay out as blocks, and that touch punctuation all through prose: their
 * style is not read. Spans, labels and the like are.
 */
const PHRASE_TAGS = new Set(['a', 'b', 'strong', 'em', 'i', 'cite', 'dfn', 'del', 's', 'strike', 'code', 'kbd', 'samp', 'tt', 'img', 'br', 'wbr', 'sub', 'sup']);

/**
 * The last character of `node`'s text (what `textContent` ends with), found from the end: reading
 * `textContent` would copy the whole subtree at every meeting point, quadratic in nested markup.
 */
function lastChar(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE || node.nodeType === Node.CDATA_SECTION_NODE) return (node.nodeValue ?? '').slice(-1);
  for (let child = node.lastChild; child; child = child.previousSibling) {
    if (child.nodeType === Node.COMMENT_NODE || child.nodeType === Node.PROCESSING_INSTRUCTION_NODE) continue;
    const end = lastChar(child);
    if (end) return end;
  }
  return '';
}

function isElement(node: Node): node is Element {
  return node.nodeType === Node.ELEMENT_NODE;
}

function isStyledBlock(node: Node): boolean {
  return isElement(node) && !PHRASE_TAGS.has(node.localName) && isLaidOutAsBlock(node);
}

/** Whether two pieces that touch (`end` and `first` are not whitespace) are shown apart by the page. */
function isShownApart(previous: Node, next: Node, end: string, first: string): boolean {
  // `first` holds the next piece's first two characters.
  if (isStyledBlock(previous) || isStyledBlock(next)) return true;
  if (!isElement(previous) || !isElement(next) || ATTACHED_TAGS.has(previous.localName) || ATTACHED_TAGS.has(next.localName)) return false;
  const pair = end + first;
  return patternFor(pair, CASE_BREAK).test(pair);
}

export class InlineRun {
  text = '';
  /** The last node that added something, to look at the meeting point with the next. */
  private last: Node | null = null;

  /** Appends the markdown of `node` (a text node or an inline element). */
  add(node: Node, markdown: string): void {
    if (!markdown) return;
    const last = this.last;
    this.last = node;
    if (last !== null) {
      const first = firstCharacters(markdown);
      if (first && !SPACE.test(first.charAt(0)) && first.charAt(0) !== HARD_BREAK) {
        const end = lastChar(last);
        if (end && !SPACE.test(end) && isShownApart(last, node, end, first)) this.text += ' ';
      }
    }
    this.text += markdown;
  }

  /** Starts a new run (after a block). */
  clear(): void {
    this.text = '';
    this.last = null;
  }
}
