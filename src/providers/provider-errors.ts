import { AppError } from '../errors/app-error.js';
import { UpstreamError } from './bounded-fetch.js';

/** Without a Retry-After from the provider, callers are asked to wait this long. */
const DEFAULT_RETRY_AFTER_SECONDS = 30;
/** A provider asking for more than this is asked for by us as this: a caller can always try sooner. */
const MAX_RETRY_AFTER_SECONDS = 3600;

/**
 * When `failures` include a provider rationing us (HTTP 429, or 503 with Retry-After), the answer
 * is 503 PROVIDER_RATE_LIMITED with the soonest Retry-After: the caller's request was fine and will
 * work later, which a 502 does not say. Undefined when no failure was a rate limit.
 */
export function rateLimitedError(provider: string, failures: unknown[]): AppError | undefined {
  const limited = failures.filter((error): error is UpstreamError => error instanceof UpstreamError && error.failure === 'rate_limited');
  if (limited.length === 0) return undefined;
  const waits = limited.map((error) => error.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS);
  const retryAfter = Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.min(...waits)));
  return new AppError('PROVIDER_RATE_LIMITED', `${provider} is rate limiting requests; retry in ${retryAfter} s`, {
    cause: limited[0],
    retryAfterSeconds: retryAfter,
    details: { retryAfterSeconds: retryAfter },
  });
}
