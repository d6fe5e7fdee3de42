import { type Kysely, type Transaction, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { AppError } from '../errors/app-error.js';

export interface CreditInfo {
  balance: number;
  lastRefill: string;
}

/** A debit taken before work starts; refunded if the work fails. */
export interface CreditReservation {
  userId: string;
  amount: number;
  reason: string;
  requestId: string;
  /** Holds the reservation as a record of its own until its work is recorded (a job's page); absent for a request's. */
  keeper?: ReservationKeeper;
}

/**
 * Keeps a reservation as a record, from the debit until the work it pays for is recorded, for
 * work that may outlive the process that reserved it (a job's page: src/jobs/job-reservations.ts).
 * The record changes state once, reserved -> committed or reserved -> refunded, so a reservation
 * is never both kept and refunded, nor refunded twice, whoever settles it.
 */
export interface ReservationKeeper {
  /** In the debit's transaction, before the debit: writes the record, or throws to refuse the reservation (nothing is taken). */
  keep(trx: Transaction<Database>, reservation: CreditReservation): Promise<void>;
  /** In the refund's transaction: marks the record refunded; false when it was settled already, and nothing is refunded. */
  release(trx: Transaction<Database>, reservation: CreditReservation): Promise<boolean>;
}

type Executor = Kysely<Database> | Transaction<Database>;

/** Adds whole months in UTC, clamping to the last day of a shorter month. */
export function addMonths(iso: string, months: number): Date {
  const from = new Date(iso);
  const target = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(from.getUTCDate(), lastDay));
  target.setUTCHours(from.getUTCHours(), from.getUTCMinutes(), from.getUTCSeconds(), from.getUTCMilliseconds());
  return target;
}

/**
 * Credit balances and their ledger. The balance never goes below zero: every debit is one
 * conditional UPDATE (`balance >= amount`), so parallel requests, on one instance or many,
 * cannot overspend. Every change writes a ledger row in the same transaction.
 */
export class CreditStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Creates the balance with the plan's grant when the user has none. True when it did. */
  async grantInitial(userId: string, grant: number, reason: string, requestId: string | null): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const timestamp = this.now().toISOString();
      const inserted = await trx
        .insertInto('credit_balance')
        .values({ user_id: userId, balance: grant, last_refill: timestamp, updated_at: timestamp })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .returning('user_id')
        .executeTakeFirst();
      if (!inserted) return false;
      await this.writeLedger(trx, userId, grant, grant, reason, requestId);
      return true;
    });
  }

  /**
   * Adds `amount` to the balance (creating the record when the user has none), with its ledger
   * row; answers the balance after. For grants an operator makes.
   */
  async grant(userId: string, amount: number, reason: string, requestId: string | null): Promise<number> {
    if (await this.grantInitial(userId, amount, reason, requestId)) return amount;
    return this.credit(userId, amount, reason, requestId);
  }

  /** The balance after any refill that has come due; undefined when the user has no record. */
  async get(userId: string, monthlyGrant: number, requestId: string | null): Promise<CreditInfo | undefined> {
    await this.refillIfDue(userId, monthlyGrant, requestId);
    const row = await this.db
      .selectFrom('credit_balance')
      .select(['balance', 'last_refill'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row && { balance: Number(row.balance), lastRefill: row.last_refill };
  }

  /**
   * Debits `amount` or throws 402 INSUFFICIENT_CREDITS; nothing is taken in that case. With a
   * `keeper`, the reservation's record is written in the same transaction, or nothing is taken.
   */
  async reserve(
    userId: string,
    amount: number,
    reason: string,
    requestId: string,
    monthlyGrant: number,
    keeper?: ReservationKeeper,
  ): Promise<CreditReservation> {
    await this.refillIfDue(userId, monthlyGrant, requestId);
    const reservation: CreditReservation = { userId, amount, reason, requestId, ...(keeper ? { keeper } : {}) };
    await this.db.transaction().execute(async (trx) => {
      // The keeper first: when it refuses, nothing was debited; and it takes its locks (a job's
      // row) before the balance's, in the order a job's takeover takes them to refund.
      await keeper?.keep(trx, reservation);
      const row = await trx
        .updateTable('credit_balance')
        .set({ balance: sql`balance - ${amount}`, updated_at: this.now().toISOString() })
        .where('user_id', '=', userId)
        .where('balance', '>=', amount)
        .returning('balance')
        .executeTakeFirst();
      if (!row) throw new AppError('INSUFFICIENT_CREDITS', `This operation costs ${amount} credits and your balance is too low`);
      await this.writeLedger(trx, userId, -amount, Number(row.balance), reason, requestId);
    });
    return reservation;
  }

  /** Gives a reservation back, with its own ledger row; a kept one only if its record was not settled already. */
  async refund(reservation: CreditReservation): Promise<void> {
    const { keeper } = reservation;
    if (!keeper) {
      await this.credit(reservation.userId, reservation.amount, `refund:${reservation.reason}`, reservation.requestId);
      return;
    }
    await this.db.transaction().execute(async (trx) => {
      if (await keeper.release(trx, reservation)) await this.refundWithin(trx, reservation);
    });
  }

  /** Gives a reservation back inside the caller's transaction: a keeper settling the records it holds. */
  async refundWithin(trx: Transaction<Database>, reservation: Omit<CreditReservation, 'keeper'>): Promise<void> {
    await this.creditWithin(trx, reservation.userId, reservation.amount, `refund:${reservation.reason}`, reservation.requestId);
  }

  /** Raises the balance to `target` if it is below; used when a plan is upgraded. */
  async topUpTo(userId: string, target: number, reason: string, requestId: string | null): Promise<void> {
    // Compare-and-set on the balance read, so a debit racing the top-up is never lost.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const row = await this.db
        .selectFrom('credit_balance')
        .select('balance')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!row || Number(row.balance) >= target) return;
      const before = Number(row.balance);
      const applied = await this.db.transaction().execute(async (trx) => {
        const updated = await trx
          .updateTable('credit_balance')
          .set({ balance: target, updated_at: this.now().toISOString() })
          .where('user_id', '=', userId)
          .where('balance', '=', before)
          .returning('balance')
          .executeTakeFirst();
        if (updated) await this.writeLedger(trx, userId, target - before, target, reason, requestId);
        return Boolean(updated);
      });
      if (applied) return;
    }
  }

  async ledger(userId: string) {
    return this.db
      .selectFrom('credit_ledger')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'asc')
      .execute();
  }

  private async credit(userId: string, amount: number, reason: string, requestId: string | null): Promise<number> {
    return this.db.transaction().execute((trx) => this.creditWithin(trx, userId, amount, reason, requestId));
  }

  private async creditWithin(trx: Transaction<Database>, userId: string, amount: number, reason: string, requestId: string | null): Promise<number> {
    const row = await trx
      .updateTable('credit_balance')
      .set({ balance: sql`balance + ${amount}`, updated_at: this.now().toISOString() })
      .where('user_id', '=', userId)
      .returning('balance')
      .executeTakeFirst();
    if (row) await this.writeLedger(trx, userId, amount, Number(row.balance), reason, requestId);
    return Number(row?.balance ?? 0);
  }

  /**
   * Monthly refill from `last_refill`: the balance is raised to the plan's grant (unused credits
   * above it are kept, below it are topped up). A compare-and-set on `last_refill` makes sure
   * exactly one of several concurrent requests performs it.
   */
  private async refillIfDue(userId: string, monthlyGrant: number, requestId: string | null) {
    const row = await this.db
      .selectFrom('credit_balance')
      .select(['balance', 'last_refill'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) return;
    const now = this.now();
    // Step a month at a time from the stored date, the same rule the next call will apply:
    // counting months from the old date instead (Jan 31 + 2 = Mar 31) would leave a date
    // (Feb 28) whose own next month (Mar 28) may already have passed, so a second call
    // refilled again within the same month.
    let nextRefill = row.last_refill;
    for (let step = addMonths(nextRefill, 1); step <= now; step = addMonths(nextRefill, 1)) nextRefill = step.toISOString();
    if (nextRefill === row.last_refill) return;
    await this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('credit_balance')
        .set({
          balance: sql`case when balance < ${monthlyGrant} then ${monthlyGrant} else balance end`,
          last_refill: nextRefill,
          updated_at: now.toISOString(),
        })
        .where('user_id', '=', userId)
        .where('last_refill', '=', row.last_refill)
        .returning('balance')
        .executeTakeFirst();
      if (!updated) return;
      const balance = Number(updated.balance);
      await this.writeLedger(trx, userId, balance - Number(row.balance), balance, 'monthly_refill', requestId);
    });
  }

  private async writeLedger(
    trx: Executor,
    userId: string,
    delta: number,
    balanceAfter: number,
    reason: string,
    requestId: string | null,
  ) {
    await trx
      .insertInto('credit_ledger')
      .values({
        user_id: userId,
        delta,
        balance_after: balanceAfter,
        reason,
        request_id: requestId,
        created_at: this.now().toISOString(),
      })
      .execute();
  }
}
