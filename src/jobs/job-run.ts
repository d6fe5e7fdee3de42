import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Caller } from '../accounts/caller.js';
import type { Principal } from '../auth/principal.js';
import type { Config, JobsConfig } from '../config.js';
import { AppError } from '../errors/app-error.js';
import { EventLoopSlices } from '../event-loop.js';
import type { AddressPolicy } from '../net/address-policy.js';
import { AddressNotAllowed } from '../net/errors.js';
import { actionListDeadlineMs } from '../web/actions/action-list.js';
import type { OutputRequest } from '../web/outputs.js';
import type { PageOperations } from '../web/page-operations.js';
import { pageAnswer } from '../web/page-answer.js';
import { compilePatterns, isInScope, normaliseUrl, type ScopeRules, siteOf, urlKey } from './crawl-urls.js';
import type { CrawlSpec, JobEvent, JobOptions, ScrapeSpec } from './job-options.js';
import { type JobRow, type JobStore, LeaseLost, type NewResult, type NewTask, type PageOutcome, type RecordedPage } from './job-store.js';
import { JOB_RESULTS_TOO_LARGE } from './job-results.js';
import { ALLOW_EVERYTHING, type RobotsRules } from './robots.js';
import type { SiteDiscovery } from './site-discovery.js';
import type { Semaphore } from './semaphore.js';
import { pause } from './pause.js';

/** Failures that may pass on their own: tried again, after a growing pause. */
const TRANSIENT = new Set(['SERVICE_OVERLOADED', 'SERVICE_UNAVAILABLE', 'CONCURRENCY_LIMIT_EXCEEDED', 'TARGET_UNREACHABLE', 'TARGET_CRASHED']);
/** Failures that end the whole job: no later page can do better. */
const FATAL = new Set(['INSUFFICIENT_CREDITS']);
/** Pause before asking again for one of the owner's concurrency slots (a slot frees as soon as any request ends). */
const SLOT_WAIT_MS = 250;
/** How often a job over its account's pages-per-hour budget looks again. */
const BUDGET_WAIT_MS = 5000;
const HOUR_MS = 3_600_000;
/** Origins whose robots.txt one job keeps in memory. */
const MAX_ROBOTS_ORIGINS = 100;

export interface JobRunDeps {
  store: JobStore;
  pages: PageOperations;
  policy: AddressPolicy;
  discovery: SiteDiscovery;
  config: JobsConfig;
  /** The plans' concurrency slots: a job leaves one of its owner's free for their own requests. */
  plans: Config['plans'];
  /** Pages of all jobs at once in this process. */
  pageSlots: Semaphore;
  /** A job event (the webhook sender, when the job has one). */
  emit: (job: JobRow, event: JobEvent, data: Record<string, unknown>) => void;
  now: () => Date;
}

/** A job ends its run with one of these; `released` means another run will take it up (lost lease, shutdown). */
export type RunEnd = { status: 'completed' } | { status: 'failed'; code: string; message: string } | { status: 'released' };

class JobFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * One claimed job, run to its end (or until its lease is lost): seeds a crawl, then loads its
 * queued URLs through the page pipeline, a few at a time, recording each result and the links it
 * leads to. Every write checks the lease, so a job taken over by another runner is never written
 * by two.
 */
export class JobRun {
  private readonly options: JobOptions;
  private readonly log: Logger;
  private known = new Set<string>();
  private nextSeq = 0;
  private ordinal = 0;
  private readonly robots = new Map<string, Promise<RobotsRules>>();
  private readonly refusedHosts = new Map<string, Promise<string | undefined>>();
  private fatal: JobFailure | undefined;
  /** Pages of this run past the hourly budget check and not yet recorded: counted against the budget too. */
  private pagesUnrecorded = 0;
  /** Per host, the turn of the last page queued there (a crawl's politeness delay): each page waits for the one before. */
  private readonly hostTurns = new Map<string, Promise<void>>();

  constructor(
    private readonly deps: JobRunDeps,
    private readonly job: JobRow,
    private readonly owner: string,
    private readonly principal: Principal,
    private readonly signal: AbortSignal,
    log: Logger,
  ) {
    this.options = JSON.parse(job.options) as JobOptions;
    this.log = log.child({ jobId: job.id, kind: job.kind });
  }

  async execute(): Promise<RunEnd> {
    try {
      if (!this.job.started_at) {
        await this.deps.store.markStarted(this.job.id, this.owner, this.iso());
        this.deps.emit(this.job, 'started', {});
      }
      if (this.options.kind === 'map') await this.map(this.options.crawl);
      else await this.loadAll(this.options);
      if (this.signal.aborted) return { status: 'released' };
      if (this.fatal) return { status: 'failed', code: this.fatal.code, message: this.fatal.message };
      return { status: 'completed' };
    } catch (error) {
      if (error instanceof LeaseLost || this.signal.aborted) return { status: 'released' };
      if (error instanceof JobFailure) return { status: 'failed', code: error.code, message: error.message };
      if (error instanceof AppError && !TRANSIENT.has(error.code)) return { status: 'failed', code: error.code, message: error.message };
      throw error;
    }
  }

  private async loadAll(options: Extract<JobOptions, { kind: 'batch' | 'crawl' }>): Promise<void> {
    const { store } = this.deps;
    ({ keys: this.known, nextSeq: this.nextSeq } = await store.taskKeys(this.job.id));
    this.ordinal = await store.maxOrdinal(this.job.id);
    if (options.kind === 'crawl' && !this.job.seeded) await this.seed(options.crawl);
    const ownerSlots = this.deps.plans[this.principal.user.plan].concurrency;
    const perJob = Math.max(1, Math.min(this.deps.config.concurrency, ownerSlots - 1));
    const buffer: Array<{ seq: number; url: string; depth: number }> = [];
    const inFlight = new Set<Promise<void>>();
    let cursor = -1;
    while (!this.signal.aborted && !this.fatal) {
      while (inFlight.size < perJob) {
        if (buffer.length === 0) {
          const more = await store.queuedTasks(this.job.id, cursor, 50);
          if (more.length > 0) cursor = more[more.length - 1]!.seq;
          buffer.push(...more);
        }
        const task = buffer.shift();
        if (!task) break;
        const running: Promise<void> = this.loadTask(options, task).finally(() => inFlight.delete(running));
        inFlight.add(running);
      }
      if (inFlight.size === 0) break;
      await Promise.race(inFlight);
    }
    await Promise.allSettled(inFlight);
  }

  /** A crawl's start URL and (unless skipped) its sitemap URLs: the first tasks. */
  private async seed(crawl: CrawlSpec): Promise<void> {
    const start = normaliseUrl(crawl.url)!;
    const discovered: NewTask[] = [];
    const refused: NewResult[] = [];
    this.known.add(urlKey(start));
    discovered.push({ url: start, urlKey: urlKey(start), depth: 0 });
    if (crawl.sitemap !== 'skip' && crawl.maxDepth >= 1) {
      const origin = new URL(start).origin;
      const robots = await this.robotsOf(origin, true);
      const found = await this.deps.discovery.sitemapUrls(origin, robots, crawl.limit * 2, this.signal);
      await this.consider(found, 1, crawl, discovered, refused);
    }
    await this.write({ results: refused, discovered, seeded: true });
  }

  private async loadTask(options: Extract<JobOptions, { kind: 'batch' | 'crawl' }>, task: { seq: number; url: string; depth: number }): Promise<void> {
    let counted = false;
    try {
      await this.withinHourlyBudget();
      this.pagesUnrecorded += 1;
      counted = true;
      const endTurn = await this.hostTurn(task.url, options.kind === 'crawl' ? (options.crawl.delayMs ?? 0) : 0);
      let loaded: Awaited<ReturnType<JobRun['loadPage']>>;
      try {
        if (this.signal.aborted) return;
        const release = await this.deps.pageSlots.acquire(this.signal);
        try {
          loaded = await this.loadPage(options.scrape, task, options.kind === 'crawl');
        } finally {
          release();
        }
      } finally {
        endTurn();
      }
      const discovered: NewTask[] = [];
      const refused: NewResult[] = [];
      if (options.kind === 'crawl' && loaded.links && task.depth < options.crawl.maxDepth && options.crawl.sitemap !== 'only') {
        if (loaded.finalUrl) this.known.add(urlKey(loaded.finalUrl));
        await this.consider(loaded.links, task.depth + 1, options.crawl, discovered, refused);
      }
      const recorded = await this.write({ taskSeq: task.seq, attempt: loaded.attempt, results: [loaded.result, ...refused], discovered });
      const { status, errorCode, errorMessage } = recorded.result ?? loaded.result;
      this.deps.emit(this.job, 'page', { url: task.url, status, creditsCost: recorded.credits, ...(errorCode ? { error: { code: errorCode, message: errorMessage } } : {}) });
      // The job's results are as big as it may store: later pages would be loaded for nothing.
      if (errorCode === JOB_RESULTS_TOO_LARGE) {
        const max = this.deps.config.totalMaxBytes;
        this.fatal ??= new JobFailure(JOB_RESULTS_TOO_LARGE, `The job's results reached the bound on one job's results (JOB_TOTAL_MAX_BYTES, ${max} bytes): the pages after it were not loaded nor charged`);
      }
    } catch (error) {
      if (error instanceof JobFailure) this.fatal ??= error;
      else if (!(error instanceof LeaseLost) && !this.signal.aborted) {
        this.log.error({ err: error, url: task.url }, 'job page could not be recorded');
        this.fatal ??= new JobFailure('INTERNAL_ERROR', 'The job could not record a page');
      }
    } finally {
      if (counted) this.pagesUnrecorded -= 1;
    }
  }

  /**
   * Waits while the account's jobs have been charged for the plan's pages per hour: the job is
   * paced, not failed, and goes on as the hour's window moves. This run's pages in flight count
   * too; two jobs of one account running at once may pass the budget by their concurrency.
   */
  private async withinHourlyBudget(): Promise<void> {
    const budget = this.deps.config.plans[this.principal.user.plan].pagesPerHour;
    while (!this.signal.aborted) {
      const since = new Date(this.deps.now().getTime() - HOUR_MS).toISOString();
      if ((await this.deps.store.chargedPagesSince(this.principal.userId, since)) + this.pagesUnrecorded < budget) return;
      await pause(BUDGET_WAIT_MS, this.signal);
    }
  }

  /**
   * Politeness: with a delay, the pages of one host load one at a time, each `delayMs` after the
   * one before has finished, so the site sees its requests at least that far apart whatever the
   * job's concurrency. Answers the function that ends this page's turn.
   */
  private async hostTurn(url: string, delayMs: number): Promise<() => void> {
    if (delayMs <= 0) return () => undefined;
    const host = new URL(url).host;
    const before = this.hostTurns.get(host) ?? Promise.resolve();
    let endTurn!: () => void;
    const turn = new Promise<void>((resolve) => (endTurn = resolve));
    this.hostTurns.set(host, turn.then(() => pause(delayMs, this.signal)));
    await before;
    return endTurn;
  }

  /**
   * One page through the same pipeline as POST /v1/web/page, with retries for passing failures.
   * Answers the result with the attempt whose reservation the result's record commits.
   */
  private async loadPage(
    scrape: ScrapeSpec,
    task: { seq: number; url: string },
    withLinks: boolean,
  ): Promise<{ result: NewResult; attempt?: string; links?: string[]; finalUrl?: string }> {
    const { config, pages } = this.deps;
    const { url } = task;
    const outputs: OutputRequest = withLinks ? { ...scrape.outputs, links: true } : scrape.outputs;
    // A page's actions hold it for up to their own deadline, on top of what any page takes.
    const pageTimeoutMs = config.pageTimeoutMs + (scrape.page.actions?.length ? actionListDeadlineMs(scrape.page.actions) : 0);
    const waitForSlotsUntil = Date.now() + pageTimeoutMs;
    for (let attempt = 1; ; attempt += 1) {
      const timeout = AbortSignal.timeout(pageTimeoutMs);
      const { caller, attemptId } = this.pageCaller(task.seq, AbortSignal.any([this.signal, timeout]));
      const work = pages.page(caller, { ...scrape.page, url }, outputs, scrape.viewport);
      try {
        const run = await withDeadline(work, caller.signal!);
        const data = await pageAnswer(run);
        if (!scrape.outputs.links) delete data.links;
        const finalUrl = normaliseUrl(run.result.metadata.finalUrl);
        return { result: { url, status: 'completed', data, credits: run.creditsCost }, attempt: attemptId, links: run.result.outputs.links, finalUrl };
      } catch (error) {
        // Given up at the job's page timeout, the work may still end later, and keep what it
        // reserved: the page is recorded without charge, so that is given back once it ends.
        if (timeout.aborted) this.refundWhenEnded(work, attemptId, url);
        if (this.signal.aborted || error instanceof LeaseLost) throw new LeaseLost(this.job.id);
        const failure = describe(error, timeout.aborted, pageTimeoutMs);
        if (FATAL.has(failure.code)) throw new JobFailure(failure.code, failure.message);
        // The owner's slots are all taken (their requests, or their other jobs): wait for one,
        // without spending a try, up to a page timeout.
        if (failure.code === 'CONCURRENCY_LIMIT_EXCEEDED' && Date.now() < waitForSlotsUntil) {
          attempt -= 1;
          await pause(SLOT_WAIT_MS * (0.5 + Math.random()), this.signal);
          continue;
        }
        if (TRANSIENT.has(failure.code) && attempt < config.pageAttempts) {
          await pause(config.retryBaseMs * 2 ** (attempt - 1), this.signal);
          continue;
        }
        if (failure.code === 'INTERNAL_ERROR') this.log.error({ err: error, url }, 'job page failed');
        const result: NewResult = { url, status: 'failed', errorCode: failure.code, errorMessage: failure.message, credits: failure.credits };
        return timeout.aborted ? { result } : { result, attempt: attemptId };
      }
    }
  }

  private refundWhenEnded(work: Promise<unknown>, attemptId: string, url: string): void {
    void work
      .then(noop, noop)
      .then(() => this.deps.store.refundAttempt(attemptId))
      .catch((error: unknown) => this.log.warn({ err: error, url }, 'job page refund failed'));
  }

  /**
   * The job's owner as a page's caller, for one attempt: the credits it reserves are held under
   * the attempt's id until its result is recorded, and only while this runner holds the job.
   */
  private pageCaller(taskSeq: number | null, signal: AbortSignal): { caller: Caller; attemptId: string } {
    const attemptId = randomUUID();
    const reservations = this.deps.store.reservationKeeper({ id: attemptId, jobId: this.job.id, owner: this.owner, taskSeq, startedAt: this.iso() });
    return { caller: { principal: this.principal, requestId: this.job.id, log: this.log, signal, reservations }, attemptId };
  }

  /** Map: the site's URLs from its sitemaps and the start page's links, no page scraped but the first. */
  private async map(crawl: CrawlSpec): Promise<void> {
    const start = normaliseUrl(crawl.url)!;
    const origin = new URL(start).origin;
    let found: string[] = [start];
    let attempt: string | undefined;
    if (crawl.sitemap !== 'skip') {
      const robots = await this.robotsOf(origin, true);
      // concat, not push(...): a spread of 100,000 URLs overflows the call stack.
      found = found.concat(await this.deps.discovery.sitemapUrls(origin, robots, crawl.limit * 2, this.signal));
    }
    if (crawl.sitemap !== 'only') {
      const { caller, attemptId } = this.pageCaller(null, this.signal);
      try {
        const run = await this.deps.pages.page(caller, { url: start, waitTime: 0 }, { links: true });
        attempt = attemptId;
        found = found.concat(run.result.outputs.links ?? []);
      } catch (error) {
        const failure = describe(error, false, this.deps.config.pageTimeoutMs);
        throw new JobFailure(failure.code, failure.message);
      }
    }
    const discovered: NewTask[] = [];
    await this.consider(found, 0, crawl, discovered, []);
    await this.deps.store.recordUrls(this.job.id, this.owner, discovered.map((task) => task.url), attempt, this.iso());
  }

  /**
   * URLs a crawl may take up: normalised, new, in scope, allowed by robots.txt, within the limit,
   * and passed by the egress policy (DNS included). Refused ones become failed results. A page
   * may bring 100,000 links: the loop gives the event loop a turn every few milliseconds.
   */
  private async consider(urls: string[], depth: number, crawl: CrawlSpec, into: NewTask[], refused: NewResult[]): Promise<void> {
    const rules = this.scope(crawl);
    const slices = new EventLoopSlices();
    for (const raw of urls) {
      if (this.known.size >= crawl.limit) return;
      await slices.pause();
      const url = normaliseUrl(raw);
      if (!url) continue;
      const key = urlKey(url);
      if (this.known.has(key) || !(await isInScope(url, rules, slices))) continue;
      const parsed = new URL(url);
      if (!crawl.ignoreRobotsTxt && !(await (await this.robotsOf(parsed.origin, false)).isAllowed(url, slices))) continue;
      // Another page's links may have taken the URL up while this one waited its turn.
      if (this.known.has(key) || this.known.size >= crawl.limit) continue;
      this.known.add(key);
      const refusal = await this.refusalOf(parsed);
      if (refusal) refused.push({ url, status: 'failed', errorCode: 'URL_NOT_ALLOWED', errorMessage: refusal, credits: 0 });
      else into.push({ url, urlKey: key, depth });
    }
  }

  private scopeRules: ScopeRules | undefined;
  private scope(crawl: CrawlSpec): ScopeRules {
    this.scopeRules ??= {
      site: siteOf(new URL(crawl.url).hostname),
      allowSubdomains: crawl.allowSubdomains,
      allowExternalLinks: crawl.allowExternalLinks,
      includePaths: compilePatterns(crawl.includePaths),
      excludePaths: compilePatterns(crawl.excludePaths),
    };
    return this.scopeRules;
  }

  /** robots.txt of an origin, read once per run; `forSitemaps` reads it even when the job ignores its rules. */
  private robotsOf(origin: string, forSitemaps: boolean): Promise<RobotsRules> {
    const options = this.options as { crawl: CrawlSpec };
    if (options.crawl.ignoreRobotsTxt && !forSitemaps) return Promise.resolve(ALLOW_EVERYTHING);
    let rules = this.robots.get(origin);
    if (!rules) {
      if (this.robots.size >= MAX_ROBOTS_ORIGINS) return Promise.resolve(ALLOW_EVERYTHING);
      rules = this.deps.discovery.robots(origin, this.signal);
      this.robots.set(origin, rules);
    }
    return rules;
  }

  /** Why the egress policy refuses a URL's host and port, or undefined when it may be loaded (checked once per host). */
  private refusalOf(url: URL): Promise<string | undefined> {
    const hostKey = url.host;
    let refusal = this.refusedHosts.get(hostKey);
    if (!refusal) {
      refusal = this.deps.policy.check(url.href).then(
        () => undefined,
        (error: unknown) => (error instanceof AddressNotAllowed ? error.message : 'The address could not be checked'),
      );
      this.refusedHosts.set(hostKey, refusal);
    }
    return refusal;
  }

  /** Records a page (or the seeding); answers the credits the page was charged and its result as recorded. */
  private async write(outcome: Omit<PageOutcome, 'firstSeq'>): Promise<RecordedPage> {
    const firstOrdinal = this.ordinal + 1;
    this.ordinal += outcome.results.length;
    const firstSeq = this.nextSeq;
    this.nextSeq += outcome.discovered.length;
    return this.deps.store.recordPage(this.job.id, this.owner, firstOrdinal, { ...outcome, firstSeq }, this.iso());
  }

  private iso(): string {
    return this.deps.now().toISOString();
  }
}

/** A page failure as a result records it: code, message, and credits kept (a page held until its timeout). */
function describe(error: unknown, timedOut: boolean, timeoutMs: number): { code: string; message: string; credits: number } {
  if (timedOut) return { code: 'TARGET_TIMEOUT', message: `The page took longer than the job's page timeout (${timeoutMs} ms)`, credits: 0 };
  if (error instanceof AppError) return { code: error.code, message: error.message, credits: error.creditsCharged };
  return { code: 'INTERNAL_ERROR', message: 'The page could not be processed', credits: 0 };
}

function noop(): void {}

/** Rejects when `signal` aborts, even if the work does not notice it. */
function withDeadline<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
