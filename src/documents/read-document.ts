import { parseContentType, type DocumentKind } from './classify.js';
import { DocumentReadAborted, DocumentTooLarge } from './document-errors.js';
import { createWarmWorkers, freshWorkers, readInThread, type WorkerSource } from './document-thread.js';
import { cutMarkdown, type DocumentReading } from './reading.js';
import { readText } from './text-document.js';

/**
 * Reads a downloaded document as markdown: a PDF or a DOCX in a bounded worker thread, text in
 * the caller's thread (decoding and formatting are linear in the bytes the caller bounded).
 * Failures are the typed errors of document-errors.ts; `documentAppError` names their codes.
 */

export interface ReadDocumentOptions {
  /** Text: the response's content type, whose charset decodes the text when the kind names none. */
  contentType?: string | null;
  /** PDF only: the pages to read, 1-based and inclusive (the whole document by default). */
  pages?: { first?: number; last?: number };
  /** PDF only: read at most this many pages of the range; the answer then says `truncatedBy: 'maxPages'`. */
  maxPages?: number;
  /** Cut the markdown at this many characters (`truncatedBy: 'maxChars'`). */
  maxChars?: number;
  /** A body longer than this is refused (DocumentTooLarge, bound `bytes`) before any parsing. */
  maxBytes?: number;
  /** PDF and DOCX: the parse is stopped after this long (DocumentParseTimeout); a worker started for the read loads its parser within it. */
  timeoutMs?: number;
  /** PDF and DOCX: the worker's JavaScript heap, in MB (past it: DocumentTooLarge, bound `memoryMb`). */
  maxHeapMb?: number;
  /** PDF: decoded data held outside the heap (streams, fonts), in MB, checked after each page. */
  maxExternalMemoryMb?: number;
  /** DOCX: the most bytes its parts may inflate to, by the package's own directory (bound `unzippedBytes`). */
  maxUnzippedBytes?: number;
  /** Stops the parse (DocumentReadAborted) when the caller gives up. */
  signal?: AbortSignal;
}

/** The bounds used where the caller sets none. */
export const DOCUMENT_READ_DEFAULTS = {
  timeoutMs: 30_000,
  maxHeapMb: 256,
  maxExternalMemoryMb: 512,
  maxUnzippedBytes: 200 * 1024 * 1024,
} as const;

export interface DocumentReader {
  read(body: Uint8Array, kind: DocumentKind, options?: ReadDocumentOptions): Promise<DocumentReading>;
  /** Ends the workers waiting for a document; reads after it start their own. */
  close(): Promise<void>;
}

/**
 * A reader that keeps a worker of each kind started ahead of the next document (worker
 * starts are most of a small document's time): for a server, made once in the composition
 * root and closed with it.
 */
export function createDocumentReader(): DocumentReader {
  const workers = createWarmWorkers();
  return { read: (body, kind, options) => readWith(workers, body, kind, options), close: () => workers.close() };
}

/** Reads one document, starting a worker for it when it needs one. */
export function readDocument(body: Uint8Array, kind: DocumentKind, options: ReadDocumentOptions = {}): Promise<DocumentReading> {
  return readWith(freshWorkers, body, kind, options);
}

async function readWith(workers: WorkerSource, body: Uint8Array, kind: DocumentKind, options: ReadDocumentOptions = {}): Promise<DocumentReading> {
  if (options.maxBytes !== undefined && body.byteLength > options.maxBytes) {
    throw new DocumentTooLarge('bytes', options.maxBytes, `The document is ${body.byteLength} bytes, over the bound of ${options.maxBytes}`, body.byteLength);
  }
  if (kind.kind === 'text') return readText(body, kind.format, kind.charset ?? parseContentType(options.contentType).charset, options.maxChars);
  if (options.signal?.aborted) throw new DocumentReadAborted({ cause: options.signal.reason });
  const maxHeapMb = options.maxHeapMb ?? DOCUMENT_READ_DEFAULTS.maxHeapMb;
  const worker = await workers.take(kind.kind, maxHeapMb);
  const reading = await readInThread(
    worker,
    {
      kind: kind.kind,
      body,
      pages: options.pages && { first: Math.max(1, Math.floor(options.pages.first ?? 1)), ...(options.pages.last !== undefined ? { last: Math.floor(options.pages.last) } : {}) },
      maxPages: options.maxPages !== undefined ? Math.max(1, Math.floor(options.maxPages)) : undefined,
      maxExternalMemoryMb: options.maxExternalMemoryMb ?? DOCUMENT_READ_DEFAULTS.maxExternalMemoryMb,
      maxUnzippedBytes: options.maxUnzippedBytes ?? DOCUMENT_READ_DEFAULTS.maxUnzippedBytes,
    },
    { timeoutMs: options.timeoutMs ?? DOCUMENT_READ_DEFAULTS.timeoutMs, maxHeapMb, signal: options.signal },
  ).finally(() => workers.finished?.(kind.kind, maxHeapMb));
  const cut = cutMarkdown(reading.markdown, options.maxChars);
  return cut.truncated ? { ...reading, markdown: cut.markdown, truncated: true, truncatedBy: 'maxChars' } : reading;
}
