import { navigationTimeout } from '../../browser/page-loader.js';
import { type LoadOptions, type PageRunner, type PageWarning, RequestAborted, TargetUnreachable } from '../../browser/types.js';
import { type BodyKind, classifyBody, type DocumentKind } from '../../documents/classify.js';
import { documentAppError, UnsupportedDocument } from '../../documents/document-errors.js';
import type { DocumentReader } from '../../documents/read-document.js';
import { AppError } from '../../errors/app-error.js';
import type { GuardedFetch } from '../../net/guarded-fetch.js';
import { type FetchedTarget, fetchTarget } from '../../net/target-fetch.js';
import { readDocumentOutputs, refusesDocument } from './document-engine.js';
import { browserOnlyReason, type EngineName } from './engine-table.js';
import { scriptNeedOf, THIN_MAX_WORDS } from './needs-scripts.js';
import { shownWords } from './shown-words.js';
import type { ReadRequest, UrlReading } from './url-reading.js';

export type { ReadRequest, UrlReading };

export interface UrlReaderDeps {
  browser: PageRunner;
  /** Parses documents off the event loop (src/documents): one for the process, its workers kept warm. */
  documents: DocumentReader;
  fetch: GuardedFetch;
  bounds: { answerMaxChars: number; staticMaxBytes: number; navigationTimeoutMaxMs: number; documents: { maxBytes: number; maxPages: number; parseTimeoutMs: number } };
}

/**
 * Reads a URL the cheapest way that gives the right content (engine-table.ts): unless the request
 * needs the scripted browser, the target is fetched once over HTTP, and what it answered decides.
 * A document is parsed; HTML that shows its text without scripts is rendered without them, and
 * looked at once more (a page that comes out thin is loaded with its scripts after all);
 * everything else is loaded by the browser as before. `metadata.engine` says which way it went.
 */
export class UrlReader {
  constructor(private readonly deps: UrlReaderDeps) {}

  async read(request: ReadRequest): Promise<UrlReading> {
    const choice = request.page.engine ?? 'auto';
    if (choice === 'browser' || browserOnlyReason(request.page, request.outputs) !== undefined) return this.withBrowser(request);
    const fetched = await this.fetch(request, Math.max(this.deps.bounds.staticMaxBytes, this.deps.bounds.documents.maxBytes));
    const kind = kindOf(fetched);
    if (kind.kind === 'unsupported') throw unsupported(fetched, kind);
    if (kind.kind !== 'html') {
      // A text file asked for its HTML (or elements of it) is shown as a browser shows text.
      const refusal = refusesDocument(request.outputs, kind);
      if (refusal === undefined) return this.document(request, fetched, kind);
      if (kind.kind !== 'text') throw refusal;
    }
    // Past the bound, the page is the browser's to fetch and show as it arrives.
    if (fetched.overLimit || fetched.body.byteLength > this.deps.bounds.staticMaxBytes) return this.withBrowser(request);
    // What arrived before the time was up is all there is: no time is left to load it with scripts.
    if (fetched.incomplete) return (await this.withoutScripts(request, fetched, false))!;
    const prefetched = { url: fetched.url, status: fetched.status, contentType: fetched.headers['content-type'] ?? '', body: fetched.body, headers: fetched.headers };
    if (choice === 'auto' && kind.kind === 'html' && scriptNeedOf(decodeHead(fetched)).needsScripts) return this.withBrowser(request, prefetched);
    return (await this.withoutScripts(request, fetched, choice === 'auto')) ?? this.withBrowser(request, prefetched);
  }

  /** The page loaded by the browser, scripts on: today's one way, and still the way of every page that needs it. */
  private async withBrowser(request: ReadRequest, prefetched?: LoadOptions['prefetched']): Promise<UrlReading> {
    try {
      const reading = await this.deps.browser.withLoadedPage(
        request.context,
        prefetched ? { ...request.load, prefetched } : request.load,
        async (loaded) => {
          if (isDocumentType(loaded.contentType)) throw new DocumentInBrowser();
          return request.readPage(loaded);
        },
        request.claim,
      );
      return engineSaid(reading, 'browser');
    } catch (error) {
      // Chromium downloads what it does not show (a PDF in the headless shell, an attachment), or
      // shows a PDF in its viewer: the document is fetched and read as one.
      if (!(error instanceof DocumentInBrowser) && !isDownload(error)) throw error;
      const fetched = await this.fetch(request, this.deps.bounds.documents.maxBytes);
      const kind = kindOf(fetched);
      if (kind.kind === 'unsupported') throw unsupported(fetched, kind);
      if (kind.kind === 'html') throw error;
      const refusal = refusesDocument(request.outputs, kind);
      if (refusal) throw refusal;
      return this.document(request, fetched, kind);
    }
  }

  /**
   * The fetched HTML rendered without scripts, in a page of the pool; undefined when `checkThin`
   * and the page shows too little text that way (an app's shell): the browser then loads it.
   */
  private async withoutScripts(request: ReadRequest, fetched: FetchedTarget, checkThin: boolean): Promise<UrlReading | undefined> {
    const served = { url: fetched.url, status: fetched.status, contentType: fetched.headers['content-type'] ?? 'text/html', body: fetched.body };
    const reading = await this.deps.browser.withLoadedPage(
      request.context,
      { ...request.load, served },
      async (loaded) => {
        if (checkThin && (await shownWords(loaded.page, THIN_MAX_WORDS)) < THIN_MAX_WORDS) return undefined;
        return request.readPage(loaded);
      },
      request.claim,
    );
    if (!reading) {
      request.log.debug({ url: fetched.url }, 'the page shows too little without scripts: loading it with them');
      return undefined;
    }
    const incomplete: PageWarning[] = fetched.incomplete
      ? [{ code: 'PAGE_INCOMPLETE', message: `The document was still arriving after ${navigationTimeout(request.load.timeoutMs, this.deps.bounds.navigationTimeoutMaxMs)} ms; this is the part that had arrived` }]
      : [];
    return engineSaid({ ...reading, warnings: [...incomplete, ...reading.warnings] }, 'static');
  }

  private async document(request: ReadRequest, fetched: FetchedTarget, kind: DocumentKind): Promise<UrlReading> {
    const { documents, answerMaxChars } = this.deps.bounds;
    if (fetched.overLimit || fetched.body.byteLength > documents.maxBytes) {
      throw new AppError('DOCUMENT_TOO_LARGE', `${fetched.url} is larger than this service's bound of ${documents.maxBytes} bytes for documents (DOCUMENT_MAX_BYTES)`, {
        details: { bound: 'bytes', limit: documents.maxBytes },
      });
    }
    return readDocumentOutputs(this.deps.documents, request, fetched, kind, { ...documents, answerMaxChars });
  }

  private async fetch(request: ReadRequest, maxBytes: number): Promise<FetchedTarget> {
    const { page } = request;
    const fetching = fetchTarget(this.deps.fetch, {
      url: page.url,
      headers: page.headers,
      cookies: request.context.cookies,
      userAgent: page.userAgent ?? (await this.deps.browser.userAgent()),
      timeoutMs: navigationTimeout(request.load.timeoutMs, this.deps.bounds.navigationTimeoutMaxMs),
      maxBytes,
      signal: request.signal,
    });
    // The caller went away: its fetch stopped, answered as the browser's stopped page is.
    return fetching.catch((error: unknown) => {
      throw request.signal?.aborted ? new RequestAborted() : error;
    });
  }
}

/** The browser was shown a document rather than a page. */
class DocumentInBrowser extends Error {}

function isDownload(error: unknown): boolean {
  return error instanceof TargetUnreachable && /Download is starting|net::ERR_ABORTED/.test(String((error.cause as Error | undefined)?.message ?? error.message));
}

const DOCUMENT_TYPES = /^(application\/(pdf|x-pdf|vnd\.openxmlformats-officedocument\.wordprocessingml\.document))\b/i;

function isDocumentType(contentType: string): boolean {
  return DOCUMENT_TYPES.test(contentType.trim());
}

function kindOf(fetched: FetchedTarget): BodyKind {
  return classifyBody({
    contentType: fetched.headers['content-type'],
    contentDisposition: fetched.headers['content-disposition'],
    url: fetched.url,
    body: fetched.body,
  });
}

/** A URL that serves what has no text to read: `${url} serves …`, as the document reader names it. */
function unsupported(fetched: FetchedTarget, kind: Extract<BodyKind, { kind: 'unsupported' }>): unknown {
  const error = documentAppError(new UnsupportedDocument(kind.mediaType, kind.family));
  if (error instanceof AppError) error.message = `${fetched.url}: ${error.message}`;
  return error;
}

/** What the script-need signs look at: the start of the document, where they are (needs-scripts.ts). */
const HEAD_BYTES = 2 * 1024 * 1024;

/** The start of an HTML body as text, for the script-need signs. */
function decodeHead(fetched: FetchedTarget): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(fetched.body.subarray(0, HEAD_BYTES));
}

function engineSaid(reading: UrlReading, engine: EngineName): UrlReading {
  return { ...reading, metadata: { ...reading.metadata, engine } };
}
