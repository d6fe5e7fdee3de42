import type { Principal } from '../auth/principal.js';
import type { AccountService } from './account.service.js';
import type { CreditStore, ReservationKeeper } from './credits.js';

export interface ChargeRequest {
  principal: Principal;
  /** Credits the operation costs; 0 runs it without touching the balance. */
  cost: number;
  /** Ledger reason, e.g. `web:screenshot`. */
  operation: string;
  requestId: string;
  /** Holds the reservation as a record until the work is recorded (a job's page); see ReservationKeeper. */
  reservations?: ReservationKeeper;
}

/** Billable work whose result may turn out not to be worth charging for (an empty page). */
export interface ChargedWork<T> extends ChargeRequest {
  /** True for a result that is answered but not charged: the credits are given back. */
  isFree?: (result: T) => boolean;
  /** True for a failure that still used what the credits pay for (a browser page held until its timeout): kept. */
  chargesFailure?: (error: unknown) => boolean;
}

/**
 * Runs billable work: credits are reserved first (402 when the balance cannot cover them),
 * kept when the work succeeds (or fails having used what they pay for) and refunded when it
 * throws or its result is free. The ledger records both.
 */
export class Billing {
  constructor(
    private readonly credits: CreditStore,
    private readonly accounts: AccountService,
  ) {}

  async run<T>({ principal, cost, operation, requestId, reservations, isFree, chargesFailure }: ChargedWork<T>, work: () => Promise<T>): Promise<T> {
    if (cost <= 0) return work();
    const reservation = await this.credits.reserve(
      principal.userId,
      cost,
      operation,
      requestId,
      this.accounts.grantFor(principal.user.plan),
      reservations,
    );
    let result: T;
    try {
      result = await work();
    } catch (error) {
      if (!chargesFailure?.(error)) await this.credits.refund(reservation);
      throw error;
    }
    if (isFree?.(result)) await this.credits.refund(reservation);
    return result;
  }
}
