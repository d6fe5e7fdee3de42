import { randomBytes, randomUUID } from 'node:crypto';
import type { Caller } from '../accounts/caller.js';
import { withAppErrors } from '../browser/errors.js';
import type { Config } from '../config.js';
import { AppError, notFound } from '../errors/app-error.js';
import { validationError } from '../errors/validation-error.js';
import type { AddressPolicy } from '../net/address-policy.js';
import { normaliseUrl, urlKey } from './crawl-urls.js';
import type { CrawlSpec, JobEvent, JobOptions, ScrapeSpec, WebhookTarget } from './job-options.js';
import { JobResultReader } from './job-result-reader.js';
import { resultEntry, type StoredResult, statusDataParts } from './job-results.js';
import type { JobRow, JobStore, NewTask } from './job-store.js';

export interface WebhookRequest {
  url: string;
  secret?: string;
  events: JobEvent[];
}

/** A result as GET /v1/jobs/{id} answers it. */
export interface JobResultEntry {
  url: string;
  status: 'completed' | 'failed';
  data?: Record<string, unknown>;
  error?: { code: string; message: string };
  creditsCost: number;
}

/** A crawl or map as asked: without a limit, the plan's pages per job. */
export type CrawlRequest = Omit<CrawlSpec, 'limit'> & { limit?: number };

/** A job as the API shows it. */
export function jobView(job: JobRow) {
  const webhook = job.webhook ? (JSON.parse(job.webhook) as WebhookTarget) : undefined;
  return {
    id: job.id,
    kind: job.kind,
    status: job.status,
    progress: { total: job.total, completed: job.completed, failed: job.failed },
    creditsUsed: job.credits_used,
    createdAt: job.created_at,
    startedAt: job.started_at,
    finishedAt: job.finished_at,
    expiresAt: job.expires_at,
    ...(job.error_code ? { error: { code: job.error_code, message: job.error_message ?? '' } } : {}),
    ...(webhook ? { webhook: { url: webhook.url, events: webhook.events } } : {}),
  };
}

const OPEN = new Set(['queued', 'active']);
const DEFAULT_MAP_LIMIT = 5000;
/**
 * Bytes of a status answer around its results: the success envelope (request id, timestamp,
 * credits) and the `results` and `next` keys. The job's own fields are measured each time.
 */
const STATUS_ENVELOPE_BYTES = 256;

/** A status answer before it is written: the job, its results with their data's JSON text, the cursor. */
export interface StatusPage {
  job: ReturnType<typeof jobView>;
  results: StoredResult[];
  next: string | null;
}

/**
 * Batch, crawl and map jobs for their owners: creation within the plan's limits, status with
 * paged results, listing and cancelling. Runners (job-runner.ts) do the work.
 */
export class JobService {
  constructor(
    private readonly store: JobStore,
    private readonly policy: AddressPolicy,
    private readonly config: Config,
    /** Announces a new job to the runners (this process's, and through the queue, others'). */
    private readonly announce: (jobId: string) => void,
  ) {}

  async batch(caller: Caller, urls: string[], scrape: ScrapeSpec, webhook?: WebhookRequest) {
    this.checkPages(caller, urls.length, ['urls']);
    const tasks: NewTask[] = [];
    const seen = new Set<string>();
    for (const url of urls) {
      const key = urlKey(normaliseUrl(url) ?? url);
      if (seen.has(key)) continue;
      seen.add(key);
      tasks.push({ url, urlKey: key, depth: 0 });
    }
    return this.create(caller, { kind: 'batch', scrape }, tasks, webhook);
  }

  async crawl(caller: Caller, request: CrawlRequest, scrape: ScrapeSpec, webhook?: WebhookRequest) {
    const limit = request.limit ?? this.maxPages(caller);
    this.checkPages(caller, limit, ['limit']);
    await this.checkStart(request.url);
    return this.create(caller, { kind: 'crawl', crawl: { ...request, limit }, scrape }, [], webhook);
  }

  /** A map loads one page whatever its limit: its URLs are bounded by the route (MAX_MAP_LIMIT), not by the plan's pages. */
  async map(caller: Caller, request: CrawlRequest, webhook?: WebhookRequest) {
    await this.checkStart(request.url);
    return this.create(caller, { kind: 'map', crawl: { ...request, limit: request.limit ?? DEFAULT_MAP_LIMIT } }, [], webhook);
  }

  /**
   * The caller's job and a page of its results after `cursor` (404 for anyone else's): at most
   * `limit` results, and at most JOB_ANSWER_MAX_BYTES for the whole answer, the envelope included
   * (a bigger result is answered alone). `next` is set while more are recorded or the job runs.
   */
  async statusPage(caller: Caller, id: string, cursor: number, limit: number): Promise<StatusPage> {
    const job = await this.own(caller, id);
    const view = jobView(job);
    const budget = this.config.jobs.answerMaxBytes - Buffer.byteLength(JSON.stringify(view)) - STATUS_ENVELOPE_BYTES;
    const { results, more } = await new JobResultReader(this.store, id).page(cursor, limit, budget);
    const last = results.at(-1)?.ordinal ?? cursor;
    return { job: view, results, next: more || OPEN.has(job.status) ? String(last) : null };
  }

  /** The status answer's `data` as pieces of JSON text: the results' stored JSON spliced in, never parsed. */
  async statusJsonParts(caller: Caller, id: string, cursor: number, limit: number): Promise<string[]> {
    const { job, results, next } = await this.statusPage(caller, id, cursor, limit);
    return statusDataParts(job, results, next);
  }

  /** The status answer as objects, for callers that answer in another form (the MCP tools). */
  async status(caller: Caller, id: string, cursor: number, limit: number) {
    const { job, results, next } = await this.statusPage(caller, id, cursor, limit);
    return { ...job, results: results.map((result) => JSON.parse(resultEntry(result)) as JobResultEntry), next };
  }

  /** The caller's job row as stored (404 for anyone else's). */
  async row(caller: Caller, id: string): Promise<JobRow> {
    return this.own(caller, id);
  }

  /**
   * The caller's job row and a reader of its results recorded so far, for downloads and for
   * adapters that answer in another shape (src/firecrawl/); 404 for anyone else's.
   */
  async results(caller: Caller, id: string): Promise<{ job: JobRow; reader: JobResultReader }> {
    const job = await this.own(caller, id);
    return { job, reader: new JobResultReader(this.store, id, await this.store.maxOrdinal(id)) };
  }

  /** The caller's job row and up to `limit` of its failed results (without data). */
  async failures(caller: Caller, id: string, limit: number) {
    const job = await this.own(caller, id);
    return { job, rows: await this.store.failedResults(id, limit) };
  }

  /** The caller's queued and running jobs of one kind, oldest first, with their options. */
  async open(caller: Caller, kind: JobRow['kind'], limit: number): Promise<JobRow[]> {
    return this.store.openJobs(caller.principal.userId, kind, limit);
  }

  async list(caller: Caller, limit: number, cursor?: string) {
    const before = cursor ? decodeListCursor(cursor) : undefined;
    const rows = await this.store.list(caller.principal.userId, limit, before);
    const last = rows.at(-1);
    return {
      jobs: rows.map(jobView),
      next: rows.length === limit && last ? Buffer.from(`${last.created_at}|${last.id}`).toString('base64url') : null,
    };
  }

  /** Cancels the caller's open job; a finished one is answered as it is. */
  async cancel(caller: Caller, id: string) {
    await this.own(caller, id);
    const now = new Date();
    await this.store.cancel(id, caller.principal.userId, now.toISOString(), this.expiry(now));
    return jobView(await this.own(caller, id));
  }

  private async create(caller: Caller, options: JobOptions, tasks: NewTask[], webhookRequest?: WebhookRequest) {
    const { userId, user } = caller.principal;
    const limit = this.config.jobs.plans[user.plan].jobsAtOnce;
    let webhook: WebhookTarget | undefined;
    if (webhookRequest) {
      await withAppErrors(() => this.policy.check(webhookRequest.url));
      webhook = { url: webhookRequest.url, secret: webhookRequest.secret ?? `whsec_${randomBytes(24).toString('base64url')}`, events: webhookRequest.events };
    }
    // Counted before writing, so two requests at the same moment may both pass: the bound is
    // about fairness, and one job over it harms no one.
    if ((await this.store.countOpen(userId)) >= limit) {
      throw new AppError('JOB_LIMIT_REACHED', `At most ${limit} jobs may be queued or running at once on your plan; wait for one to finish or cancel one`, {
        retryAfterSeconds: 10,
        details: { limit },
      });
    }
    const id = randomUUID();
    await this.store.create(
      { id, user_id: userId, kind: options.kind, options: JSON.stringify(options), webhook: webhook ? JSON.stringify(webhook) : null, created_at: new Date().toISOString() },
      tasks,
    );
    this.announce(id);
    const job = (await this.store.find(id))!;
    // The secret is shown once, here: the caller needs it to verify the events.
    return { ...jobView(job), ...(webhook ? { webhook: { url: webhook.url, events: webhook.events, secret: webhook.secret } } : {}) };
  }

  private maxPages(caller: Caller): number {
    return this.config.jobs.plans[caller.principal.user.plan].maxPages;
  }

  private checkPages(caller: Caller, pages: number, path: string[]): void {
    const { plan } = caller.principal.user;
    const max = this.maxPages(caller);
    if (pages > max) throw validationError([{ code: 'too_big', path, message: `At most ${max} pages per job on the ${plan} plan` }]);
  }

  /** A start URL the egress policy refuses is refused now (400), not after the job is queued. */
  private async checkStart(url: string): Promise<void> {
    await withAppErrors(() => this.policy.check(url));
  }

  private async own(caller: Caller, id: string): Promise<JobRow> {
    const job = await this.store.find(id, caller.principal.userId);
    if (!job) throw notFound('Job');
    return job;
  }

  private expiry(now: Date): string {
    return new Date(now.getTime() + this.config.jobs.retentionHours * 3_600_000).toISOString();
  }
}

function decodeListCursor(cursor: string): { createdAt: string; id: string } {
  const [createdAt, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!createdAt || !id) throw validationError([{ code: 'custom', path: ['cursor'], message: 'Invalid cursor' }]);
  return { createdAt, id };
}
