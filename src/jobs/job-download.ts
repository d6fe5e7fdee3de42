import { Zip, ZipDeflate } from 'fflate';
import { withoutTrailingSlashes } from '../net/url-text.js';
import type { JobResultReader } from './job-result-reader.js';
import { utf8 } from '../utf8-pieces.js';
import { resultEntryParts, type StoredResult } from './job-results.js';

/** Results read from the database per step of a download, at most... */
const RESULTS_PER_STEP = 50;
/** ...and at most this many bytes of them (one result bigger than that is read alone). */
const BYTES_PER_STEP = 4_000_000;
/** Rows without data (failed pages, a map's URLs) read per step of the zip's lists. */
const HEADS_PER_STEP = 500;
/** Bytes of a markdown file compressed before the server's one thread turns to other requests. */
const DEFLATE_SLICE_BYTES = 256 * 1024;

export type DownloadFormat = 'jsonl' | 'zip';

/**
 * A job's results as a stream that reads them from the database a few at a time as the client
 * takes them (ReadableStream pull: nothing is read while the client does not read), one result
 * per chunk, so a 10,000-page crawl of megabyte pages downloads in bounded memory. It holds the
 * results recorded when it started. JSON lines: one result per line as GET /v1/jobs/{id} answers
 * it. Zip: each page's markdown as a file named after its URL, `failed.jsonl` with the pages that
 * failed, and `urls.txt` with the pages without markdown (a map's URLs).
 */
export function jobDownload(reader: JobResultReader, format: DownloadFormat): ReadableStream<Uint8Array> {
  return format === 'jsonl' ? jsonLines(reader) : markdownZip(reader);
}

/** The results after each other, a step of them read whenever the last step has been sent. */
function resultsOf(reader: JobResultReader): () => Promise<StoredResult | undefined> {
  let after = 0;
  let done = false;
  let step: StoredResult[] = [];
  return async () => {
    if (step.length === 0 && !done) {
      const page = await reader.page(after, RESULTS_PER_STEP, BYTES_PER_STEP);
      step = page.results;
      done = !page.more;
      after = step.at(-1)?.ordinal ?? after;
    }
    return step.shift();
  };
}

function jsonLines(reader: JobResultReader): ReadableStream<Uint8Array> {
  const next = resultsOf(reader);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const result = await next();
      if (result) controller.enqueue(utf8([...resultEntryParts(result), '\n']));
      else controller.close();
    },
  });
}

/**
 * Three passes over the results, each in keyset steps: the markdown files, then `failed.jsonl`,
 * then `urls.txt`. A zip holds one file after the other, so the lists are written after the
 * markdown rather than gathered in memory while it is written; of the pages without markdown only
 * their ordinals are kept in between.
 */
function markdownZip(reader: JobResultReader): ReadableStream<Uint8Array> {
  const next = resultsOf(reader);
  const names: NameBook = { taken: new Set(), nextCopy: new Map() };
  const withoutMarkdown: number[] = [];
  let zip: Zip;
  let sent = 0;
  let phase: 'markdown' | 'failed' | 'urls' | 'end' = 'markdown';
  let list: ListWriter | undefined;

  /** One step of the current pass: one result's file, or one step of a list. */
  const step = async (): Promise<void> => {
    if (phase === 'markdown') {
      const result = await next();
      if (!result) phase = 'failed';
      else if (result.status === 'completed') {
        const markdown = result.data === null ? undefined : (JSON.parse(result.data) as { markdown?: unknown }).markdown;
        if (typeof markdown === 'string') await addFile(zip, uniqueName(names, markdownFileName(result.url)), markdown);
        else withoutMarkdown.push(result.ordinal);
      }
    } else if (phase === 'failed') {
      list ??= new ListWriter(zip, 'failed.jsonl');
      const rows = await reader.heads(list.after, HEADS_PER_STEP, 'failed');
      list.write(rows.map((row) => JSON.stringify({ url: row.url, ...(row.error_code ? { error: { code: row.error_code, message: row.error_message ?? '' } } : {}) })), rows.at(-1)?.ordinal);
      if (rows.length < HEADS_PER_STEP) {
        list.end();
        list = undefined;
        phase = 'urls';
      }
    } else if (phase === 'urls') {
      list ??= new ListWriter(zip, 'urls.txt');
      const rows = await reader.heads(list.after, HEADS_PER_STEP, 'completed');
      list.write(rows.filter((row) => isListed(withoutMarkdown, row.ordinal)).map((row) => row.url), rows.at(-1)?.ordinal);
      if (rows.length < HEADS_PER_STEP) {
        list.end();
        phase = 'end';
        zip.end();
      }
    }
  };

  return new ReadableStream<Uint8Array>({
    start(controller) {
      zip = new Zip((error, chunk, final) => {
        if (error) return controller.error(error);
        sent += 1;
        controller.enqueue(chunk);
        if (final) controller.close();
      });
    },
    async pull() {
      // A pull that enqueues nothing is not called again: steps go on until the zip gives bytes
      // (a failed page, or a list the compressor still buffers, gives none).
      for (const before = sent; sent === before && phase !== 'end'; ) await step();
    },
  });
}

/** A file of lines in the zip, added once it has its first line (an empty list is no file). */
class ListWriter {
  private file: ZipDeflate | undefined;
  /** The ordinal of the last row read. */
  after = 0;

  constructor(
    private readonly zip: Zip,
    private readonly name: string,
  ) {}

  write(lines: string[], lastOrdinal: number | undefined): void {
    if (lastOrdinal !== undefined) this.after = lastOrdinal;
    if (lines.length === 0) return;
    if (!this.file) {
      this.file = new ZipDeflate(this.name, { level: 6 });
      this.zip.add(this.file);
    }
    this.file.push(new TextEncoder().encode(`${lines.join('\n')}\n`), false);
  }

  end(): void {
    this.file?.push(new Uint8Array(0), true);
  }
}

/** `ordinals` ascending: binary search. */
function isListed(ordinals: number[], ordinal: number): boolean {
  let low = 0;
  let high = ordinals.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (ordinals[middle] === ordinal) return true;
    if (ordinals[middle]! < ordinal) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/**
 * Compression runs on the server's one thread: a file of megabytes is compressed a slice at a
 * time, so another caller's request waits for a slice, not for a whole page.
 */
async function addFile(zip: Zip, name: string, text: string): Promise<void> {
  const file = new ZipDeflate(name, { level: 6 });
  zip.add(file);
  const bytes = new TextEncoder().encode(text);
  for (let start = 0; ; start += DEFLATE_SLICE_BYTES) {
    const end = Math.min(start + DEFLATE_SLICE_BYTES, bytes.length);
    file.push(bytes.subarray(start, end), end === bytes.length);
    if (end === bytes.length) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** `example.com/docs/intro.md` from a page URL: host and path, safe on every file system, at most 150 characters. */
export function markdownFileName(url: string): string {
  const { hostname, pathname, search } = new URL(url);
  const path = withoutTrailingSlashes(`${pathname}${search}`) || '/index';
  const safe = `${hostname}${path}`.replace(/[^A-Za-z0-9._/-]+/g, '_').replace(/\/+/g, '/').replace(/(^|\/)\.+/g, '$1_');
  return `${safe.slice(0, 150)}.md`;
}

/** File names given so far, and per name the next copy number to try. */
export interface NameBook {
  taken: Set<string>;
  nextCopy: Map<string, number>;
}

/**
 * `name`, or `name-2.md`, `-3`... when taken. The next copy number is kept per name: counting up
 * from 2 each time took quadratic time when a site's 5,000 URLs share their first 150
 * characters (15 s on the server's thread).
 */
export function uniqueName(book: NameBook, name: string): string {
  let copy = book.nextCopy.get(name) ?? 2;
  let candidate = name;
  while (book.taken.has(candidate)) candidate = name.replace(/\.md$/, `-${copy++}.md`);
  book.nextCopy.set(name, copy);
  book.taken.add(candidate);
  return candidate;
}
