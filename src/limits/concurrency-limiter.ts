/** Gives back a slot taken by `acquire`. Safe to call more than once. */
export type ReleaseSlot = () => Promise<void>;

/**
 * Requests in flight per account. `acquire` answers undefined when the account already has
 * `limit` requests running; the caller answers 429 CONCURRENCY_LIMIT_EXCEEDED.
 */
export interface ConcurrencyLimiter {
  acquire(key: string, limit: number): Promise<ReleaseSlot | undefined>;
  close(): Promise<void>;
}
