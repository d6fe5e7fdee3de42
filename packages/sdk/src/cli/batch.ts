import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PluckError } from '../errors.js';
import type { Pluck } from '../pluck.js';
import { type Command, type CommandRun, intOption, toJson, UsageError } from './command.js';
import { describeError, EXIT, type ExitCode, exitCodeFor, PAGE_HTTP_ERROR, pageStatusError } from './exit-codes.js';

/** What one URL of a batch gives: the file's content, its price, and the page's HTTP status when the answer says it. */
interface Fetched {
  content: Uint8Array | string;
  creditsCost: number;
  pageStatus?: number;
}

interface BatchFormat {
  extension: string;
  fetch(pluck: Pluck, url: string, signal: AbortSignal): Promise<Fetched>;
}

const FORMATS: Record<'markdown' | 'screenshot' | 'pdf', BatchFormat> = {
  markdown: {
    extension: 'md',
    async fetch(pluck, url, signal) {
      const { data, creditsCost } = await pluck.markdown({ url }, { signal });
      return { content: data.markdown, creditsCost, pageStatus: data.metadata.statusCode };
    },
  },
  screenshot: {
    extension: 'png',
    async fetch(pluck, url, signal) {
      const { bytes, creditsCost } = await pluck.screenshot({ url }, { signal });
      return { content: bytes, creditsCost };
    },
  },
  pdf: {
    extension: 'pdf',
    async fetch(pluck, url, signal) {
      const { bytes, creditsCost } = await pluck.pdf({ url }, { signal });
      return { content: bytes, creditsCost };
    },
  },
};

type Format = keyof typeof FORMATS;

/** Bounds on the list, so a wrong file (a log, a binary) is refused rather than read into memory. */
const MAX_LIST_BYTES = 5 * 1024 * 1024;
const MAX_URLS = 10_000;
const MAX_CONCURRENCY = 16;

interface Outcome {
  url: string;
  file?: string;
  creditsCost?: number;
  error?: { code: string; message: string; requestId?: string; exitCode: ExitCode };
  /** Not tried: an earlier answer said the key or the credits would refuse it too. */
  skipped?: boolean;
}

/** URLs from a list: one a line; blank lines and lines starting with # are left out. */
export async function readUrlList(path: string): Promise<string[]> {
  const size = (await stat(path).catch(() => { throw new UsageError(`cannot read ${path}`); })).size;
  if (size > MAX_LIST_BYTES) throw new UsageError(`${path} is larger than ${MAX_LIST_BYTES} bytes`);
  const urls = (await readFile(path, 'utf8')).split(/\r?\n/).map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
  if (urls.length === 0) throw new UsageError(`${path} lists no URLs`);
  if (urls.length > MAX_URLS) throw new UsageError(`${path} lists ${urls.length} URLs; split it (at most ${MAX_URLS})`);
  return urls;
}

/** `0007-example.com-docs-intro.md`: the line number keeps names unique and in list order. */
export function outputName(index: number, total: number, url: string, extension: string): string {
  const slug = url.replace(/^[a-z]+:\/\//i, '').replace(/[^a-z0-9.]+/gi, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'page';
  return `${String(index + 1).padStart(String(total).length, '0')}-${slug}.${extension}`;
}

/** An answer that every later request would get too: stop starting new ones. */
const stopsTheBatch = (exitCode: ExitCode) => exitCode === EXIT.AUTH || exitCode === EXIT.LIMITS;

/** One URL into `file`; a failure becomes the outcome's error, with the code it makes the CLI exit with. */
async function fetchOne(format: BatchFormat, url: string, file: string, { pluck, io, signal }: Pick<CommandRun, 'pluck' | 'io' | 'signal'>): Promise<Omit<Outcome, 'url'>> {
  try {
    const { content, creditsCost, pageStatus } = await format.fetch(pluck, url, signal());
    await io.writeFile(file, content);
    const failedPage = pageStatusError(pageStatus);
    return { file, creditsCost, ...(failedPage ? { error: { code: PAGE_HTTP_ERROR, message: failedPage, exitCode: EXIT.TARGET } } : {}) };
  } catch (error) {
    const requestId = error instanceof PluckError ? error.requestId : undefined;
    return {
      error: {
        code: error instanceof PluckError ? error.code : 'FAILED',
        message: describeError(error),
        ...(requestId ? { requestId } : {}),
        exitCode: exitCodeFor(error),
      },
    };
  }
}

async function runBatch({ pluck, io, values, args, signal }: CommandRun): Promise<ExitCode> {
  const formatName = (values.format as string | undefined) ?? 'markdown';
  if (!(formatName in FORMATS)) throw new UsageError(`--format is markdown, screenshot or pdf, not "${formatName}"`);
  const format = FORMATS[formatName as Format];
  const outDir = values.out as string | undefined;
  if (!outDir) throw new UsageError('give --out DIR: each page is written there');
  const concurrency = intOption(values, 'concurrency', 4, 1, MAX_CONCURRENCY);
  const urls = await readUrlList(args[0]!);
  await mkdir(outDir, { recursive: true });

  const outcomes: Outcome[] = urls.map((url) => ({ url }));
  let next = 0;
  let finished = 0;
  let stopped = false;
  const isDone = (outcome: Outcome) => Boolean(outcome.file && !outcome.error);
  const count = (predicate: (outcome: Outcome) => boolean) => outcomes.filter(predicate).length;
  const progress = () => {
    if (io.stderrIsTty) io.status(`[${finished}/${urls.length}] done ${count(isDone)}, failed ${count((o) => Boolean(o.error))}`);
  };

  const report = (line: string) => {
    if (io.stderrIsTty) io.status('');
    io.err(line);
  };

  async function worker() {
    while (!stopped && next < urls.length) {
      const index = next++;
      const outcome = outcomes[index]!;
      const file = join(outDir!, outputName(index, urls.length, outcome.url, format.extension));
      Object.assign(outcome, await fetchOne(format, outcome.url, file, { pluck, io, signal }));
      if (outcome.error) {
        report(`failed ${outcome.url}: ${outcome.error.message}${outcome.file ? ` (its content is in ${outcome.file})` : ''}`);
        if (stopsTheBatch(outcome.error.exitCode)) stopped = true;
      }
      finished += 1;
      progress();
    }
  }

  progress();
  await Promise.all(Array.from({ length: Math.min(concurrency, urls.length) }, worker));
  for (const outcome of outcomes) if (!outcome.file && !outcome.error) outcome.skipped = true;
  if (io.stderrIsTty) io.status('');

  const summary = {
    done: count(isDone),
    failed: count((o) => Boolean(o.error)),
    skipped: count((o) => Boolean(o.skipped)),
    credits: outcomes.reduce((sum, o) => sum + (o.creditsCost ?? 0), 0),
  };
  io.err(`done ${summary.done}, failed ${summary.failed}${summary.skipped ? `, skipped ${summary.skipped}` : ''}, credits ${summary.credits}`);
  if (values.json) io.out(toJson({ ...summary, results: outcomes }));
  // The first failure in list order names the kind, so the code does not depend on timing.
  const firstFailure = outcomes.find((o) => o.error);
  return firstFailure?.error ? firstFailure.error.exitCode : EXIT.OK;
}

export const batchCommand: Command = {
  summary: 'Many pages from a file of URLs (one a line) into a directory',
  args: ['FILE'],
  usage: '--out DIR [--format markdown|screenshot|pdf] [--concurrency N] [--json]',
  details: [
    '  --out DIR          Write one file per URL here: 01-example.com-path.md, ...',
    '  --format FORMAT    markdown (default), screenshot (PNG) or pdf.',
    `  --concurrency N    Requests at a time (1-${MAX_CONCURRENCY}, default 4).`,
    '  --json             Print the summary and each URL\'s outcome as JSON on stdout.',
    '',
    'A progress line is drawn on stderr when it is a terminal; a summary (done, failed, credits) is',
    'printed at the end. A page that answered an HTTP error (404, 500...) is written and counted as',
    'failed. Exits 0 when every URL was done, else with the code of the first failure',
    'in list order. A refused key or exhausted credits stop the batch (the rest count as skipped).',
  ].join('\n'),
  options: { out: { type: 'string' }, format: { type: 'string' }, concurrency: { type: 'string' } },
  run: runBatch,
};
