import { findMainContent } from './main-content.js';
import type { MarkdownContext } from './markdown-context.js';
import { toMarkdown } from './markdown.js';
import { readMetadata } from './metadata.js';
import { collapseWhitespace, countWords, countWordsUpTo, escapeInline, lowerCaseWords, markdownText } from './text.js';
import { plainMarkdown } from './plain-markdown.js';
import { isWrittenInPlace, postsAfterTheFirst } from './thread-posts.js';
import { documentBase } from './urls.js';
import { createVisibilityFilter, isKept } from './visibility.js';
import {
  currentStepName,
  endBudget,
  MAIN_CONTENT_TIME_MS,
  MAX_MAIN_CONTENT_DEPTH,
  MAX_MAIN_CONTENT_ELEMENTS,
  DomTooDeep,
  exceedsDepth,
  startBudget,
  step,
  WorkBudgetExceeded,
} from './work-budget.js';

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
  /** Set when the main-content extraction could not be used and the plain conversion answered. */
  fallback?: ExtractionFallback;
}

/** Why the plain conversion answered: for the caller's warning and the service's log. */
export interface ExtractionFallback {
  reason: 'too-large' | 'too-deep' | 'out-of-time' | 'failed';
  /** The step that failed or ran out of time ('' before the first). */
  step: string;
  message: string;
  /** The plain conversion itself stopped early (time or length). */
  truncated: boolean;
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

/**
 * Elements matching any selector, outermost only, in document order; invalid selectors throw.
 * Linear in the matches (a `*` on a large page matches every element): each match looks up its
 * ancestors in the set rather than comparing itself with every other match.
 */
function selectAll(selectors: string[]): Element[] {
  const found = new Set<Element>();
  for (const selector of selectors) for (const element of Array.from(document.querySelectorAll(selector))) found.add(element);
  const outermost = [...found].filter((element) => {
    for (let parent = element.parentElement; parent; parent = parent.parentElement) if (found.has(parent)) return false;
    return true;
  });
  // One selector's matches come in document order already.
  if (selectors.length > 1) outermost.sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  return outermost;
}

function words(text: string): string {
  return lowerCaseWords(text).join(' ');
}

/** Shorter than this many words, a structured description adds nothing a reader needs first. */
const MIN_STRUCTURED_DESCRIPTION_WORDS = 40;
/** The description is on the page already when its first this many words are. */
const DESCRIPTION_OPENING_WORDS = 8;

/**
 * A product description only present in structured data (rendered by scripts) goes first, after
 * the product's name when the markdown opens with it as a heading (the name, then what it is).
 */
function withStructuredDescription(markdown: string, description: string): string {
  const text = collapseWhitespace(description.replace(/<[^>]*>/g, ' ')).trim();
  if (countWords(text) < MIN_STRUCTURED_DESCRIPTION_WORDS) return markdown;
  const opening = words(text).split(' ').slice(0, DESCRIPTION_OPENING_WORDS).join(' ');
  if (words(markdown).includes(opening)) return markdown;
  if (!markdown) return escapeInline(text);
  const title = /^#{1,2} [^\n]*\n\n/.exec(markdown)?.[0] ?? '';
  return `${title}${escapeInline(text)}\n\n${markdown.slice(title.length)}`;
}

/** Below this many words the visible page had no main content to speak of. */
const NEAR_EMPTY_WORDS = 30;
/** Hidden content replaces the visible page's when it holds more than this many times its words. */
const REVEALED_GAIN = 3;

function extract(options: PageExtractOptions, showHidden: boolean, body: Element): string {
  const excluded = new Set(selectAll(options.excludeTags));
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
  // A thread's posts, set apart (see thread-posts.ts).
  if (main.pageType === 'forum') {
    context.ruleBefore = postsAfterTheFirst(main.roots, (element) => main.stats.has(element) && isWrittenInPlace(element, main.roots, main.pruned));
  }
  return withStructuredDescription(step('markdown', () => toMarkdown(main.roots, context)), main.productDescription);
}

/** Words of `markdown` as a reader sees them, counted up to `limit` only. */
function wordsUpTo(markdown: string, limit: number): number {
  return countWordsUpTo(markdownText(markdown), limit);
}

/** Markdown of at most this many characters; a page's text is rarely a tenth of it. */
const MAX_MARKDOWN_CHARS = 5_000_000;
/** Time the plain conversion may take after the main-content extraction gave up. */
const PLAIN_TIME_MS = 5_000;

export function extractInPage(options: PageExtractOptions): PageExtractOutcome {
  const invalid = invalidSelector([...options.includeTags, ...options.excludeTags]);
  if (invalid !== undefined) return { invalidSelector: invalid };
  // A page's scripts can remove the whole document (anti-adblock walls do): nothing to read.
  const body = document.body ?? document.documentElement;
  if (!body) return { markdown: '', ...readMetadata() };
  // Counted natively; the depth is checked by the walks themselves (measure, or measureDepth below).
  if (body.getElementsByTagName('*').length > MAX_MAIN_CONTENT_ELEMENTS) {
    return plain(options, body, 'too-large', '', `The page has more than ${MAX_MAIN_CONTENT_ELEMENTS.toLocaleString('en')} elements`);
  }
  const mainContent = options.onlyMainContent && options.includeTags.length === 0;
  if (!mainContent && exceedsDepth(body, MAX_MAIN_CONTENT_DEPTH)) return tooDeep(options, body);
  startBudget(MAIN_CONTENT_TIME_MS);
  try {
    return { markdown: mainMarkdown(options, body), ...readMetadata() };
  } catch (error) {
    if (error instanceof DomTooDeep) return tooDeep(options, body);
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return plain(options, body, error instanceof WorkBudgetExceeded ? 'out-of-time' : 'failed', currentStepName(), message);
  } finally {
    endBudget();
  }
}

function mainMarkdown(options: PageExtractOptions, body: Element): string {
  let markdown = extract(options, false, body);
  // Some pages keep their content hidden (display: none) until their scripts reveal it; when
  // scripts did not run or failed, the hidden content is still the page's content.
  const mainContent = options.onlyMainContent && options.includeTags.length === 0;
  const visibleWords = mainContent ? wordsUpTo(markdown, NEAR_EMPTY_WORDS) : NEAR_EMPTY_WORDS;
  if (visibleWords < NEAR_EMPTY_WORDS) {
    const revealed = step('hidden content', () => extract(options, true, body));
    const revealedWords = wordsUpTo(revealed, Math.max(NEAR_EMPTY_WORDS, REVEALED_GAIN * visibleWords + 1));
    if (revealedWords >= NEAR_EMPTY_WORDS && revealedWords > REVEALED_GAIN * visibleWords) markdown = revealed;
  }
  return markdown;
}

function tooDeep(options: PageExtractOptions, body: Element): PageExtractResult {
  return plain(options, body, 'too-deep', '', `The page nests elements more than ${MAX_MAIN_CONTENT_DEPTH} deep`);
}

/** The plain conversion of the whole visible page (or the included elements), with why it answered. */
function plain(options: PageExtractOptions, body: Element, reason: ExtractionFallback['reason'], failedStep: string, message: string): PageExtractResult {
  const excluded = new Set(selectAll(options.excludeTags));
  const visible = createVisibilityFilter(false);
  const roots = options.includeTags.length > 0 ? selectAll(options.includeTags) : [body];
  let converted: { markdown: string; truncated: boolean };
  try {
    converted = plainMarkdown(roots, {
      base: documentBase(options.url),
      keep: (element) => visible(element) && !excluded.has(element),
      deadline: performance.now() + PLAIN_TIME_MS,
      maxChars: MAX_MARKDOWN_CHARS,
    });
  } catch {
    // Nothing left to try but the text the browser lays out.
    const text = (body as HTMLElement).innerText ?? body.textContent ?? '';
    converted = { markdown: escapeInline(text.slice(0, MAX_MARKDOWN_CHARS)), truncated: text.length > MAX_MARKDOWN_CHARS };
  }
  return { markdown: converted.markdown, ...safeMetadata(), fallback: { reason, step: failedStep, message, truncated: converted.truncated } };
}

function safeMetadata(): ReturnType<typeof readMetadata> {
  try {
    return readMetadata();
  } catch {
    return { title: document.title ?? '', description: '', language: '' };
  }
}
