import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Principal, PrincipalUser } from '../auth/principal.js';
import type { JobsConfig } from '../config.js';
import type { JobEvent } from './job-options.js';
import { JobRun, type JobRunDeps } from './job-run.js';
import type { JobRow, JobStore } from './job-store.js';
import { Semaphore } from './semaphore.js';
import type { WebhookSender } from './webhooks.js';
import { JobQueue } from './job-queue.js';
import type { Worker } from 'bullmq';

export interface JobRunnerDeps extends Omit<JobRunDeps, 'pageSlots' | 'emit' | 'now'> {
  loadUser: (userId: string) => Promise<PrincipalUser | undefined>;
  logger: Logger;
  /** Sends the jobs' events to their webhooks; stopped with the runner. */
  webhooks: WebhookSender;
  /** With REDIS_URL: new jobs arrive through BullMQ; the database poll then only recovers missed and stalled ones. */
  queue?: JobQueue;
  now?: () => Date;
}

/**
 * The embedded job runner: in this process, it claims runnable jobs from the database (new
 * ones, and active ones whose runner's lease lapsed), renews its leases while it runs them, and
 * releases them when it stops, so a restart (or another instance) resumes them. Pages of all
 * jobs share JOBS_GLOBAL_CONCURRENCY places, leaving the rest of the browser for single requests.
 */
export class JobRunner {
  /** Names this runner's leases; a new one per process, so a restarted process waits out its old leases. */
  readonly owner = `runner-${randomUUID()}`;
  private readonly running = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private readonly pageSlots: Semaphore;
  private readonly log: Logger;
  private pollTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private queueWorker: Worker | undefined;
  private stopped = true;

  constructor(private readonly deps: JobRunnerDeps) {
    this.pageSlots = new Semaphore(deps.config.globalConcurrency);
    this.log = deps.logger.child({ component: 'jobs' });
  }

  private get config(): JobsConfig {
    return this.deps.config;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.pollTimer = setInterval(() => this.wake(), this.config.pollIntervalMs);
    this.heartbeatTimer = setInterval(() => void this.heartbeat(), Math.max(200, (this.config.leaseSeconds * 1000) / 3));
    this.pollTimer.unref();
    this.heartbeatTimer.unref();
    this.queueWorker = this.deps.queue?.consume(this.config.globalConcurrency, this.config.leaseSeconds * 1000, (jobId) => this.runAnnounced(jobId));
    this.wake();
  }

  /** Looks for runnable jobs now (a job was just created, or one finished). */
  wake(): void {
    if (this.stopped || this.polling) return;
    this.polling = this.poll()
      .catch((error: unknown) => this.log.warn({ err: error }, 'job poll failed'))
      .finally(() => {
        this.polling = undefined;
      });
  }

  /** Stops claiming, ends the runs in hand and gives their jobs back (queued, unleased) for the next runner. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.pollTimer);
    clearInterval(this.heartbeatTimer);
    // No more announced jobs: paused at once, closed once the runs in hand have returned.
    void this.queueWorker?.pause(true).catch(() => undefined);
    await this.polling;
    const runs = [...this.running.values()];
    for (const run of runs) run.abort.abort();
    await Promise.allSettled(runs.map((run) => run.done));
    if (this.queueWorker) await JobQueue.stopConsuming(this.queueWorker);
    await this.deps.webhooks.stop();
  }

  /** Jobs this runner is running now. */
  get activeJobs(): string[] {
    return [...this.running.keys()];
  }

  private async poll(): Promise<void> {
    const now = this.now();
    await this.deps.store.deleteExpired(now.toISOString());
    const room = this.config.globalConcurrency - this.running.size;
    // With the queue, a queued job is left to it for a lease's time before the poll takes it.
    const queuedBefore = this.deps.queue ? new Date(now.getTime() - this.config.leaseSeconds * 1000).toISOString() : undefined;
    const running = [...this.running.keys()];
    const claimed = await this.deps.store.claim(this.owner, room, now.toISOString(), this.leaseUntil(now), { queuedBefore, running });
    for (const job of claimed) this.run(job);
  }

  /** A job announced on the queue: run here if it is still runnable (not taken by another runner, not cancelled). */
  private async runAnnounced(jobId: string): Promise<void> {
    if (this.stopped || this.running.has(jobId)) return;
    const now = this.now();
    const job = await this.deps.store.claimOne(jobId, this.owner, now.toISOString(), this.leaseUntil(now));
    if (!job) return;
    this.run(job);
    await this.running.get(jobId)?.done;
  }

  private run(job: JobRow): void {
    this.log.info({ jobId: job.id, runner: this.owner }, 'job run started');
    const abort = new AbortController();
    const done = this.execute(job, abort.signal)
      .catch((error: unknown) => this.log.error({ err: error, jobId: job.id }, 'job run failed; it resumes when its lease lapses'))
      .finally(() => {
        this.running.delete(job.id);
        this.wake();
      });
    this.running.set(job.id, { abort, done });
  }

  private async execute(job: JobRow, signal: AbortSignal): Promise<void> {
    const { store } = this.deps;
    const user = await this.deps.loadUser(job.user_id);
    const now = () => this.now().toISOString();
    if (!user) {
      await store.finish(job.id, this.owner, 'failed', now(), this.expiresAt(), { code: 'USER_NOT_FOUND', message: 'The account that started the job no longer exists' });
      return;
    }
    // The owner as the pipeline meters them: their plan, credits and concurrency slots. No
    // session or key stands behind a job's pages, and none of them needs one.
    const principal: Principal = { kind: 'api-key', userId: user.id, user, isAdmin: false };
    const runDeps: JobRunDeps = { ...this.deps, pageSlots: this.pageSlots, emit: this.emitter(), now: () => this.now() };
    const end = await new JobRun(runDeps, job, this.owner, principal, signal, this.log).execute();
    if (end.status === 'released') {
      if (this.stopped) await store.release(job.id, this.owner);
      return;
    }
    const error = end.status === 'failed' ? { code: end.code, message: end.message } : undefined;
    const finished = await store.finish(job.id, this.owner, end.status, now(), this.expiresAt(), error);
    if (finished) {
      const row = (await store.find(job.id)) ?? job;
      this.emitter()(row, end.status, error ? { error } : {});
    }
  }

  /** Renews the leases in hand; a run whose job is no longer held (cancelled, taken over) is stopped. */
  private async heartbeat(): Promise<void> {
    const ids = [...this.running.keys()];
    if (ids.length === 0) return;
    const now = this.now();
    try {
      const held = await this.deps.store.renew(this.owner, ids, now.toISOString(), this.leaseUntil(now));
      for (const id of ids) if (!held.has(id)) this.running.get(id)?.abort.abort();
    } catch (error) {
      this.log.warn({ err: error }, 'job lease renewal failed');
    }
  }

  private emitter(): (job: JobRow, event: JobEvent, data: Record<string, unknown>) => void {
    return (job, event, data) => this.deps.webhooks.emit(job, event, data);
  }

  private leaseUntil(now: Date): string {
    return new Date(now.getTime() + this.config.leaseSeconds * 1000).toISOString();
  }

  private expiresAt(): string {
    return new Date(this.now().getTime() + this.config.retentionHours * 3_600_000).toISOString();
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }
}
