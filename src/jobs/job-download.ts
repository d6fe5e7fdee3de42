import { Zip, ZipDeflate } from 'fflate';
import type { Caller } from '../accounts/caller.js';
import { withoutTrailingSlashes } from '../net/url-text.js';
import type { JobService } from './job.service.js';

/** Results read from the database per step of a download: the stream holds no more than this at once. */
const RESULTS_PER_STEP = 50;

export type DownloadFormat = 'jsonl' | 'zip';

type JobResult = Awaited<ReturnType<JobService['status']>>['results'][number];

/**
 * A job's results as a stream, read from the database a few at a time as the client takes
 * them, so a 10,000-page crawl downloads in bounded memory. JSON lines: one result per line as
 * GET /v1/jobs/{id} answers it. Zip: each page's markdown as a file named after its URL, and
 * `failed.jsonl` with the pages that failed (for a map, `urls.txt`).
 */
export function jobDownload(jobs: JobService, caller: Caller, id: string, format: DownloadFormat): ReadableStream<Uint8Array> {
  let cursor = 0;
  let done = false;
  const names: NameBook = { taken: new Set(), nextCopy: new Map() };
  const encoder = new TextEncoder();
  let zip: Zip | undefined;
  const failed: string[] = [];
  const urls: string[] = [];

  const nextResults = async (): Promise<JobResult[]> => {
    const page = await jobs.status(caller, id, cursor, RESULTS_PER_STEP);
    // What is recorded so far: a running job's later results are for a later download.
    done = page.results.length < RESULTS_PER_STEP || page.next === null;
    if (page.next !== null) cursor = Number(page.next);
    return page.results;
  };

  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (format !== 'zip') return;
      zip = new Zip((error, chunk) => (error ? controller.error(error) : controller.enqueue(chunk)));
    },
    async pull(controller) {
      const results = await nextResults();
      if (format === 'jsonl') {
        if (results.length > 0) controller.enqueue(encoder.encode(results.map((result) => `${JSON.stringify(result)}\n`).join('')));
      } else {
        for (const result of results) {
          const markdown = result.data?.markdown;
          if (result.status === 'failed') failed.push(JSON.stringify({ url: result.url, error: result.error }));
          else if (typeof markdown === 'string') {
            addFile(zip!, uniqueName(names, markdownFileName(result.url)), markdown);
            // Compression runs on the server's one thread: one page's (at most ANSWER_MAX_CHARS) at a
            // time, so another caller's request waits for one file, not for a step of 50.
            await new Promise((resolve) => setImmediate(resolve));
          } else urls.push(result.url);
        }
      }
      if (!done) return;
      if (zip) {
        if (failed.length > 0) addFile(zip, 'failed.jsonl', `${failed.join('\n')}\n`);
        if (urls.length > 0) addFile(zip, 'urls.txt', `${urls.join('\n')}\n`);
        zip.end();
      }
      controller.close();
    },
  });
}

function addFile(zip: Zip, name: string, text: string): void {
  const file = new ZipDeflate(name, { level: 6 });
  zip.add(file);
  file.push(new TextEncoder().encode(text), true);
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
