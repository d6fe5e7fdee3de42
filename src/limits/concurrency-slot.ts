import type { Principal } from '../auth/principal.js';
import type { Config } from '../config.js';
import { AppError } from '../errors/app-error.js';
import { unlessUnavailable } from '../redis/service-unavailable.js';
import type { ConcurrencyLimiter, ReleaseSlot } from './concurrency-limiter.js';

/** Seconds a refused caller is asked to wait: slots free as soon as any request finishes. */
const RETRY_AFTER_SECONDS = 1;

/**
 * One of the account's in-flight slots (FREE_CONCURRENCY / PRO_CONCURRENCY), shared by every
 * billable operation; 429 CONCURRENCY_LIMIT_EXCEEDED with Retry-After when all are taken.
 */
export async function takeConcurrencySlot(
  limiter: ConcurrencyLimiter,
  plans: Config['plans'],
  principal: Principal,
): Promise<ReleaseSlot> {
  const limit = plans[principal.user.plan].concurrency;
  const release = await unlessUnavailable(() => limiter.acquire(`user:${principal.userId}`, limit));
  if (!release) {
    throw new AppError('CONCURRENCY_LIMIT_EXCEEDED', `At most ${limit} requests may run at once on your plan`, {
      retryAfterSeconds: RETRY_AFTER_SECONDS,
      details: { limit },
    });
  }
  return release;
}
