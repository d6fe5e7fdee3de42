import { z } from 'zod';
import { positiveInt } from './env-values.js';
import type { PlanName } from './plans.js';
import { redisUrl } from './stores.js';

/** Batch, crawl and map jobs (src/jobs, docs/jobs.md). */
export const jobsSection = z
  .object({
    /**
     * Per plan: jobs queued or running at once, pages (or URLs) one job may hold, and pages all
     * of an account's jobs may load in an hour.
     */
    FREE_JOBS_AT_ONCE: positiveInt.max(1000).default(2),
    PRO_JOBS_AT_ONCE: positiveInt.max(1000).default(10),
    FREE_JOB_MAX_PAGES: positiveInt.max(1_000_000).default(500),
    PRO_JOB_MAX_PAGES: positiveInt.max(1_000_000).default(10_000),
    FREE_JOB_PAGES_PER_HOUR: positiveInt.max(10_000_000).default(1000),
    PRO_JOB_PAGES_PER_HOUR: positiveInt.max(10_000_000).default(20_000),
    /** Pages of one job loading at once (never more than the plan's concurrency less one, so single requests keep room). */
    JOB_CONCURRENCY: positiveInt.max(100).default(2),
    /** Pages of all jobs loading at once in this process: the rest of the browser pool stays for single requests. */
    JOBS_GLOBAL_CONCURRENCY: positiveInt.max(1000).default(4),
    JOB_PAGE_TIMEOUT_MS: positiveInt.max(600_000).default(90_000),
    /** Tries of a page whose failure may pass (overload, unreachable target, timeout). */
    JOB_PAGE_ATTEMPTS: positiveInt.max(10).default(3),
    JOB_RETRY_BASE_MS: positiveInt.max(600_000).default(1000),
    /** A running job's claim; renewed by its runner, taken over by another when it lapses (the runner died). */
    JOB_LEASE_SECONDS: positiveInt.max(3600).default(30),
    JOB_POLL_INTERVAL_MS: positiveInt.max(600_000).default(2000),
    /** Finished jobs and their results are kept this long. */
    JOB_RETENTION_HOURS: positiveInt.max(24 * 365).default(24 * 7),
    /** `off`: this process serves the routes but runs no jobs (another process does). */
    JOBS_RUNNER: z.enum(['embedded', 'off']).default('embedded'),
    /** How new jobs reach runners: the database poll alone, or also a BullMQ queue on Redis; `auto`: BullMQ with REDIS_URL. */
    JOBS_QUEUE: z.enum(['auto', 'database', 'bullmq']).default('auto'),
    /** Read here only to settle JOBS_QUEUE=auto (stores.ts reads it for Redis). */
    REDIS_URL: redisUrl,
    JOB_WEBHOOK_ATTEMPTS: positiveInt.max(20).default(5),
    JOB_WEBHOOK_TIMEOUT_MS: positiveInt.max(120_000).default(10_000),
    // Bytes of JSON. The upper bounds keep one result, and one answer, well under V8's largest
    // string (about 512 MB): past it a status answer could not be written at all.
    /** One status answer at most: results are paged by size as well as by count (a bigger result is answered alone, so paging moves on). */
    JOB_ANSWER_MAX_BYTES: positiveInt.min(1024).max(100_000_000).default(10_000_000),
    /** One page's result at most; a bigger one is not stored (RESULT_TOO_LARGE, not charged). */
    JOB_RESULT_MAX_BYTES: positiveInt.min(1024).max(200_000_000).default(30_000_000),
    /** All of one job's results at most; past it the job ends failed (JOB_RESULTS_TOO_LARGE). The running total lives in an integer column: at most 2^31 - 1 on PostgreSQL. */
    JOB_TOTAL_MAX_BYTES: positiveInt.min(1024).max(2_000_000_000).default(1_000_000_000),
  })
  .transform((e) => ({
    jobs: {
      plans: {
        free: { jobsAtOnce: e.FREE_JOBS_AT_ONCE, maxPages: e.FREE_JOB_MAX_PAGES, pagesPerHour: e.FREE_JOB_PAGES_PER_HOUR },
        pro: { jobsAtOnce: e.PRO_JOBS_AT_ONCE, maxPages: e.PRO_JOB_MAX_PAGES, pagesPerHour: e.PRO_JOB_PAGES_PER_HOUR },
      } satisfies Record<PlanName, unknown>,
      concurrency: e.JOB_CONCURRENCY,
      globalConcurrency: e.JOBS_GLOBAL_CONCURRENCY,
      pageTimeoutMs: e.JOB_PAGE_TIMEOUT_MS,
      pageAttempts: e.JOB_PAGE_ATTEMPTS,
      retryBaseMs: e.JOB_RETRY_BASE_MS,
      leaseSeconds: e.JOB_LEASE_SECONDS,
      pollIntervalMs: e.JOB_POLL_INTERVAL_MS,
      retentionHours: e.JOB_RETENTION_HOURS,
      runner: e.JOBS_RUNNER,
      queue: e.JOBS_QUEUE === 'auto' ? (e.REDIS_URL ? ('bullmq' as const) : ('database' as const)) : e.JOBS_QUEUE,
      webhookAttempts: e.JOB_WEBHOOK_ATTEMPTS,
      webhookTimeoutMs: e.JOB_WEBHOOK_TIMEOUT_MS,
      answerMaxBytes: e.JOB_ANSWER_MAX_BYTES,
      resultMaxBytes: e.JOB_RESULT_MAX_BYTES,
      totalMaxBytes: e.JOB_TOTAL_MAX_BYTES,
    },
  }));
