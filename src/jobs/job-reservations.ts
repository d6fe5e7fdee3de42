import type { Kysely, Transaction } from 'kysely';
import type { CreditStore, ReservationKeeper } from '../accounts/credits.js';
import type { Database } from '../db/schema.js';

type Trx = Transaction<Database>;

/** One try at a page of a job: its credits, if it reserves any, are held under its id. */
export interface PageAttempt {
  id: string;
  jobId: string;
  /** The runner holding the job. */
  owner: string;
  /** The page's task; null for a map's start page. */
  taskSeq: number | null;
  startedAt: string;
}

/**
 * The credits of jobs' pages, held as records (`job_reservation`) from the debit until the page's
 * result is written. A runner may die, or stall past its lease, with pages in flight: their debits
 * are then neither kept with a result nor given back by that runner. Whoever ends its hold on the
 * job (a takeover, a cancel, the finish, a release) gives them back in the same transaction, and a
 * reservation can only be taken while the job is held, so none is left behind. Each record changes
 * state once, by a conditional update (reserved -> committed with the page's result, or reserved ->
 * refunded), so a reservation is charged or refunded exactly once, whoever races for it.
 */
export class JobReservations {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly credits: CreditStore,
  ) {}

  /** Holds the reservation of one attempt; `guard` refuses it (throws) when the attempt's runner no longer holds the job. */
  keeper(attempt: PageAttempt, guard: (trx: Trx) => Promise<void>): ReservationKeeper {
    return {
      keep: async (trx, reservation) => {
        await guard(trx);
        await trx
          .insertInto('job_reservation')
          .values({
            id: attempt.id,
            job_id: attempt.jobId,
            task_seq: attempt.taskSeq,
            owner: attempt.owner,
            user_id: reservation.userId,
            amount: reservation.amount,
            reason: reservation.reason,
            request_id: reservation.requestId,
            state: 'reserved',
            created_at: attempt.startedAt,
          })
          .execute();
      },
      release: async (trx) => {
        const result = await trx.updateTable('job_reservation').set({ state: 'refunded' }).where('id', '=', attempt.id).where('state', '=', 'reserved').executeTakeFirst();
        return Number(result.numUpdatedRows) === 1;
      },
    };
  }

  /** In the page's transaction: the attempt's reservation kept with its result. Answers the credits it held (0 when none is held). */
  async commit(trx: Trx, attemptId: string): Promise<number> {
    const row = await trx
      .updateTable('job_reservation')
      .set({ state: 'committed' })
      .where('id', '=', attemptId)
      .where('state', '=', 'reserved')
      .returning('amount')
      .executeTakeFirst();
    return Number(row?.amount ?? 0);
  }

  /** In the transaction that ends a runner's hold on the job: every reservation of the job still held, given back. */
  async refundHeld(trx: Trx, jobId: string): Promise<void> {
    await this.refundReserved(trx, 'job_id', jobId);
  }

  /** In the page's transaction: the attempt's reservation given back instead of kept (its result was not stored). */
  async refundWithin(trx: Trx, attemptId: string): Promise<void> {
    await this.refundReserved(trx, 'id', attemptId);
  }

  /** One attempt's reservation given back if it is still held: a page given up at the job's page timeout, once its work has ended. */
  async refund(attemptId: string): Promise<void> {
    await this.db.transaction().execute((trx) => this.refundReserved(trx, 'id', attemptId));
  }

  async deleteOf(trx: Trx, jobIds: string[]): Promise<void> {
    await trx.deleteFrom('job_reservation').where('job_id', 'in', jobIds).execute();
  }

  /** Marks the reservations still held that `column` picks refunded, and refunds each (the update picks each once, whoever races for it). */
  private async refundReserved(trx: Trx, column: 'id' | 'job_id', value: string): Promise<void> {
    const held = await trx
      .updateTable('job_reservation')
      .set({ state: 'refunded' })
      .where(column, '=', value)
      .where('state', '=', 'reserved')
      .returning(['user_id', 'amount', 'reason', 'request_id'])
      .execute();
    for (const row of held) {
      await this.credits.refundWithin(trx, { userId: row.user_id, amount: Number(row.amount), reason: row.reason, requestId: row.request_id });
    }
  }
}
