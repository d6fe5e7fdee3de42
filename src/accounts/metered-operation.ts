import type { Logger } from 'pino';
import type { Principal } from '../auth/principal.js';
import { type CacheLookup, type CacheOutcome, readThrough } from '../cache/read-through.js';
import type { ResultCache } from '../cache/result-cache.js';
import type { Config } from '../config.js';
import type { ConcurrencyLimiter } from '../limits/concurrency-limiter.js';
import type { Metrics } from '../metrics/metrics.js';
import { takeConcurrencySlot } from '../limits/concurrency-slot.js';
import { AppError } from '../errors/app-error.js';
import type { Billing } from './billing.js';
import type { ReservationKeeper } from './credits.js';

export interface MeteredDeps {
  config: Config;
  billing: Billing;
  cache: ResultCache;
  concurrency: ConcurrencyLimiter;
  /** Credits spent and cache outcomes, counted per operation. */
  metrics?: Pick<Metrics, 'observeMeteredOperation'>;
}

export interface MeteredRequest<T> {
  principal: Principal;
  requestId: string;
  log: Logger;
  /** Ledger reason, e.g. `web:search`. */
  operation: string;
  cost: number;
  cache: Pick<CacheLookup<T>, 'key' | 'maxAgeSeconds' | 'isUsable' | 'toCacheValue' | 'shouldStore'>;
  /** A result answered without charge, and not cached (an empty page: a retry may find more). */
  isFree?: (value: T) => boolean;
  /** A failure charged all the same (its AppError's creditsCharged says how much); every other failure is refunded. */
  chargesFailure?: (error: unknown) => boolean;
  /** Holds the reservation as a record until the result is recorded (a job's page); see ReservationKeeper. */
  reservations?: ReservationKeeper;
}

export interface MeteredResult<T> {
  value: T;
  cache: CacheOutcome;
  creditsCost: number;
}

/**
 * The path every billable operation takes: a per-account concurrency slot, then the credit
 * reservation, then the caller's result cache, then the work. A cached answer is charged like
 * a fresh one; credits are refunded when anything after the reservation fails or the result is
 * free, and the slot is given back whatever happens.
 */
export async function runMetered<T>(deps: MeteredDeps, request: MeteredRequest<T>, produce: () => Promise<T>): Promise<MeteredResult<T>> {
  const { principal, requestId, log, operation, cost } = request;
  const release = await takeConcurrencySlot(deps.concurrency, deps.config.plans, principal);
  try {
    const { isFree } = request;
    const lookup = {
      ...request.cache,
      cache: deps.cache,
      userId: principal.userId,
      ttlSeconds: deps.config.web.cacheTtlSeconds,
      log,
      shouldStore: (value: T) => (request.cache.shouldStore?.(value) ?? true) && !isFree?.(value),
    };
    const { chargesFailure, reservations } = request;
    const charged = { principal, cost, operation, requestId, reservations, isFree: isFree && (({ value }: { value: T }) => isFree(value)), chargesFailure };
    const { value, cache } = await deps.billing.run(charged, () => readThrough(lookup, produce)).catch((error: unknown) => {
      if (error instanceof AppError && cost > 0 && chargesFailure?.(error)) error.creditsCharged = cost;
      throw error;
    });
    const creditsCost = isFree?.(value) ? 0 : cost;
    deps.metrics?.observeMeteredOperation(operation, cache, creditsCost);
    return { value, cache, creditsCost };
  } finally {
    await release();
  }
}
