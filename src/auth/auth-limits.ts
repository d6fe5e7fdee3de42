import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { AuthLimitsConfig } from '../config.js';
import { AppError } from '../errors/app-error.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import { addressLimitKey } from '../net/address-range.js';
import { unlessUnavailable } from '../redis/service-unavailable.js';

/** Who makes an auth attempt: the client's address (see TRUSTED_PROXIES) and the request's log. */
export interface AuthClient {
  address: string;
  log: Logger;
}

/** What an auth route does, for counting: each kind has its own budget. */
export type AuthAttempt = 'sign-in' | 'sign-up' | 'mail' | 'password';

interface Rule {
  /** Counters are shared by every route that names the same bucket and scope. */
  bucket: 'sign-in' | 'sign-up' | 'mail';
  scope: 'address' | 'email';
  limit: (limits: AuthLimitsConfig) => number;
}

const RULES: Record<AuthAttempt, Rule[]> = {
  'sign-in': [
    { bucket: 'sign-in', scope: 'address', limit: (l) => l.signInPerAddress },
    { bucket: 'sign-in', scope: 'email', limit: (l) => l.signInPerEmail },
  ],
  // A sign-up mails a verification link, so it spends the address's mail budget too.
  'sign-up': [
    { bucket: 'sign-up', scope: 'address', limit: (l) => l.signUpPerAddress },
    { bucket: 'mail', scope: 'email', limit: (l) => l.mailPerEmail },
  ],
  mail: [
    { bucket: 'mail', scope: 'address', limit: (l) => l.mailPerAddress },
    { bucket: 'mail', scope: 'email', limit: (l) => l.mailPerEmail },
  ],
  // Guesses at a reset token or at the current password count like sign-in attempts.
  password: [{ bucket: 'sign-in', scope: 'address', limit: (l) => l.signInPerAddress }],
};

/** Counters are keyed by a digest, so no e-mail address is written to Redis. */
function emailKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 32);
}

/**
 * Attempt limits of the auth routes, per client address (see TRUSTED_PROXIES) and per e-mail
 * address, in fixed windows of AUTH_LIMIT_WINDOW_SECONDS. Every attempt counts, answered or
 * refused, so a password guesser cannot tell when a window restarts by succeeding. The
 * counters live in the process, or in Redis when REDIS_URL is set, shared by every instance.
 */
export class AuthLimits {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly limits: AuthLimitsConfig,
  ) {}

  /** Counts one attempt; throws 429 RATE_LIMIT_EXCEEDED with Retry-After when a budget is spent. */
  async check(client: AuthClient, attempt: AuthAttempt, email?: string): Promise<void> {
    const windowMs = this.limits.windowSeconds * 1000;
    for (const rule of RULES[attempt]) {
      if (rule.scope === 'email' && !email) continue;
      const subject = rule.scope === 'address' ? addressLimitKey(client.address) : emailKey(email!);
      const key = `auth:${rule.bucket}:${rule.scope}:${subject}`;
      const limit = rule.limit(this.limits);
      const decision = await unlessUnavailable(() => this.limiter.hit(key, limit, windowMs));
      if (decision.allowed) continue;
      const retryAfter = Math.max(1, decision.resetAt - Math.floor(Date.now() / 1000));
      client.log.info({ bucket: rule.bucket, scope: rule.scope, limit }, 'auth attempt refused by its limit');
      throw new AppError('RATE_LIMIT_EXCEEDED', 'Rate limit exceeded', {
        retryAfterSeconds: retryAfter,
        details: { retryAfter },
      });
    }
  }
}
