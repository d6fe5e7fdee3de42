import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { ExpressionBuilder, Kysely, Transaction, UpdateObject } from 'kysely';
import type { CreditStore, ReservationKeeper } from '../accounts/credits.js';
import type { Database, JobKind, JobStatus, JobTable } from '../db/schema.js';
import { JobReservations, type PageAttempt } from './job-reservations.js';
import { keepWithinJobTotal, type ResultLimits, type SerializedResult, serializeResult } from './job-result-bounds.js';
import type { NewResult } from './job-results.js';

export type { NewResult } from './job-results.js';
import type { ResultHead } from './job-results.js';

export type JobRow = JobTable;

export interface NewTask {
  url: string;
  urlKey: string;
  depth: number;
}

/**
 * A finished page (or a crawl's seeding), written at once: its results, its task marked done,
 * the URLs it led to, and the job's counters.
 */
export interface PageOutcome {
  /** The task the first result answers; absent when seeding. */
  taskSeq?: number;
  /** The page's own result first (when there is a task), then discovered URLs the egress policy refused (never loaded). */
  results: NewResult[];
  /** URLs the page led to (a crawl's links); their tasks are numbered from `firstSeq`. */
  discovered: NewTask[];
  firstSeq: number;
  /** Seeding: the crawl's first tasks are in. */
  seeded?: boolean;
  /**
   * The attempt whose answer the page's result is: its reservation is committed with the result,
   * and the result's credits are what that reservation held. Absent for an answer the job gave
   * itself (its page timeout): the result's own credits stand.
   */
  attempt?: string;
}

/** A page as it was recorded: what it was charged, and its result, which the bounds may have replaced. */
export interface RecordedPage {
  credits: number;
  result?: Pick<NewResult, 'status' | 'errorCode' | 'errorMessage'>;
}

/** Thrown when a runner writes for a job it no longer holds (its lease lapsed, or the job was cancelled). */
export class LeaseLost extends Error {
  constructor(readonly jobId: string) {
    super(`The lease on job ${jobId} is no longer held`);
    this.name = 'LeaseLost';
  }
}

const OPEN: JobStatus[] = ['queued', 'active'];

/** The jobs tables (job, job_task, job_result, job_reservation); the one place that writes them. */
export class JobStore {
  private readonly reservations: JobReservations;

  constructor(
    private readonly db: Kysely<Database>,
    credits: CreditStore,
    private readonly limits: ResultLimits,
  ) {
    this.reservations = new JobReservations(db, credits);
  }

  async create(job: Pick<JobRow, 'id' | 'user_id' | 'kind' | 'options' | 'webhook' | 'created_at'>, tasks: NewTask[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      // A URL given twice is one task: the total counts the tasks made.
      const total = await insertTasks(trx, job.id, tasks, 0);
      await trx
        .insertInto('job')
        .values({ ...job, status: 'queued', total, completed: 0, failed: 0, credits_used: 0, result_bytes: 0, seeded: job.kind === 'batch' ? 1 : 0 })
        .execute();
    });
  }

  async countOpen(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('job')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('status', 'in', OPEN)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async find(id: string, userId?: string): Promise<JobRow | undefined> {
    let query = this.db.selectFrom('job').selectAll().where('id', '=', id);
    if (userId !== undefined) query = query.where('user_id', '=', userId);
    return query.executeTakeFirst();
  }

  /** A user's jobs, newest first; `before` is the created_at/id cursor of the previous page's last job. */
  async list(userId: string, limit: number, before?: { createdAt: string; id: string }): Promise<JobRow[]> {
    let query = this.db.selectFrom('job').selectAll().where('user_id', '=', userId);
    if (before) {
      query = query.where((eb) =>
        eb.or([eb('created_at', '<', before.createdAt), eb.and([eb('created_at', '=', before.createdAt), eb('id', '<', before.id)])]),
      );
    }
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  /**
   * Up to `limit` results after `afterOrdinal` without their data (it may be megabytes each), to
   * choose by size which to load; only up to `through` when given, and only of `status` when given.
   */
  async resultHeads(jobId: string, afterOrdinal: number, limit: number, options: { through?: number; status?: 'completed' | 'failed' } = {}): Promise<ResultHead[]> {
    let query = this.db
      .selectFrom('job_result')
      .select(['ordinal', 'url', 'status', 'error_code', 'error_message', 'credits', 'size'])
      .where('job_id', '=', jobId)
      .where('ordinal', '>', afterOrdinal);
    if (options.through !== undefined) query = query.where('ordinal', '<=', options.through);
    if (options.status) query = query.where('status', '=', options.status);
    return query.orderBy('ordinal').limit(limit).execute();
  }

  /** The data (JSON text) of the results after `afterOrdinal` up to `through`, by ordinal; results without data are absent. */
  async resultData(jobId: string, afterOrdinal: number, through: number): Promise<Map<number, string>> {
    const rows = await this.db
      .selectFrom('job_result')
      .select(['ordinal', 'data'])
      .where('job_id', '=', jobId)
      .where('ordinal', '>', afterOrdinal)
      .where('ordinal', '<=', through)
      .where('data', 'is not', null)
      .execute();
    return new Map(rows.map((row) => [Number(row.ordinal), row.data!]));
  }

  /** A job's failed results, oldest first, without their data (the Firecrawl adapter's errors route). */
  async failedResults(jobId: string, limit: number) {
    return this.db
      .selectFrom('job_result')
      .select(['ordinal', 'url', 'error_code', 'error_message', 'created_at'])
      .where('job_id', '=', jobId)
      .where('status', '=', 'failed')
      .orderBy('ordinal')
      .limit(limit)
      .execute();
  }

  /** A user's queued or running jobs of one kind, oldest first. */
  async openJobs(userId: string, kind: JobKind, limit: number): Promise<JobRow[]> {
    return this.db
      .selectFrom('job')
      .selectAll()
      .where('user_id', '=', userId)
      .where('kind', '=', kind)
      .where('status', 'in', OPEN)
      .orderBy('created_at')
      .limit(limit)
      .execute();
  }

  /**
   * Ends an open job as cancelled; its runner notices at its next heartbeat or write. The credits
   * of its pages in flight are given back: none of them can be recorded any more.
   */
  async cancel(id: string, userId: string, now: string, expiresAt: string): Promise<boolean> {
    return this.endHold(id, (db) =>
      db
        .updateTable('job')
        .set({ status: 'cancelled', finished_at: now, expires_at: expiresAt, lease_owner: null, lease_expires_at: null })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('status', 'in', OPEN)
        .executeTakeFirst(),
    );
  }

  /**
   * Claims up to `count` runnable jobs for `owner`: queued ones, and active ones whose lease
   * lapsed (their runner died). Each claim is a conditional update, so two runners racing for
   * one job cannot both win. `running` are the jobs `owner` runs now: a lease of its own that
   * lapsed while its process stalled is not a job to start a second time.
   */
  async claim(owner: string, count: number, now: string, leaseUntil: string, options: { queuedBefore?: string; running?: string[] } = {}): Promise<JobRow[]> {
    if (count <= 0) return [];
    const { queuedBefore, running = [] } = options;
    let candidates = this.db
      .selectFrom('job')
      .select('id')
      .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'active'), eb('lease_expires_at', '<', now)])]));
    // With the queue, new jobs are pushed to runners: the poll only picks up those it missed.
    if (queuedBefore) candidates = candidates.where((eb) => eb.or([eb('status', '=', 'active'), eb('created_at', '<', queuedBefore)]));
    if (running.length > 0) candidates = candidates.where('id', 'not in', running);
    const claimed: JobRow[] = [];
    for (const { id } of await candidates.orderBy('created_at').limit(count * 2).execute()) {
      if (claimed.length >= count) break;
      const row = await this.claimOne(id, owner, now, leaseUntil);
      if (row) claimed.push(row);
    }
    return claimed;
  }

  /**
   * Claims one job if it is runnable (queued, or active with a lapsed lease). Taking over from a
   * runner that died or stalled, the credits of its pages in flight are given back: their pages
   * are loaded again, and charged again, by this runner.
   */
  async claimOne(id: string, owner: string, now: string, leaseUntil: string): Promise<JobRow | undefined> {
    const claimed = await this.endHold(id, (db) =>
      db
        .updateTable('job')
        .set({ status: 'active', lease_owner: owner, lease_expires_at: leaseUntil, heartbeat_at: now })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'active'), eb('lease_expires_at', '<', now)])]))
        .executeTakeFirst(),
    );
    return claimed ? this.find(id) : undefined;
  }

  /** Renews the leases `owner` holds; answers the ids it still holds (a cancelled job drops out). */
  async renew(owner: string, ids: string[], now: string, leaseUntil: string): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    await this.db
      .updateTable('job')
      .set({ lease_expires_at: leaseUntil, heartbeat_at: now })
      .where('id', 'in', ids)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'active')
      .execute();
    const held = await this.db
      .selectFrom('job')
      .select('id')
      .where('id', 'in', ids)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'active')
      .execute();
    return new Set(held.map((row) => row.id));
  }

  async markStarted(id: string, owner: string, now: string): Promise<void> {
    await this.held(this.db, id, owner, { started_at: now });
  }

  /**
   * Holds the credits one attempt at a page reserves, as a record, until the page is recorded
   * with it (recordPage, recordUrls) or they are given back. They can be reserved only while
   * `owner` holds the job (LeaseLost otherwise, and nothing is taken).
   */
  reservationKeeper(attempt: PageAttempt): ReservationKeeper {
    // The job's row is updated (to the same owner) rather than read, so that it is locked until
    // the debit commits: a takeover's refund waits for it, or the reservation sees the takeover.
    return this.reservations.keeper(attempt, (trx) => this.held(trx, attempt.jobId, attempt.owner, { lease_owner: attempt.owner }));
  }

  /** Gives back an attempt's credits if they are still held: a page the job gave up on (its page timeout) once its work has ended. */
  async refundAttempt(attemptId: string): Promise<void> {
    await this.reservations.refund(attemptId);
  }

  /** Pages the account's jobs were charged for since `since` (a cached or refused URL costs nothing and is not counted). */
  async chargedPagesSince(userId: string, since: string): Promise<number> {
    const row = await this.db
      .selectFrom('job_result')
      .innerJoin('job', 'job.id', 'job_result.job_id')
      .select((eb) => eb.fn.countAll().as('pages'))
      .where('job.user_id', '=', userId)
      .where('job_result.created_at', '>', since)
      .where('job_result.credits', '>', 0)
      .executeTakeFirst();
    return Number(row?.pages ?? 0);
  }

  async maxOrdinal(jobId: string): Promise<number> {
    const row = await this.db
      .selectFrom('job_result')
      .select((eb) => eb.fn.max('ordinal').as('max'))
      .where('job_id', '=', jobId)
      .executeTakeFirst();
    return Number(row?.max ?? 0);
  }

  async taskKeys(jobId: string): Promise<{ keys: Set<string>; nextSeq: number }> {
    const rows = await this.db.selectFrom('job_task').select(['url_key', 'seq']).where('job_id', '=', jobId).execute();
    return { keys: new Set(rows.map((row) => row.url_key)), nextSeq: rows.reduce((max, row) => Math.max(max, row.seq + 1), 0) };
  }

  async queuedTasks(jobId: string, afterSeq: number, limit: number) {
    return this.db
      .selectFrom('job_task')
      .select(['seq', 'url', 'depth'])
      .where('job_id', '=', jobId)
      .where('state', '=', 'queued')
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit)
      .execute();
  }

  /**
   * Writes a finished page: its result (and the refused links') under the next ordinals, its
   * task done, the URLs it led to, the counters and the page's reservation settled, in one
   * transaction; only while `owner` holds the job (LeaseLost otherwise, and nothing is written).
   *
   * The page's data is stored only within the bounds: a result over JOB_RESULT_MAX_BYTES, or one
   * that would take the job's results past JOB_TOTAL_MAX_BYTES, is recorded failed without it
   * (RESULT_TOO_LARGE, JOB_RESULTS_TOO_LARGE), and its reservation is given back instead of kept:
   * a page that is not delivered is not charged. Answers the credits and the result as recorded.
   */
  async recordPage(jobId: string, owner: string, firstOrdinal: number, outcome: PageOutcome, now: string): Promise<RecordedPage> {
    const serialized = outcome.results.map((result) => serializeResult(result, this.limits));
    return this.db.transaction().execute(async (trx) => {
      // The lease first: it locks the job's row, which a takeover refunding this job's
      // reservations locks first too; the counters are written below, once known. Holding the
      // lock, the job's stored bytes read here cannot change before this page adds its own.
      await this.held(trx, jobId, owner, { lease_owner: owner });
      const adding = serialized.reduce((sum, result) => sum + result.size, 0);
      if (adding > 0) {
        const job = await trx.selectFrom('job').select('result_bytes').where('id', '=', jobId).executeTakeFirstOrThrow();
        keepWithinJobTotal(serialized, Number(job.result_bytes), this.limits);
      }
      const results = await this.settleCredits(trx, outcome, serialized);
      if (results.length > 0) {
        await trx
        .insertInto('job_result')
        .values(
          results.map((result, index) => ({
            job_id: jobId,
            ordinal: firstOrdinal + index,
            url: result.url,
            status: result.status,
            data: result.text,
            error_code: result.errorCode ?? null,
            error_message: result.errorMessage ?? null,
            credits: result.credits,
            size: result.size,
            created_at: now,
          })),
        )
        .execute();
      }
      if (outcome.taskSeq !== undefined) {
        await trx.updateTable('job_task').set({ state: 'done' }).where('job_id', '=', jobId).where('seq', '=', outcome.taskSeq).execute();
      }
      const added = await insertTasks(trx, jobId, outcome.discovered, outcome.firstSeq);
      const completed = results.filter((result) => result.status === 'completed').length;
      await this.held(trx, jobId, owner, (eb) => ({
        completed: eb('completed', '+', completed),
        failed: eb('failed', '+', results.length - completed),
        credits_used: eb('credits_used', '+', results.reduce((sum, result) => sum + result.credits, 0)),
        result_bytes: eb('result_bytes', '+', results.reduce((sum, result) => sum + result.size, 0)),
        // The page's own URL was counted when its task was made; refused URLs have no task.
        total: eb('total', '+', added + results.length - (outcome.taskSeq === undefined ? 0 : 1)),
        ...(outcome.seeded ? { seeded: 1 } : {}),
      }));
      const page = outcome.taskSeq === undefined ? undefined : results[0];
      return page ? { credits: page.credits, result: { status: page.status, errorCode: page.errorCode, errorMessage: page.errorMessage } } : { credits: 0 };
    });
  }

  /**
   * The page's result with the credits its attempt's reservation held, committed now; or, when
   * its data was not stored, the reservation given back now and the result free.
   */
  private async settleCredits(trx: Transaction<Database>, outcome: PageOutcome, results: SerializedResult[]): Promise<SerializedResult[]> {
    const [page, ...rest] = results;
    if (outcome.attempt === undefined || outcome.taskSeq === undefined || !page) return results;
    if (page.refused) {
      await this.reservations.refundWithin(trx, outcome.attempt);
      return [{ ...page, credits: 0 }, ...rest];
    }
    return [{ ...page, credits: await this.reservations.commit(trx, outcome.attempt) }, ...rest];
  }

  /** Map: every URL found, as completed results, and the job's total, at once; credits are what the start page's attempt reserved. */
  async recordUrls(jobId: string, owner: string, urls: string[], attempt: string | undefined, now: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await this.held(trx, jobId, owner, { lease_owner: owner });
      const credits = attempt === undefined ? 0 : await this.reservations.commit(trx, attempt);
      for (let start = 0; start < urls.length; start += 500) {
        const rows = urls.slice(start, start + 500).map((url, index) => ({
          job_id: jobId,
          ordinal: start + index + 1,
          url,
          status: 'completed' as const,
          data: null,
          error_code: null,
          error_message: null,
          credits: 0,
          size: 0,
          created_at: now,
        }));
        await trx.insertInto('job_result').values(rows).execute();
        await betweenBatches();
      }
      await this.held(trx, jobId, owner, { total: urls.length, completed: urls.length, credits_used: credits });
    });
  }

  /**
   * Ends a held job; false when it was no longer held (cancelled meanwhile). Credits still
   * reserved (a page given up at its timeout whose work has not ended) are given back.
   */
  async finish(id: string, owner: string, status: 'completed' | 'failed', now: string, expiresAt: string, error?: { code: string; message: string }): Promise<boolean> {
    return this.endHold(id, (db) =>
      db
        .updateTable('job')
        .set({ status, finished_at: now, expires_at: expiresAt, lease_owner: null, lease_expires_at: null, error_code: error?.code ?? null, error_message: error?.message ?? null })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .where('status', '=', 'active')
        .executeTakeFirst(),
    );
  }

  /** Gives a held job back (the runner is stopping): queued again, for the next runner to resume; its pages in flight are refunded. */
  async release(id: string, owner: string): Promise<void> {
    await this.endHold(id, (db) =>
      db
        .updateTable('job')
        .set({ status: 'queued', lease_owner: null, lease_expires_at: null })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .where('status', '=', 'active')
        .executeTakeFirst(),
    );
  }

  /**
   * Changes who holds a job (`change`, a conditional update of its row) and, when it did, gives
   * back the credits still reserved for the job's pages, in the same transaction: the runner that
   * reserved them can no longer record them. True when the job's row was changed.
   */
  private async endHold(id: string, change: (trx: Transaction<Database>) => Promise<{ numUpdatedRows: bigint }>): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      if (Number((await change(trx)).numUpdatedRows) !== 1) return false;
      await this.reservations.refundHeld(trx, id);
      return true;
    });
  }

  /** Removes finished jobs past their expiry, with their tasks and results. */
  async deleteExpired(now: string, batch = 100): Promise<number> {
    const expired = await this.db.selectFrom('job').select('id').where('expires_at', '<', now).limit(batch).execute();
    const ids = expired.map((row) => row.id);
    if (ids.length === 0) return 0;
    await this.db.transaction().execute(async (trx) => {
      await this.reservations.deleteOf(trx, ids);
      await trx.deleteFrom('job_result').where('job_id', 'in', ids).execute();
      await trx.deleteFrom('job_task').where('job_id', 'in', ids).execute();
      await trx.deleteFrom('job').where('id', 'in', ids).execute();
    });
    return ids.length;
  }

  private async held(
    db: Kysely<Database> | Transaction<Database>,
    id: string,
    owner: string,
    values: UpdateObject<Database, 'job'> | ((eb: ExpressionBuilder<Database, 'job'>) => UpdateObject<Database, 'job'>),
  ): Promise<void> {
    const result = await db
      .updateTable('job')
      .set(values)
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'active')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new LeaseLost(id);
  }
}

async function insertTasks(db: Kysely<Database> | Transaction<Database>, jobId: string, tasks: NewTask[], firstSeq: number): Promise<number> {
  let inserted = 0;
  for (let start = 0; start < tasks.length; start += 500) {
    const rows = tasks.slice(start, start + 500).map((task, index) => ({
      job_id: jobId,
      seq: firstSeq + start + index,
      url: task.url,
      url_key: task.urlKey,
      depth: task.depth,
      state: 'queued' as const,
    }));
    const result = await db
      .insertInto('job_task')
      .values(rows)
      .onConflict((conflict) => conflict.columns(['job_id', 'url_key']).doNothing())
      .executeTakeFirst();
    inserted += Number(result.numInsertedOrUpdatedRows ?? 0);
    await betweenBatches();
  }
  return inserted;
}

/**
 * A turn for other requests between two batches of 500 rows: SQLite's driver writes on the
 * server's thread, and a site's sitemaps can give a map 50,000 URLs (5,000 took 330 ms in one
 * piece). The transaction keeps its connection meanwhile; other queries wait for it, not the
 * event loop.
 */
async function betweenBatches(): Promise<void> {
  await yieldToRequests();
}

export type { JobKind, JobStatus };
