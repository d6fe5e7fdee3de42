/**
 * Text helpers shared by the in-page modules and the Node side (no DOM access here).
 *
 * Word patterns come in two forms. A Unicode property class (`\p{L}`) costs a fresh page about
 * 0.3 ms to compile and runs slower than an ASCII class, and every extraction runs in a fresh page;
 * so text made only of ASCII and signs that are never letters or digits (’ “ – • …, no-break
 * space, ©) is matched with the ASCII form, which finds exactly the same words there.
 */

/**
 * Anything besides ASCII and the signs that hold no letter or digit: Latin-1 signs, general
 * punctuation, currency, ™, arrows, miscellaneous symbols and emoji variation selectors.
 */
export const BEYOND_ASCII_WORDS =
  /[^\x00-\x7f\u00a0-\u00a9\u00ab-\u00b1\u00b4\u00b6-\u00b8\u00bb\u00bf\u00d7\u00f7\u2000-\u206f\u20a0-\u20cf\u2122\u2190-\u21ff\u2600-\u26ff\ufe00-\ufe0f]/;

/** Whether `text` may hold letters or digits beyond ASCII (then only the Unicode patterns are right). */
export function needsUnicodeWords(text: string): boolean {
  return BEYOND_ASCII_WORDS.test(text);
}

/** One pattern in its two forms; `ascii` must match exactly what `unicode` does on ASCII text. */
export interface WordPattern {
  unicode: RegExp;
  ascii: RegExp;
}

/** The form of `pattern` to run on `text`. Global patterns are shared: `match` and `replace` reset them. */
export function patternFor(text: string, pattern: WordPattern): RegExp {
  return needsUnicodeWords(text) ? pattern.unicode : pattern.ascii;
}

const LETTER_OR_DIGIT: WordPattern = { unicode: /[\p{L}\p{N}]/u, ascii: /[A-Za-z0-9]/ };
/** Lower-case runs only: the patterns run on lower-cased text. */
const LETTER_OR_DIGIT_RUNS: WordPattern = { unicode: /[\p{L}\p{N}]+/gu, ascii: /[a-z0-9]+/g };
const LETTER_RUNS: WordPattern = { unicode: /\p{L}+/gu, ascii: /[a-z]+/g };
const WORD_RUNS: WordPattern = { unicode: /[\p{L}\p{N}_]+/gu, ascii: /[A-Za-z0-9_]+/g };
const UNDERSCORE_AT_WORD_EDGE: WordPattern = {
  unicode: /(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu,
  ascii: /(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g,
};

const LETTER: WordPattern = { unicode: /\p{L}/u, ascii: /[A-Za-z]/ };
const LEADING_SIGNS: WordPattern = { unicode: /^[^\p{L}\p{N}]+/u, ascii: /^[^A-Za-z0-9]+/ };

/** A letter, in any script: \p{L}. */
export function hasLetter(text: string): boolean {
  return LETTER.ascii.test(text) || patternFor(text, LETTER).test(text);
}

/** `text` without the signs before its first letter or digit (an emoji or a bullet before a heading's words). */
export function withoutLeadingSigns(text: string): string {
  return text.replace(patternFor(text, LEADING_SIGNS), '');
}

/** Letters and digits, in any script: \p{L} and \p{N}. */
export function hasLetterOrDigit(text: string): boolean {
  return LETTER_OR_DIGIT.ascii.test(text) || patternFor(text, LETTER_OR_DIGIT).test(text);
}

/** The runs of letters and digits of `text`, lower-cased. */
export function lowerCaseWords(text: string): string[] {
  const lower = text.toLowerCase();
  return lower.match(patternFor(lower, LETTER_OR_DIGIT_RUNS)) ?? [];
}

/** The runs of letters only (no digits) of `text`, lower-cased. */
export function lowerCaseLetterRuns(text: string): string[] {
  const lower = text.toLowerCase();
  return lower.match(patternFor(lower, LETTER_RUNS)) ?? [];
}

const WHITESPACE_RUN = /[ \t\n\r\f\u00a0]+/g;

export function collapseWhitespace(text: string): string {
  return text.replace(WHITESPACE_RUN, ' ');
}

/** Text as a reader sees it in one line: whitespace runs as one space, none at the ends. */
export function oneLine(text: string): string {
  return collapseWhitespace(text).trim();
}

const INLINE_SPECIAL = /[\\*`[\]_<]/;

/** Markdown-escapes inline text: emphasis, code, link and HTML openers; `_` only at word edges. */
export function escapeInline(text: string): string {
  // Most text runs hold none of these: one test instead of three replacements.
  if (!INLINE_SPECIAL.test(text)) return text;
  const escaped = text.replace(/[\\*`[\]]/g, '\\$&').replace(/<(?=[a-zA-Z/!])/g, '\\<');
  return escaped.includes('_') ? escapeUnderscores(escaped) : escaped;
}

/** `_` only opens or closes emphasis at a word edge; inside a word (snake_case) it stays. */
function escapeUnderscores(text: string): string {
  return text.replace(patternFor(text, UNDERSCORE_AT_WORD_EDGE), '\\_');
}

/** A line that could open block syntax: a marker, a digit or a rule character first. */
const BLOCK_OPENER = /^\s*[#>+\-=~\d]/;

/** Escapes what would turn the start of a paragraph line into block syntax. */
export function escapeLineStart(line: string): string {
  if (!BLOCK_OPENER.test(line)) return line;
  return line
    .replace(/^(\s*)([#>+-])(?=\s|$)/, '$1\\$2')
    .replace(/^(\s*)(#{1,6})(?=\s)/, '$1\\$2')
    .replace(/^(\s*\d{1,9})([.)])(?=\s|$)/, '$1\\$2')
    .replace(/^(\s*)([=-]{3,}\s*)$/, '$1\\$2')
    .replace(/^(\s*)(~{3,})/, '$1\\$2');
}

/** Words: runs of letters, digits and `_`. */
export function countWords(text: string): number {
  return text.match(patternFor(text, WORD_RUNS))?.length ?? 0;
}

/** `countWords`, stopping at `limit` (a near-empty check need not count a long page). */
export function countWordsUpTo(text: string, limit: number): number {
  // A copy: stepping with `exec` leaves the shared pattern's `lastIndex` where it stopped.
  const word = new RegExp(patternFor(text, WORD_RUNS));
  let count = 0;
  while (count < limit && word.exec(text) !== null) count++;
  return count;
}

/**
 * The text a reader sees in markdown: link targets and images left out. The targets the writer
 * makes hold no parentheses or whitespace (they are percent-encoded), so a failed match stops at
 * the next one: linear even on page text full of "](" (a `[^)]*` scan made that quadratic).
 */
export function markdownText(markdown: string): string {
  return markdown.replace(/!\[[^[\]]*\]\([^()\s]*\)/g, ' ').replace(/\]\([^()\s]*\)/g, ' ');
}

/**
 * The last pass over a whole document: trailing whitespace goes (a hard break's two spaces
 * stay), runs of blank lines become one, the ends are trimmed. Plain string work, so it runs
 * on the Node side, where it is compiled once, not in each page; and in linear time, as a page
 * controls the text (`/\s+$/` is quadratic on a line with a long inner run of spaces).
 */
export function finishMarkdown(markdown: string): string {
  return markdown
    .split('\n')
    .map((line) => {
      const trimmed = line.trimEnd();
      return trimmed && line.endsWith('  ') ? `${trimmed}  ` : trimmed;
    })
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Visible text length without whitespace runs, the unit all content scores use. */
export function textWeight(text: string): number {
  return collapseWhitespace(text).trim().length;
}
