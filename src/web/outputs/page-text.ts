import type { Logger } from 'pino';
import { PLACEHOLDER_MAX_WORDS, PLACEHOLDER_TEXT } from '../../browser/page-settle.js';
import type { LoadedPage, PageWarning } from '../../browser/types.js';
import { type ExtractOptions, type ExtractResult, extractMarkdown, InvalidSelector } from '../../extract/extract.js';
import { markdownText } from '../../extract/in-page/text.js';
import type { OutputRequest, TextSelection } from '../outputs.js';
import { invalidSelector, type PageText, truncatedAnswer } from './reading.js';

/** Main content below this many words is looked at again before it is answered. */
const FEW_WORDS = 5;

/** The page text the AI extraction reads when the markdown output, and its selection, is not asked. */
const MAIN_CONTENT: TextSelection = { onlyMainContent: true, includeTags: [], excludeTags: [] };

/**
 * The page text shared by the outputs that need it (markdown, json): read once, of the markdown
 * output's selection when it is asked, else of the main content. Its warnings are the markdown
 * output's to give (`markdown.ts`).
 */
export async function readPageText(loaded: LoadedPage, asked: OutputRequest, maxChars: number, log: Logger): Promise<PageText> {
  const selection = asked.markdown ?? MAIN_CONTENT;
  return markdownOfPage(loaded, { url: loaded.finalUrl, ...selection, maxChars }, log).catch((error: unknown) => {
    throw error instanceof InvalidSelector ? invalidSelector(error.selector, selection) : error;
  });
}

/**
 * The markdown of a loaded page, read as a careful reader would: when the main content is empty,
 * a few words or a loading placeholder, its document is read again with scripts off (forum
 * software serves its posts to such readers; some pages' scripts remove their own content), and
 * when that has nothing either, the page gets one more chance to fill itself. An answer that is
 * still empty says so in its warnings (`NO_CONTENT`) instead of passing for a page without text.
 */
export async function markdownOfPage(loaded: LoadedPage, options: ExtractOptions, log: Logger): Promise<PageText> {
  const warnings: PageWarning[] = [];
  const wholeSelection = options.includeTags === undefined || options.includeTags.length === 0;
  const tooLittle = (result: ExtractResult) => isEmpty(result) || (wholeSelection && result.wordCount < FEW_WORDS);
  let result = await extractMarkdown(loaded.page, options);
  // Read without scripts first: quick, and all that a page whose scripts failed has to give
  // (unless the page is that reading already, standing in for one that crashed or went nowhere).
  const alreadyWithoutScripts = loaded.warnings.some((warning) => warning.code === 'RENDERED_WITHOUT_SCRIPTS');
  if (tooLittle(result) && !alreadyWithoutScripts) {
    const withoutScripts = await readWithoutScripts(loaded, options, log);
    if (withoutScripts && !tooLittle(withoutScripts)) {
      result = withoutScripts;
      warnings.push({
        code: 'RENDERED_WITHOUT_SCRIPTS',
        message: "The page's scripts left no content on it; this is its document as served, read with scripts off",
      });
    }
  }
  // Waiting costs seconds: only for nothing at all, or a placeholder, not for a short page. The
  // page is read again as the wait begins: it may have filled itself while it was being read.
  if (isEmpty(result) && (await loaded.waitForLateContent(async () => isEmpty(await extractMarkdown(loaded.page, options))))) {
    const later = await extractMarkdown(loaded.page, options);
    if (later.wordCount > result.wordCount) result = later;
  }
  if (result.fallback) {
    const { reason, step, message, truncated } = result.fallback;
    log.warn({ url: options.url, reason, step, error: message, truncated }, 'main-content extraction fell back to the plain conversion');
    warnings.push({
      code: 'SIMPLIFIED_EXTRACTION',
      message: `${fallbackReason(reason)}: the whole page was converted without main-content detection${truncated ? ', and cut short' : ''}`,
    });
  }
  if (result.truncated && options.maxChars !== undefined) warnings.push(truncatedAnswer('The markdown', options.maxChars));
  if (isEmpty(result)) warnings.push({ code: 'NO_CONTENT', message: 'The page shows no text content (or only a loading placeholder)' });
  return { ...result, warnings };
}

/** True for an answer that carries nothing a caller can use: no words, or only "Loading...". */
export function isEmpty(result: Pick<ExtractResult, 'markdown' | 'wordCount'>): boolean {
  return result.wordCount === 0 || (result.wordCount <= PLACEHOLDER_MAX_WORDS && PLACEHOLDER_TEXT.test(markdownText(result.markdown).trim()));
}

async function readWithoutScripts(loaded: LoadedPage, options: ExtractOptions, log: Logger): Promise<ExtractResult | undefined> {
  try {
    const page = await loaded.withoutScripts();
    return page ? await extractMarkdown(page, options) : undefined;
  } catch (error) {
    log.debug({ err: error, url: options.url }, 'reading the page without scripts failed');
    return undefined;
  }
}

function fallbackReason(reason: NonNullable<ExtractResult['fallback']>['reason']): string {
  switch (reason) {
    case 'too-large':
      return 'The page has too many elements for main-content extraction';
    case 'too-deep':
      return 'The page nests its elements too deep for main-content extraction';
    case 'out-of-time':
      return 'Main-content extraction ran out of time on this page';
    default:
      return 'Main-content extraction failed on this page';
  }
}
