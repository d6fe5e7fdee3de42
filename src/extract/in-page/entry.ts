import { findMainContent } from './main-content.js';
import { type MarkdownContext, toMarkdown } from './markdown.js';
import { readMetadata } from './metadata.js';
import { collapseWhitespace, countWords, countWordsUpTo, escapeInline, lowerCaseWords, markdownText } from './text.js';
import { documentBase } from './urls.js';
import { createVisibilityFilter, isKept } from './visibility.js';

/** Runs inside the page: the whole extraction, from the live DOM to markdown and metadata. */

export interface PageExtractOptions {
  url: string;
  onlyMainContent: boolean;
  includeTags: string[];
  excludeTags: string[];
}

export interface PageExtractResult {
  /** Not yet finished: `finishMarkdown` (text.ts) runs on the Node side. */
  markdown: string;
  title: string;
  description: string;
  language: string;
}

export type PageExtractOutcome = PageExtractResult | { invalidSelector: string };

function invalidSelector(selectors: string[]): string | undefined {
  const probe = document.createDocumentFragment();
  return selectors.find((selector) => {
    try {
      probe.querySelector(selector);
      return false;
    } catch {
      return true;
    }
  });
}

/** Elements matching any selector, outermost only, in document order; invalid selectors throw. */
function selectAll(selectors: string[]): Element[] {
  const found = new Set<Element>();
  for (const selector of selectors) for (const element of Array.from(document.querySelectorAll(selector))) found.add(element);
  const ordered = [...found].sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  return ordered.filter((element) => !ordered.some((other) => other !== element && other.contains(element)));
}

function words(text: string): string {
  return lowerCaseWords(text).join(' ');
}

/** A product description only present in structured data (rendered by scripts) goes first. */
function withStructuredDescription(markdown: string, description: string): string {
  const text = collapseWhitespace(description.replace(/<[^>]*>/g, ' ')).trim();
  if (countWords(text) < 40) return markdown;
  const opening = words(text).split(' ').slice(0, 8).join(' ');
  if (words(markdown).includes(opening)) return markdown;
  return markdown ? `${escapeInline(text)}\n\n${markdown}` : escapeInline(text);
}

/** Below this many words the visible page had no main content to speak of. */
const NEAR_EMPTY_WORDS = 30;

function extract(options: PageExtractOptions, showHidden: boolean): string {
  const excluded = new Set(selectAll(options.excludeTags));
  const body = document.body ?? document.documentElement;
  const base = documentBase(options.url);
  if (options.includeTags.length > 0 || !options.onlyMainContent) {
    const visible = createVisibilityFilter(showHidden);
    const roots = options.includeTags.length > 0 ? selectAll(options.includeTags) : [body];
    return toMarkdown(roots, { base, keep: (element) => visible(element) && !excluded.has(element) });
  }
  // Measuring walks every kept element once, so what it measured is what is kept: the later
  // walks ask the measurements rather than the page.
  const main = findMainContent(body, (element) => isKept(element, showHidden) && !excluded.has(element), options.url);
  const context: MarkdownContext = {
    base,
    keep: (element) => main.stats.has(element) && !main.pruned.has(element),
    written: new Map<string, Element>(),
  };
  return withStructuredDescription(toMarkdown(main.roots, context), main.productDescription);
}

/** Words of `markdown` as a reader sees them, counted up to `limit` only. */
function wordsUpTo(markdown: string, limit: number): number {
  return countWordsUpTo(markdownText(markdown), limit);
}

export function extractInPage(options: PageExtractOptions): PageExtractOutcome {
  const invalid = invalidSelector([...options.includeTags, ...options.excludeTags]);
  if (invalid !== undefined) return { invalidSelector: invalid };
  let markdown = extract(options, false);
  // Some pages keep their content hidden (display: none) until their scripts reveal it; when
  // scripts did not run or failed, the hidden content is still the page's content.
  const mainContent = options.onlyMainContent && options.includeTags.length === 0;
  const visibleWords = mainContent ? wordsUpTo(markdown, NEAR_EMPTY_WORDS) : NEAR_EMPTY_WORDS;
  if (visibleWords < NEAR_EMPTY_WORDS) {
    const revealed = extract(options, true);
    const revealedWords = wordsUpTo(revealed, Math.max(NEAR_EMPTY_WORDS, 3 * visibleWords + 1));
    if (revealedWords >= NEAR_EMPTY_WORDS && revealedWords > 3 * visibleWords) markdown = revealed;
  }
  return { markdown, ...readMetadata() };
}
