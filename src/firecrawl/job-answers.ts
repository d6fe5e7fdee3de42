import type { Caller } from '../accounts/caller.js';
import { AppError, type ErrorCode } from '../errors/app-error.js';
import { ERROR_STATUS } from '../http/error-status.js';
import type { JobRow } from '../jobs/job-store.js';
import type { CrawlSpec, JobOptions } from '../jobs/job-options.js';
import type { PageAnswer } from '../web/page-answer.js';
import { type FirecrawlDocument, firecrawlDocument } from './document.js';
import type { FirecrawlVersion } from './scrape-request.js';
import type { Platform } from '../platform.js';
import type { JobServices } from '../jobs/job-services.js';

/** Results read for one status answer; Firecrawl's own page is about this size. */
export const STATUS_PAGE_SIZE = 100;
/** Bytes of a status answer besides its documents: counters, expiry, the `next` URL (up to PUBLIC_BASE_URL's length). */
const STATUS_FIELDS_BYTES = 1024;
/** Results read from the database at once while filling a status answer (each may be megabytes). */
const STATUS_READ_CHUNK = 5;
/** Failed pages listed by an errors answer at most. */
const MAX_ERRORS = 1000;
/** How often POST /map looks at its job while waiting for it. */
const MAP_POLL_MS = 150;
/** URLs read from the map's results per query. */
const MAP_READ_SIZE = 5000;

export type FirecrawlJobStatus = 'scraping' | 'completed' | 'failed' | 'cancelled';
/** Which job routes a status answer is for: its `next` URL points back at the same route. */
export type JobPath = 'crawl' | 'batch/scrape';

/** Pluck's job status as Firecrawl names it: a queued job is already "scraping" there. */
export function firecrawlStatus(status: JobRow['status']): FirecrawlJobStatus {
  return status === 'queued' || status === 'active' ? 'scraping' : status;
}

/** The Firecrawl routes show crawl and batch jobs (v1 SDKs poll /v1/crawl/{id} for a batch too); a map job is not theirs. */
function assertScrapingJob(job: JobRow): void {
  if (job.kind === 'map') throw new AppError('NOT_FOUND', 'Job not found');
}

/** What these functions use of the running service. */
type Services = Pick<Platform, 'config'> & Pick<JobServices, 'jobs'>;

/** The caller's crawl or batch (404 for anyone else's, and for a map). */
export async function ownScrapingJob(ctx: Services, caller: Caller, id: string): Promise<JobRow> {
  const job = await ctx.jobs.row(caller, id);
  assertScrapingJob(job);
  return job;
}

/**
 * A crawl or batch status in Firecrawl's shape: counters, and the documents of the results after
 * `skip` (a result's number: results are numbered in the order pages finish). `next` is present
 * only while more results are already recorded, so the SDKs' "fetch every page" loops end; a
 * running job is polled again for its later pages. Failed pages are counted in `completed`
 * (so it reaches `total`) and listed by the errors route, not in `data`. The answer holds at most
 * JOB_ANSWER_MAX_BYTES of JSON (Firecrawl's own cap is 10 MB), a bigger document alone.
 */
export async function statusAnswer(ctx: Services, caller: Caller, id: string, skip: number, limit: number, where: { version: FirecrawlVersion; path: JobPath; askedLimit?: number }) {
  const { job, reader } = await ctx.jobs.results(caller, id);
  assertScrapingJob(job);
  const extractionFields: Array<'json' | 'extract'> = where.version === 'v1' ? ['json', 'extract'] : ['json'];
  const budget = ctx.config.jobs.answerMaxBytes - STATUS_FIELDS_BYTES;
  const data: FirecrawlDocument[] = [];
  let bytes = 0;
  let read = 0;
  let lastOrdinal = skip;
  let more = false;
  // A few results at a time, chosen by their stored sizes before their data is loaded: a page may
  // be megabytes, and only the documents under the budget are kept.
  reading: while (read < limit) {
    const page = await reader.page(lastOrdinal, Math.min(STATUS_READ_CHUNK, limit - read), budget - bytes);
    for (const row of page.results) {
      if (row.status === 'completed' && row.data) {
        const document = firecrawlDocument(JSON.parse(row.data) as PageAnswer, extractionFields, { creditsUsed: row.credits });
        const size = Buffer.byteLength(JSON.stringify(document)) + 1;
        if (data.length > 0 && bytes + size > budget) {
          more = true;
          break reading;
        }
        bytes += size;
        data.push(document);
      }
      lastOrdinal = row.ordinal;
      read += 1;
    }
    more = page.more;
    if (!page.more) break;
  }
  return {
    success: true as const,
    status: firecrawlStatus(job.status),
    total: job.total,
    completed: job.completed + job.failed,
    creditsUsed: job.credits_used,
    expiresAt: expiresAt(ctx, job),
    ...(more ? { next: `${ctx.config.publicBaseUrl}/${where.version}/${where.path}/${id}?skip=${lastOrdinal}${where.askedLimit ? `&limit=${where.askedLimit}` : ''}` } : {}),
    data,
  };
}

/** A finished job's expiry; a running one's is retention after now (it only moves later). */
function expiresAt(ctx: Services, job: JobRow): string {
  return job.expires_at ?? new Date(Date.now() + ctx.config.jobs.retentionHours * 3_600_000).toISOString();
}

/** The failed pages of a crawl or batch, as Firecrawl's errors route answers them. robots.txt exclusions are not recorded (robotsBlocked is empty). */
export async function errorsAnswer(ctx: Services, caller: Caller, id: string) {
  const { job, rows } = await ctx.jobs.failures(caller, id, MAX_ERRORS);
  assertScrapingJob(job);
  return {
    success: true as const,
    errors: rows.map((row) => ({
      id: `${id}-${row.ordinal}`,
      timestamp: row.created_at,
      url: row.url,
      code: row.error_code ?? 'INTERNAL_ERROR',
      error: row.error_message ?? '',
    })),
    robotsBlocked: [] as string[],
  };
}

/** The caller's running crawls, as Firecrawl's active-crawls route lists them. */
export async function activeCrawls(ctx: Services, caller: Caller) {
  const jobs = await ctx.jobs.open(caller, 'crawl', 100);
  return {
    success: true as const,
    crawls: jobs.map((job) => {
      const options = JSON.parse(job.options) as JobOptions;
      const crawl = (options as { crawl?: CrawlSpec }).crawl;
      return { id: job.id, teamId: job.user_id, url: crawl?.url ?? '', options: crawl ?? null };
    }),
  };
}

/**
 * Waits for a map job and reads its URLs. Past `timeoutMs` the job is cancelled and the request
 * answers TARGET_TIMEOUT (408 here); a failed map answers its own error.
 */
export async function awaitMap(ctx: Services, caller: Caller, id: string, timeoutMs: number): Promise<{ urls: string[]; creditsUsed: number }> {
  const deadline = Date.now() + timeoutMs;
  let job = await ctx.jobs.row(caller, id);
  while (job.status === 'queued' || job.status === 'active') {
    if (caller.signal?.aborted) {
      // The caller is gone: nobody will read this map.
      await ctx.jobs.cancel(caller, id);
      throw new AppError('CLIENT_CLOSED_REQUEST', 'The client closed the request before the map finished');
    }
    if (Date.now() >= deadline) {
      await ctx.jobs.cancel(caller, id);
      throw new AppError('TARGET_TIMEOUT', `The map did not finish within ${timeoutMs} ms; raise timeout or lower limit`);
    }
    await new Promise((resolve) => setTimeout(resolve, MAP_POLL_MS));
    job = await ctx.jobs.row(caller, id);
  }
  if (job.status !== 'completed') {
    const code = job.error_code && job.error_code in ERROR_STATUS ? (job.error_code as ErrorCode) : 'INTERNAL_ERROR';
    throw new AppError(code, job.error_message ?? `The map ended ${job.status}`);
  }
  const urls: string[] = [];
  const { reader } = await ctx.jobs.results(caller, id);
  for (let after = 0; ; ) {
    const rows = await reader.heads(after, MAP_READ_SIZE, 'completed');
    urls.push(...rows.map((row) => row.url));
    if (rows.length < MAP_READ_SIZE) break;
    after = rows.at(-1)!.ordinal;
  }
  return { urls, creditsUsed: job.credits_used };
}
