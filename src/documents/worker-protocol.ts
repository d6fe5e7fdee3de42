import { parentPort } from 'node:worker_threads';
import { DocumentTooLarge, DocumentUnreadable, PageRangeOutsideDocument, type DocumentBound, type UnreadableReason } from './document-errors.js';
import type { DocumentReading } from './reading.js';

/** What a document worker is sent (one message) and what it answers (one message). */

export type WorkerKind = 'pdf' | 'docx';

export interface WorkerRequest {
  kind: WorkerKind;
  body: Uint8Array;
  pages?: { first?: number; last?: number };
  maxPages?: number;
  maxExternalMemoryMb: number;
  maxUnzippedBytes: number;
}

export type WorkerAnswer = { ok: true; reading: DocumentReading } | { ok: false; error: WorkerError };

/** A typed error as plain data: classes do not cross a thread boundary. */
export type WorkerError =
  | { name: 'DocumentUnreadable'; kind: 'pdf' | 'docx'; reason: UnreadableReason; message: string }
  | { name: 'DocumentTooLarge'; bound: DocumentBound; limit: number; actual?: number; message: string }
  | { name: 'PageRangeOutsideDocument'; first: number; totalPages: number }
  | { name: 'Error'; message: string; stack?: string };

export function toWorkerError(error: unknown): WorkerError {
  if (error instanceof DocumentUnreadable) return { name: 'DocumentUnreadable', kind: error.kind, reason: error.reason, message: error.message };
  if (error instanceof DocumentTooLarge) return { name: 'DocumentTooLarge', bound: error.bound, limit: error.limit, actual: error.actual, message: error.message };
  if (error instanceof PageRangeOutsideDocument) return { name: 'PageRangeOutsideDocument', first: error.first, totalPages: error.totalPages };
  return { name: 'Error', message: error instanceof Error ? error.message : String(error), stack: error instanceof Error ? error.stack : undefined };
}

export function fromWorkerError(error: WorkerError): Error {
  switch (error.name) {
    case 'DocumentUnreadable': {
      const unreadable = new DocumentUnreadable(error.kind, error.reason, '');
      unreadable.message = error.message;
      return unreadable;
    }
    case 'DocumentTooLarge':
      return new DocumentTooLarge(error.bound, error.limit, error.message, error.actual);
    case 'PageRangeOutsideDocument':
      return new PageRangeOutsideDocument(error.first, error.totalPages);
    case 'Error': {
      const failure = new Error(`The document worker failed: ${error.message}`);
      if (error.stack) failure.stack = `${failure.stack}\nCaused in the worker by: ${error.stack}`;
      return failure;
    }
  }
}

/**
 * A worker's side: waits for one request, reads it with `read`, answers, and is done (the
 * thread that sent it terminates it). Messages sent before the worker listens are queued.
 */
export function serveOneRead(read: (request: WorkerRequest) => Promise<DocumentReading>): void {
  parentPort?.once('message', (request: WorkerRequest) => {
    read(request).then(
      (reading) => parentPort?.postMessage({ ok: true, reading } satisfies WorkerAnswer),
      (error: unknown) => parentPort?.postMessage({ ok: false, error: toWorkerError(error) } satisfies WorkerAnswer),
    );
  });
}
