/**
 * Token counts without a tokenizer: the server may run any model, so no one vocabulary is
 * right. Latin-script text runs about four characters a token in the common BPE vocabularies;
 * other scripts (CJK, emoji...) about one character a token or worse. The estimate errs high,
 * so a budget set a little under the model's context window holds.
 */

const ASCII_CHARACTERS_PER_TOKEN = 4;

/** Put where the page text was cut, so the model knows the text does not end there. */
export const TRIM_MARKER = '\n\n[... the rest of the page was cut to fit the input budget]';

export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (const character of text) {
    if (character.charCodeAt(0) < 0x80) ascii += 1;
    else other += 1;
  }
  return Math.ceil(ascii / ASCII_CHARACTERS_PER_TOKEN) + other;
}

export interface TrimmedText {
  text: string;
  trimmed: boolean;
}

/**
 * `text` cut to at most `maxTokens` (estimated, marker included), at a paragraph break when
 * one is near the cut, else at a line break or space, so the model gets no half words.
 */
export function trimToTokens(text: string, maxTokens: number): TrimmedText {
  if (estimateTokens(text) <= maxTokens) return { text, trimmed: false };
  const room = maxTokens - estimateTokens(TRIM_MARKER);
  if (room <= 0) return { text: '', trimmed: true };
  const cut = cutIndex(text, room);
  return { text: `${text.slice(0, atBreak(text, cut)).trimEnd()}${TRIM_MARKER}`, trimmed: true };
}

/** The UTF-16 index after the last character that still fits `maxTokens`. */
function cutIndex(text: string, maxTokens: number): number {
  let ascii = 0;
  let other = 0;
  let index = 0;
  for (const character of text) {
    if (character.charCodeAt(0) < 0x80) ascii += 1;
    else other += 1;
    if (Math.ceil(ascii / ASCII_CHARACTERS_PER_TOKEN) + other > maxTokens) return index;
    index += character.length;
  }
  return index;
}

/** Moves the cut back to a paragraph, line or word break within the last fifth of the kept text. */
function atBreak(text: string, cut: number): number {
  const kept = text.slice(0, cut);
  const earliest = Math.floor(cut * 0.8);
  for (const separator of ['\n\n', '\n', ' ']) {
    const at = kept.lastIndexOf(separator);
    if (at >= earliest && at > 0) return at;
  }
  return cut;
}
