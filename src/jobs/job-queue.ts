import { Queue, Worker } from 'bullmq';
import type { Logger } from 'pino';

const QUEUE_NAME = 'jobs';
/** Bound on closing BullMQ's connections: a Redis that stopped answering must not hold the shutdown. */
const CLOSE_TIMEOUT_MS = 2000;

export interface BullQueueSettings {
  redisUrl: string;
  /** REDIS_KEY_PREFIX: BullMQ's keys live under `<prefix>bull:`. */
  keyPrefix: string;
}

/**
 * The BullMQ queue that hands new jobs to runners (with REDIS_URL): the API adds each job's id,
 * a worker's BullMQ Worker receives it at once instead of waiting for its next database poll.
 * The queue only carries ids: the job, its URLs and its results stay in the database, and the
 * runner's lease there decides who runs it, so a message lost with Redis, or delivered twice,
 * changes nothing (the slower database poll still finds every job).
 */
export class JobQueue {
  private readonly queue: Queue;
  private readonly prefix: string;

  constructor(
    private readonly settings: BullQueueSettings,
    private readonly log: Logger,
  ) {
    this.prefix = `${settings.keyPrefix}bull`;
    // The producer fails fast while Redis is down: the job is in the database already.
    this.queue = new Queue(QUEUE_NAME, { connection: { url: settings.redisUrl, enableOfflineQueue: false, maxRetriesPerRequest: 1 }, prefix: this.prefix });
    this.queue.on('error', (error) => this.log.warn({ err: error }, 'job queue error'));
  }

  /** Announces a new job; a failure is logged, not thrown (the database poll takes it up later). */
  async add(jobId: string): Promise<void> {
    try {
      await this.queue.add('run', { jobId }, { jobId, removeOnComplete: true, removeOnFail: true });
    } catch (error) {
      this.log.warn({ err: error, jobId }, 'job not announced on the queue; the database poll will find it');
    }
  }

  /** Receives announced jobs, at most `concurrency` at once, each run by `run` to its end; stop it with `stopConsuming`. */
  consume(concurrency: number, lockMs: number, run: (jobId: string) => Promise<void>): Worker {
    const worker = new Worker<{ jobId: string }>(QUEUE_NAME, async (message) => run(message.data.jobId), {
      // Blocking reads need a connection that waits for Redis rather than failing commands.
      connection: { url: this.settings.redisUrl, maxRetriesPerRequest: null },
      prefix: this.prefix,
      concurrency,
      lockDuration: lockMs,
    });
    worker.on('error', (error) => this.log.warn({ err: error }, 'job queue worker error'));
    return worker;
  }

  /** Closes a consumer whose runs have already returned (the runner awaits them itself). */
  static async stopConsuming(worker: Worker): Promise<void> {
    await within(worker.close(true), CLOSE_TIMEOUT_MS, () => worker.disconnect());
  }

  async close(): Promise<void> {
    await within(this.queue.close(), CLOSE_TIMEOUT_MS, () => this.queue.disconnect());
  }
}

/** Waits for `closing`, or after `ms` gives up on it and runs `fallback` (which must not hang either). */
async function within(closing: Promise<void>, ms: number, fallback: () => Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  const outcome = await Promise.race([closing.then(() => 'closed' as const, () => 'closed' as const), late]);
  clearTimeout(timer);
  if (outcome === 'late') await Promise.race([fallback().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, ms))]);
}
