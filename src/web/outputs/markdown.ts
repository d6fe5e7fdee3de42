import type { OutputRequest, PageResult } from '../outputs.js';
import { type PageOutputEntry, pageTextOf } from './reading.js';

/** The page text as markdown, with what its reading had to say (a fallback, a cut, no content). */
export const markdownOutput: PageOutputEntry<'markdown'> = {
  name: 'markdown',
  needs: ['page text'],
  price: { sharesLoad: 'markdown' },
  async read(_selection, reading) {
    // The selection is the page text's own (`readPageText`): it was read with it.
    const { markdown, wordCount, title, description, language, warnings } = pageTextOf(reading);
    return { value: { markdown, wordCount, title, description, language }, warnings };
  },
  async readDocument(_selection, { text }) {
    const { markdown, wordCount, title, description, language, warnings } = text;
    return { value: { markdown, wordCount, title, description, language }, warnings };
  },
};

/** A markdown-only answer with nothing in it is free and not cached: the page may have content next time. */
export function isEmptyMarkdownAnswer(outputs: OutputRequest, result: PageResult): boolean {
  const onlyMarkdown = Object.keys(outputs).every((output) => output === 'markdown');
  return onlyMarkdown && result.warnings.some((warning) => warning.code === 'NO_CONTENT');
}
