import type { MiddlewareHandler } from 'hono';
import type { Authenticator } from '../auth/authenticator.js';
import type { Config } from '../config.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import { unlessUnavailable } from '../redis/service-unavailable.js';
import type { AppEnv, AuthedEnv } from './context.js';
import { AppError, unauthorized } from './errors.js';

const HOUR_MS = 60 * 60 * 1000;

/** Resolves the caller if credentials are present; never refuses. For routes open to guests. */
export function identify(authenticator: Authenticator): MiddlewareHandler<AppEnv> {
  return async function identifyMiddleware(c, next) {
    c.set('principal', await authenticator.resolve(c.req.header('authorization')));
    await next();
  };
}

/**
 * Refuses callers without valid credentials (401), then counts the request against the
 * account's hourly plan limit, setting the X-RateLimit-* headers on every answer.
 */
export function requireAuth(
  authenticator: Authenticator,
  limiter: RateLimiter,
  config: Config,
): MiddlewareHandler<AuthedEnv> {
  return async function requireAuthMiddleware(c, next) {
    const principal = await authenticator.resolve(c.req.header('authorization'));
    if (!principal) throw unauthorized();
    c.set('principal', principal);
    const limit = config.plans[principal.user.plan].requestsPerHour;
    // A shared limiter (Redis) that cannot answer gives 503, not an uncounted request.
    // Per account: every key and session of an account share the plan's limit (keys are free to make).
    const decision = await unlessUnavailable(() => limiter.hit(`user:${principal.userId}`, limit, HOUR_MS));
    const headers = {
      'X-RateLimit-Limit': String(decision.limit),
      'X-RateLimit-Remaining': String(decision.remaining),
      'X-RateLimit-Reset': String(decision.resetAt),
    };
    if (!decision.allowed) {
      const retryAfter = Math.max(1, decision.resetAt - Math.floor(Date.now() / 1000));
      throw new AppError('RATE_LIMIT_EXCEEDED', 'Rate limit exceeded', {
        headers: { ...headers, 'Retry-After': String(retryAfter) },
      });
    }
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  };
}
