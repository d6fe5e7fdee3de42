import { AppError } from '../errors/app-error.js';
import { validationError } from '../errors/validation-error.js';

/**
 * What reading a document can fail on, as the document reader's own typed errors; the service
 * that calls the reader turns them into the API's codes once, with `documentAppError`.
 */

/** The response is a type Pluck does not read (an image, a video, an archive, a spreadsheet...). */
export class UnsupportedDocument extends Error {
  constructor(
    readonly mediaType: string,
    readonly family: string,
  ) {
    super(`Pluck does not read ${family} content (${mediaType}); it reads HTML pages, PDF, DOCX and text documents`);
    this.name = 'UnsupportedDocument';
  }
}

/** Why a document could not be read. */
export type UnreadableReason = 'corrupt' | 'encrypted' | 'not-docx';

/** The bytes are not a readable document of their kind: damaged, cut short, or locked by a password. */
export class DocumentUnreadable extends Error {
  constructor(
    readonly kind: 'pdf' | 'docx',
    readonly reason: UnreadableReason,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`The ${kind === 'pdf' ? 'PDF' : 'DOCX'} document cannot be read: ${detail}`, options);
    this.name = 'DocumentUnreadable';
  }
}

/** The bounds a document's reading is held to, named in the error that says which was passed. */
export type DocumentBound = 'bytes' | 'pages' | 'unzippedBytes' | 'memoryMb';

/** A document over one of the reader's bounds: `bound` names it, `limit` is its value. */
export class DocumentTooLarge extends Error {
  constructor(
    readonly bound: DocumentBound,
    readonly limit: number,
    message: string,
    readonly actual?: number,
  ) {
    super(message);
    this.name = 'DocumentTooLarge';
  }
}

/** Parsing took longer than its time bound; the parse was stopped. */
export class DocumentParseTimeout extends Error {
  constructor(
    readonly kind: 'pdf' | 'docx',
    readonly timeoutMs: number,
  ) {
    super(`Reading the ${kind === 'pdf' ? 'PDF' : 'DOCX'} document took longer than ${timeoutMs} ms and was stopped; ask for fewer pages, or a smaller document`);
    this.name = 'DocumentParseTimeout';
  }
}

/** A page range that starts after the document's last page. */
export class PageRangeOutsideDocument extends Error {
  constructor(
    readonly first: number,
    readonly totalPages: number,
  ) {
    super(`The page range starts at page ${first}, but the document has ${totalPages} page${totalPages === 1 ? '' : 's'}`);
    this.name = 'PageRangeOutsideDocument';
  }
}

/** The reader stopped because its caller gave up (the request was closed). */
export class DocumentReadAborted extends Error {
  constructor(options?: { cause?: unknown }) {
    super('Reading the document was stopped: the request was cancelled', options);
    this.name = 'DocumentReadAborted';
  }
}

/**
 * The document reader's errors as the API's codes; anything else is returned untouched (a bug:
 * the error handler answers 500). `firstPageField` is the path of the request field holding the
 * range's first page, where the validation error points (`['document', 'firstPage']`).
 */
export function documentAppError(error: unknown, firstPageField: (string | number)[] = ['pages', 'first']): unknown {
  if (error instanceof UnsupportedDocument) {
    return new AppError('UNSUPPORTED_CONTENT_TYPE', error.message, { cause: error, details: { mediaType: error.mediaType, family: error.family } });
  }
  if (error instanceof DocumentUnreadable) {
    return new AppError('DOCUMENT_UNREADABLE', error.message, { cause: error, details: { documentType: error.kind, reason: error.reason } });
  }
  if (error instanceof DocumentTooLarge) {
    const details: Record<string, unknown> = { bound: error.bound, limit: error.limit };
    if (error.actual !== undefined) details.actual = error.actual;
    return new AppError('DOCUMENT_TOO_LARGE', error.message, { cause: error, details });
  }
  if (error instanceof DocumentParseTimeout) {
    return new AppError('DOCUMENT_TIMEOUT', error.message, { cause: error, details: { documentType: error.kind, timeoutMs: error.timeoutMs } });
  }
  if (error instanceof PageRangeOutsideDocument) {
    return validationError([{ code: 'too_big', path: firstPageField, message: error.message }], error);
  }
  if (error instanceof DocumentReadAborted) {
    return new AppError('CLIENT_CLOSED_REQUEST', error.message, { cause: error });
  }
  return error;
}
