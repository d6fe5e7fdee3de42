/** Text helpers shared by the in-page modules (no DOM access here). */

const WHITESPACE_RUN = /[ \t\n\r\f\u00a0]+/g;

export function collapseWhitespace(text: string): string {
  return text.replace(WHITESPACE_RUN, ' ');
}

const INLINE_SPECIAL = /[\\*`[\]_<]/;

/** Markdown-escapes inline text: emphasis, code, link and HTML openers; `_` only at word edges. */
export function escapeInline(text: string): string {
  // Most text runs hold none of these: one test instead of three replacements.
  if (!INLINE_SPECIAL.test(text)) return text;
  return text
    .replace(/[\\*`[\]]/g, '\\$&')
    .replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, '\\_')
    .replace(/<(?=[a-zA-Z/!])/g, '\\<');
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

const WORD = /[\p{L}\p{N}_]+/gu;

export function countWords(text: string): number {
  return text.match(WORD)?.length ?? 0;
}

/** Visible text length without whitespace runs, the unit all content scores use. */
export function textWeight(text: string): number {
  return collapseWhitespace(text).trim().length;
}
