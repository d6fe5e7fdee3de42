import { describe, expect, it } from 'vitest';
import {
  BEYOND_ASCII_WORDS,
  countWords,
  countWordsUpTo,
  escapeInline,
  finishMarkdown,
  hasLetter,
  hasLetterOrDigit,
  lowerCaseLetterRuns,
  lowerCaseWords,
  markdownText,
  needsUnicodeWords,
  withoutLeadingSigns,
} from '../../src/extract/in-page/text.js';

/**
 * The word helpers take an ASCII pattern when the text holds nothing beyond ASCII but signs.
 * That is only right if none of those signs is a letter or a digit, and if both forms then find
 * the same words: checked here against the Unicode patterns, for every code point of the BMP.
 */

const UNICODE_WORD_CHAR = /^[\p{L}\p{N}_]$/u;

describe('word helpers', () => {
  it('treats no letter or digit of the BMP as a sign', () => {
    const misclassified: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCharCode(code);
      if (!BEYOND_ASCII_WORDS.test(char) && code > 0x7f && UNICODE_WORD_CHAR.test(char)) misclassified.push(code.toString(16));
    }
    expect(misclassified).toEqual([]);
  });

  const samples = [
    'The “quick” brown fox — it’s 2024… © Acme™ → next • 50 € price ☺',
    'half ½ price, µs and ª',
    'snake_case and _emphasis_ in café, naïve Ωmega, 日本語のテキスト, مرحبا',
    'emoji 🎉 party ⚡ and 𝐀𝐁 letters, ① circled',
    '   ',
    '',
  ];

  it('finds the same words as the Unicode patterns, with and without signs beyond ASCII', () => {
    for (const text of samples) {
      expect(countWords(text)).toBe(text.match(/[\p{L}\p{N}_]+/gu)?.length ?? 0);
      expect(lowerCaseWords(text)).toEqual(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
      expect(lowerCaseLetterRuns(text)).toEqual(text.toLowerCase().match(/\p{L}+/gu) ?? []);
      expect(hasLetterOrDigit(text)).toBe(/[\p{L}\p{N}]/u.test(text));
      expect(hasLetter(text)).toBe(/\p{L}/u.test(text));
      for (const lead of ['', '• ', '🔥 ', '★ — ', '① ', '12 ']) {
        expect(withoutLeadingSigns(lead + text)).toBe((lead + text).replace(/^[^\p{L}\p{N}]+/u, ''));
      }
    }
    // The first sample takes the ASCII patterns: its words are still all found.
    expect(needsUnicodeWords(samples[0] ?? '')).toBe(false);
    expect(countWords(samples[0] ?? '')).toBe(11);
    expect(hasLetterOrDigit(' • — ')).toBe(false);
    expect(hasLetterOrDigit(' • 日 ')).toBe(true);
    expect(hasLetter('$39.99 • 4.5')).toBe(false);
    expect(withoutLeadingSigns('★ — Recommended posts')).toBe('Recommended posts');
  });

  it('counts up to a limit only', () => {
    expect(countWordsUpTo('one two three four', 2)).toBe(2);
    expect(countWordsUpTo('one two', 10)).toBe(2);
    expect(countWordsUpTo('naïve café', 10)).toBe(2);
  });

  it('escapes underscores at word edges only, in any script', () => {
    expect(escapeInline('_a_ snake_case')).toBe('\\_a\\_ snake_case');
    expect(escapeInline('_é_ naïve_case – x')).toBe('\\_é\\_ naïve_case – x');
    expect(escapeInline('*[x]* <b>')).toBe('\\*\\[x\\]\\* \\<b>');
  });

  it('leaves link targets and images out of the text a reader sees', () => {
    expect(markdownText('See [the guide](https://example.com/a%20b) and ![a chart](https://example.com/c.png) now')).toBe(
      'See [the guide  and   now',
    );
  });

  // A page controls the text these run over, on the Node side: quadratic patterns would hold the
  // event loop for minutes on these (a 200 000 character line took 27 s with `/\s+$/`).
  it('stays linear on text built to make patterns backtrack', () => {
    const spaces = `a${' '.repeat(200_000)}b`;
    expect(finishMarkdown(`${spaces}  \nnext \n`) === `${spaces}  \nnext`).toBe(true);
    const brackets = `x${'](a'.repeat(200_000)}`;
    expect(markdownText(brackets) === brackets).toBe(true);
    expect(countWords(markdownText(brackets))).toBe(200_001);
  });

  it('finishes a document: trailing spaces, blank-line runs and the ends', () => {
    expect(finishMarkdown('\n\n# Title \t\n\n\n\nline one  \nline two \t\n\n\n')).toBe('# Title\n\nline one  \nline two');
  });
});
