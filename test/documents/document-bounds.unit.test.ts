import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DocumentParseTimeout, DocumentReadAborted, DocumentTooLarge } from '../../src/documents/document-errors.js';
import { createDocumentReader, readDocument } from '../../src/documents/read-document.js';
import { longestStall } from '../helpers/event-loop-watch.js';

/**
 * A document is parsed in a worker thread held to a deadline and a heap: a hostile file ends
 * in a typed error while this thread keeps answering. endless.pdf is 2.5 KB of forms drawing
 * forms, ten million words to lay out: its parse does not finish on any machine.
 */

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../fixtures/documents/${name}`, import.meta.url)));
const PDF = { kind: 'pdf' } as const;

describe('the parse deadline', () => {
  it('stops a parse that would not end, at its deadline, without stalling this thread', async () => {
    const { result: failure, longestGapMs, elapsedMs } = await longestStall(() => readDocument(fixture('endless.pdf'), PDF, { timeoutMs: 1_500 }).catch((error: unknown) => error));
    expect(failure).toBeInstanceOf(DocumentParseTimeout);
    expect(failure).toMatchObject({ kind: 'pdf', timeoutMs: 1_500 });
    expect((failure as Error).message).toBe('Reading the PDF document took longer than 1500 ms and was stopped; ask for fewer pages, or a smaller document');
    expect(elapsedMs).toBeGreaterThanOrEqual(1_500);
    expect(elapsedMs).toBeLessThan(4_000);
    // The parse ran for the whole 1.5 s; here the timers kept firing (a machine under load may hold a turn for a moment).
    expect(longestGapMs).toBeLessThan(750);
    // And the next document reads as ever.
    const next = await readDocument(fixture('report.pdf'), PDF);
    expect(next.title).toBe('Field Notes on Rivers');
  });

  it('stops the parse when the caller gives up, and does not start one for a caller already gone', async () => {
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(new Error('client closed')), 300);
    const failure = await readDocument(fixture('endless.pdf'), PDF, { signal: controller.signal }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DocumentReadAborted);
    expect(performance.now() - started).toBeLessThan(2_000);
    const early = await readDocument(fixture('report.pdf'), PDF, { signal: AbortSignal.abort() }).catch((error: unknown) => error);
    expect(early).toBeInstanceOf(DocumentReadAborted);
  });
});

describe('the memory bounds', () => {
  it('stops a parse that needs more heap than its bound', async () => {
    const failure = await readDocument(fixture('fifty-pages.pdf'), PDF, { maxHeapMb: 8 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DocumentTooLarge);
    expect(failure).toMatchObject({ bound: 'memoryMb', limit: 8, message: 'Reading the PDF document needed more than its 8 MB of memory' });
  });

  it('stops a PDF whose decoded data outside the heap passes its bound, between pages', async () => {
    const failure = await readDocument(fixture('fifty-pages.pdf'), PDF, { maxExternalMemoryMb: 1 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DocumentTooLarge);
    expect(failure).toMatchObject({ bound: 'memoryMb', limit: 1 });
    expect((failure as Error).message).toMatch(/^Reading the PDF document held \d+ MB of decoded data, over the bound of 1 MB$/);
  });

  it('refuses a body over the byte bound before parsing it', async () => {
    const body = fixture('report.pdf');
    const failure = await readDocument(body, PDF, { maxBytes: 1_000 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DocumentTooLarge);
    expect(failure).toMatchObject({ bound: 'bytes', limit: 1_000, actual: body.byteLength });
  });
});

describe('a reader with workers started ahead', () => {
  it('reads document after document, a stopped parse included, and reads on once closed', async () => {
    const reader = createDocumentReader();
    try {
      const first = await reader.read(fixture('report.pdf'), PDF);
      expect(first.title).toBe('Field Notes on Rivers');
      const stopped = await reader.read(fixture('endless.pdf'), PDF, { timeoutMs: 500 }).catch((error: unknown) => error);
      expect(stopped).toBeInstanceOf(DocumentParseTimeout);
      const docx = await reader.read(fixture('garden.docx'), { kind: 'docx' });
      expect(docx.title).toBe('Garden Review 2024');
      const again = await reader.read(fixture('office.pdf'), PDF, { pages: { first: 2 } });
      expect(again.pages).toEqual({ first: 2, last: 2, total: 2 });
      expect(again.markdown.endsWith('A second paragraph starts the second page.')).toBe(true);
      // A different heap bound is a different worker.
      const smallHeap = await reader.read(fixture('fifty-pages.pdf'), PDF, { maxHeapMb: 8 }).catch((error: unknown) => error);
      expect(smallHeap).toMatchObject({ name: 'DocumentTooLarge', bound: 'memoryMb', limit: 8 });
    } finally {
      await reader.close();
    }
    expect((await reader.read(fixture('report.pdf'), PDF)).title).toBe('Field Notes on Rivers');
  });
});
