import { describe, expect, it } from 'vitest';
import {
  documentAppError,
  DocumentParseTimeout,
  DocumentReadAborted,
  DocumentTooLarge,
  DocumentUnreadable,
  PageRangeOutsideDocument,
  UnsupportedDocument,
} from '../../src/documents/document-errors.js';
import { AppError } from '../../src/errors/app-error.js';
import { statusOf } from '../../src/http/error-status.js';

/** The document reader's errors as the API's codes and statuses, the way the service that calls it answers them. */
describe('documentAppError', () => {
  const mapped = (error: Error) => {
    const appError = documentAppError(error);
    expect(appError).toBeInstanceOf(AppError);
    const { code, message, details } = appError as AppError;
    return { code, status: statusOf(code), message, details };
  };

  it('answers content nothing reads with 422 UNSUPPORTED_CONTENT_TYPE, naming the type', () => {
    expect(mapped(new UnsupportedDocument('image/png', 'image'))).toEqual({
      code: 'UNSUPPORTED_CONTENT_TYPE',
      status: 422,
      message: 'Pluck does not read image content (image/png); it reads HTML pages, PDF, DOCX and text documents',
      details: { mediaType: 'image/png', family: 'image' },
    });
  });

  it('answers a damaged or locked document with 422 DOCUMENT_UNREADABLE, saying why', () => {
    expect(mapped(new DocumentUnreadable('pdf', 'encrypted', 'it is protected by a password'))).toEqual({
      code: 'DOCUMENT_UNREADABLE',
      status: 422,
      message: 'The PDF document cannot be read: it is protected by a password',
      details: { documentType: 'pdf', reason: 'encrypted' },
    });
  });

  it('answers a document over a bound with 422 DOCUMENT_TOO_LARGE, naming the bound', () => {
    expect(mapped(new DocumentTooLarge('unzippedBytes', 1000, 'The DOCX document’s parts inflate to 5000 bytes, over the bound of 1000', 5000))).toMatchObject({
      code: 'DOCUMENT_TOO_LARGE',
      status: 422,
      details: { bound: 'unzippedBytes', limit: 1000, actual: 5000 },
    });
    expect(mapped(new DocumentTooLarge('memoryMb', 256, 'too big')).details).toEqual({ bound: 'memoryMb', limit: 256 });
  });

  it('answers a parse out of time with 422 DOCUMENT_TIMEOUT, not the 504 of a target that did not answer', () => {
    expect(mapped(new DocumentParseTimeout('docx', 30_000))).toEqual({
      code: 'DOCUMENT_TIMEOUT',
      status: 422,
      message: 'Reading the DOCX document took longer than 30000 ms and was stopped; ask for fewer pages, or a smaller document',
      details: { documentType: 'docx', timeoutMs: 30_000 },
    });
  });

  it('answers a page range past the end as a validation error on the range field', () => {
    const error = documentAppError(new PageRangeOutsideDocument(9, 4), ['document', 'firstPage']) as AppError;
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details).toEqual({
      name: 'ZodError',
      issues: [{ code: 'too_big', path: ['document', 'firstPage'], message: 'The page range starts at page 9, but the document has 4 pages' }],
    });
  });

  it('answers a caller who gave up as CLIENT_CLOSED_REQUEST, and leaves other errors alone', () => {
    expect(mapped(new DocumentReadAborted()).code).toBe('CLIENT_CLOSED_REQUEST');
    const bug = new TypeError('undefined is not a function');
    expect(documentAppError(bug)).toBe(bug);
  });
});
