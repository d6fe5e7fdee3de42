import type { Principal } from '../auth/principal.js';
import type { PlanLimits, PlanName } from '../config.js';
import { AppError } from '../errors/app-error.js';
import { unlessUnavailable } from '../redis/service-unavailable.js';
import type { RateLimitCounter, RateLimiter } from './rate-limiter.js';

const HOUR_MS = 60 * 60 * 1000;

/**
 * The hourly limits a request counts against, named as a 429 names the one that refused it:
 * the API key's own (`key`), or for session tokens the account's sessions together (`session`:
 * signing in again does not buy more), and the account's ceiling over all of them (`account`).
 */
export type RequestLimitName = 'key' | 'session' | 'account';

/** The X-RateLimit-* headers of the caller's own window (the key's, or the sessions'). */
export type RateLimitHeaders = Record<'X-RateLimit-Limit' | 'X-RateLimit-Remaining' | 'X-RateLimit-Reset', string>;

/** A counted request: the caller's window, which every answer reports, and the refusal when a limit was spent. */
export interface RequestCount {
  headers: RateLimitHeaders;
  refusal?: AppError;
}

/**
 * Counts `cost` requests (1, or an MCP batch's tool calls) against the caller's hourly limit
 * and the account's ceiling together: both or neither, so a request the ceiling refuses spends
 * nothing of the key's budget and the other way round. Answers the caller's window as headers,
 * and when a limit refused, RATE_LIMIT_EXCEEDED naming it, to wait for as long as its window lasts.
 * A shared limiter (Redis) that cannot answer gives 503, not an uncounted request.
 */
export async function countRequests(
  limiter: RateLimiter,
  plans: Record<PlanName, PlanLimits>,
  principal: Principal,
  cost = 1,
): Promise<RequestCount> {
  const plan = plans[principal.user.plan];
  // One hash tag per account keeps its counters in one Redis Cluster slot, as one script needs.
  const account = `{user:${principal.userId}}`;
  const limits: Array<RateLimitCounter & { name: RequestLimitName }> = [
    principal.apiKey
      ? { name: 'key', key: `${account}:key:${principal.apiKey.id}`, limit: plan.requestsPerHour }
      : { name: 'session', key: `${account}:sessions`, limit: plan.requestsPerHour },
    { name: 'account', key: `${account}:account`, limit: plan.accountRequestsPerHour },
  ];
  const decision = await unlessUnavailable(() => limiter.hitAll(limits, HOUR_MS, cost));
  const own = decision.windows[0]!;
  const headers: RateLimitHeaders = {
    'X-RateLimit-Limit': String(own.limit),
    'X-RateLimit-Remaining': String(own.remaining),
    'X-RateLimit-Reset': String(own.resetAt),
  };
  if (decision.allowed) return { headers };
  const refusedBy = decision.refusedBy!;
  const refusing = decision.windows[refusedBy]!;
  const retryAfter = Math.max(1, refusing.resetAt - Math.floor(Date.now() / 1000));
  const refusal = new AppError('RATE_LIMIT_EXCEEDED', 'Rate limit exceeded', {
    retryAfterSeconds: retryAfter,
    details: { limit: limits[refusedBy]!.name, requestsPerHour: refusing.limit, resetAt: refusing.resetAt, retryAfter },
  });
  return { headers, refusal };
}
