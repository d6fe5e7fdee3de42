import type { Caller } from '../accounts/caller.js';
import type { ExtractionAsk } from '../ai/extraction-prompt.js';
import type { PageWarning } from '../browser/types.js';
import type { FileType } from '../files/file.service.js';
import type { ActionResults } from './actions/action-list.js';
import type { OutputRequest, PageMetadata, PageResult, StoredCapture, TextSelection } from './outputs.js';
import type { PagePipeline, PageRun } from './page-pipeline.js';
import type { PdfOptions, ScrapeTarget, ScreenshotOptions } from './output-options.js';
import type { PageRequest, Viewport } from './page-options.js';

type PageFields = PageRequest & { maxAge?: number };

/** An operation's answer: its `data`, and what the envelope and headers say of it. */
export interface Answered<T> {
  data: T;
  cache: 'HIT' | 'MISS';
  creditsCost: number;
}

/** A capture's answer: its record, and its bytes for a binary answer. */
export interface CaptureAnswer {
  fileId: string;
  permanentUrl: string;
  contentType: string;
  bytes: Uint8Array;
  metadata: Record<string, unknown> & { warnings?: PageWarning[] };
  /** What the request's actions made, when it had any. */
  actions?: AnsweredActions;
}

/** A stored capture as answered: its file, without the storage key. */
export type AnsweredCapture = Omit<StoredCapture, 'r2Key'>;
/** What a request's actions made, as every answer carries it (`actions`, beside the operation's own fields). */
export type AnsweredActions = ActionResults<AnsweredCapture>;

/**
 * The spec's page operations, each one request of the page pipeline with the outputs it needs,
 * and its answer in the spec's shape. They meter nothing and catch nothing themselves: the
 * pipeline does both, for all of them alike.
 */
export class PageOperations {
  constructor(private readonly pipeline: PagePipeline) {}

  async content(caller: Caller, page: PageFields) {
    const run = await this.pipeline.run({ caller, operation: 'content', page, outputs: { rawHtml: true } });
    const { outputs } = run.result;
    return answered(run, { content: outputs.rawHtml ?? '', metadata: pageMetadata(run.result, { contentType: run.result.metadata.contentType }) });
  }

  async markdown(caller: Caller, page: PageFields, selection: TextSelection) {
    const run = await this.pipeline.run({ caller, operation: 'markdown', page, outputs: { markdown: selection } });
    const markdown = run.result.outputs.markdown ?? { markdown: '', wordCount: 0, title: '', description: '', language: '' };
    const { title, description, language, wordCount } = markdown;
    return answered(run, { markdown: markdown.markdown, metadata: pageMetadata(run.result, { title, description, language, wordCount }) });
  }

  async links(caller: Caller, page: PageFields) {
    const run = await this.pipeline.run({ caller, operation: 'links', page, outputs: { links: true } });
    const links = run.result.outputs.links ?? [];
    return answered(run, { links, metadata: pageMetadata(run.result, { count: links.length }) });
  }

  async scrape(caller: Caller, page: PageFields, elements: ScrapeTarget[]) {
    const run = await this.pipeline.run({ caller, operation: 'scrape', page, outputs: { scrape: { elements } } });
    const scraped = run.result.outputs.scrape ?? { elements: [], elementsFound: 0 };
    return answered(run, { elements: scraped.elements, metadata: pageMetadata(run.result, { elementsFound: scraped.elementsFound }) });
  }

  async screenshot(caller: Caller, page: PageFields, viewport: Viewport, options: ScreenshotOptions): Promise<Answered<CaptureAnswer>> {
    return this.capture(caller, 'screenshot', { caller, operation: 'screenshot', page, viewport, outputs: { screenshot: options } });
  }

  async pdf(caller: Caller, page: PageFields, options: PdfOptions): Promise<Answered<CaptureAnswer>> {
    return this.capture(caller, 'pdf', { caller, operation: 'pdf', page, outputs: { pdf: options } });
  }

  async aiExtract(caller: Caller, page: PageFields, ask: ExtractionAsk) {
    const run = await this.pipeline.run({ caller, operation: 'ai-extract', page, outputs: { json: ask } });
    const { metadata, warnings } = run.result;
    const extraction = run.result.outputs.json!;
    return answered(run, {
      extracted: extraction.extracted,
      text: extraction.text,
      metadata: {
        url: metadata.url,
        finalUrl: metadata.finalUrl,
        title: metadata.title,
        timestamp: metadata.timestamp,
        model: extraction.model,
        responseType: ask.responseType,
        extractionType: extraction.extractionType,
        fieldsExtracted: Object.keys(extraction.extracted).length,
        inputTokens: extraction.inputTokens,
        outputTokens: extraction.outputTokens,
        inputTrimmed: extraction.inputTrimmed,
        attempts: extraction.attempts,
        ...(warnings.length > 0 ? { warnings } : {}),
      },
    });
  }

  /** Several outputs of one page load (the native `/v1/web/page` and the Firecrawl adapter). */
  async page(caller: Caller, page: PageFields, outputs: OutputRequest, viewport?: Viewport): Promise<PageRun> {
    return this.pipeline.run({ caller, operation: 'page', page, viewport, outputs });
  }

  /** The bytes of a capture in a result (read back from storage after a cache hit). */
  captureBytes(run: PageRun, type: FileType): Promise<Uint8Array> {
    const bytes = run.bytes[type];
    return bytes ? Promise.resolve(bytes) : this.pipeline.captureBytes(run.result.outputs[type]!);
  }

  private async capture(caller: Caller, type: FileType, job: Parameters<PagePipeline['run']>[0]): Promise<Answered<CaptureAnswer>> {
    const run = await this.pipeline.run({ ...job, caller });
    const capture = run.result.outputs[type] as StoredCapture;
    const { url, finalUrl, statusCode, timestamp } = run.result.metadata;
    const { fileId, permanentUrl, r2Key: _key, contentType, size, ...facts } = capture;
    const metadata = withWarnings({ url, finalUrl, statusCode, timestamp, size, contentType, ...facts }, run.result.warnings);
    return answered(run, { fileId, permanentUrl, contentType, bytes: await this.captureBytes(run, type), metadata });
  }
}

/** An operation's answer; what the request's actions made rides along as `actions`. */
function answered<T>(run: PageRun, data: T): Answered<T & { actions?: AnsweredActions }> {
  const actions = actionResults(run.result.outputs.actions);
  const withActions: T & { actions?: AnsweredActions } = { ...data, ...(actions ? { actions } : {}) };
  return { data: withActions, cache: run.cache, creditsCost: run.creditsCost };
}

/** What the actions made as answered: each capture's stored file, without its storage key. */
export function actionResults(made: ActionResults<StoredCapture> | undefined): AnsweredActions | undefined {
  if (!made) return undefined;
  const shown = ({ r2Key: _key, ...capture }: StoredCapture): AnsweredCapture => capture;
  return { screenshots: made.screenshots.map(shown), scrapes: made.scrapes, javascriptReturns: made.javascriptReturns, pdfs: made.pdfs.map(shown) };
}

/** The metadata of a spec page answer: the load, what the page says of itself, the operation's own fields, the warnings. */
export function pageMetadata<E extends object>(result: PageResult, extra: E): PageMetadata & E & { warnings?: PageWarning[] } {
  return withWarnings({ ...result.metadata, ...extra }, result.warnings);
}

function withWarnings<M extends object>(metadata: M, warnings: PageWarning[]): M & { warnings?: PageWarning[] } {
  return warnings.length > 0 ? { ...metadata, warnings } : metadata;
}
