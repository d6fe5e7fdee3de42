import type { Page } from 'playwright-core';
import type { ExtractionFallback, PageExtractOptions, PageExtractOutcome } from './in-page/entry.js';
import { countWords, finishMarkdown, markdownText } from './in-page/text.js';
import { bundlePageFunction, runPageFunction, siblingModule } from './page-script.js';

/**
 * Main-content markdown of a loaded page. The work runs inside the page, on the live DOM, where
 * visibility, computed styles and geometry are known; only the markdown travels back. The
 * `/v1/web/markdown` route, the AI extraction and the extraction bench all call `extractMarkdown`.
 */

export interface ExtractOptions {
  /** The page URL: base for absolute links/images. */
  url: string;
  /** Default true: only the main content; false: the whole page (still without script/style). */
  onlyMainContent?: boolean;
  /** CSS selectors: when given, only these elements are converted. */
  includeTags?: string[];
  /** CSS selectors removed before conversion. */
  excludeTags?: string[];
  /** The markdown is cut at this many characters in the page (and every other text at 2,000), before it crosses to Node. */
  maxChars?: number;
}

export interface ExtractResult {
  markdown: string;
  title: string;
  description: string;
  /** BCP 47 language of the page (html lang / meta), '' when unknown. */
  language: string;
  wordCount: number;
  /** Set when the main-content steps could not be used on this page and the plain conversion answered. */
  fallback?: ExtractionFallback;
  /** The markdown was cut at `maxChars`. */
  truncated?: boolean;
}

export type { ExtractionFallback };

/** A selector in `includeTags` / `excludeTags` that the browser cannot parse (a 422 for callers). */
export class InvalidSelector extends Error {
  constructor(readonly selector: string) {
    super(`Invalid CSS selector: ${selector}`);
    this.name = 'InvalidSelector';
  }
}

const ENTRY = siblingModule(import.meta.url, './in-page/entry');

/** Bundles the in-page extractor (once per process); awaiting it first keeps that out of timings. */
export function prepareExtractor(): Promise<string> {
  return bundlePageFunction(ENTRY, 'extractInPage');
}

export async function extractMarkdown(page: Page, options: ExtractOptions): Promise<ExtractResult> {
  const script = await prepareExtractor();
  const argument: PageExtractOptions = {
    url: options.url,
    onlyMainContent: options.onlyMainContent ?? true,
    includeTags: options.includeTags ?? [],
    excludeTags: options.excludeTags ?? [],
  };
  const outcome = await runPageFunction<PageExtractOutcome & { truncated?: boolean }>(page, boundedBy(script, options.maxChars), argument);
  if ('invalidSelector' in outcome) throw new InvalidSelector(outcome.invalidSelector);
  // String work on the whole document runs here, compiled once, rather than cold in each page.
  const markdown = finishMarkdown(outcome.markdown);
  return { ...outcome, markdown, wordCount: countWords(markdownText(markdown)) };
}

/** Labels (title, description...) a page may make any size are cut at this length. */
const LABEL_MAX_CHARS = 2_000;

/**
 * The extractor, with its answer bounded in the page: the markdown at `maxChars`, every other
 * string at LABEL_MAX_CHARS. Runs where the page's scripts cannot reach (an isolated world).
 */
function boundedBy(script: string, maxChars: number | undefined): string {
  if (maxChars === undefined) return script;
  return `(function (argument) {
  const result = (${script})(argument);
  for (const [name, value] of Object.entries(result)) {
    const max = name === 'markdown' ? ${maxChars} : ${LABEL_MAX_CHARS};
    if (typeof value === 'string' && value.length > max) {
      result[name] = value.slice(0, max);
      if (name === 'markdown') result.truncated = true;
    }
  }
  return result;
})`;
}
