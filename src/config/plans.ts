import { z } from 'zod';
import { nonNegativeInt, positiveInt } from './env-values.js';

export type PlanName = 'free' | 'pro';

/**
 * The account ceiling, unless configured, in per-key limits: the spec's key hygiene asks for
 * separate development and production keys, and a rotation (every 90 days) overlaps an old
 * and a new key for a while; with the dashboard's session that is three callers that can each
 * spend a full hour. More keys than that share the three budgets.
 */
const DEFAULT_ACCOUNT_CEILING_IN_KEYS = 3;

/** What each plan allows (docs/accounts-and-limits.md); each FREE_ variable has its PRO_ twin. */
export const plansSection = z
  .object({
    /** Per API key, as the spec says; the sessions of an account count together as one more caller. */
    FREE_REQUESTS_PER_HOUR: positiveInt.default(1000),
    PRO_REQUESTS_PER_HOUR: positiveInt.default(10_000),
    /**
     * All keys and sessions of an account together: the ceiling that keeps more keys from
     * multiplying the plan. Unset: DEFAULT_ACCOUNT_CEILING_IN_KEYS times the per-key limit.
     */
    FREE_ACCOUNT_REQUESTS_PER_HOUR: positiveInt.optional(),
    PRO_ACCOUNT_REQUESTS_PER_HOUR: positiveInt.optional(),
    FREE_CONCURRENCY: positiveInt.default(5),
    PRO_CONCURRENCY: positiveInt.default(20),
    FREE_MONTHLY_CREDITS: nonNegativeInt.default(1000),
    PRO_MONTHLY_CREDITS: nonNegativeInt.default(100_000),
    /** API keys an account may hold at once. */
    FREE_MAX_API_KEYS: positiveInt.max(10_000).default(20),
    PRO_MAX_API_KEYS: positiveInt.max(10_000).default(100),
    FREE_FILE_RETENTION_DAYS: positiveInt.default(7),
    PRO_FILE_RETENTION_DAYS: positiveInt.default(30),
  })
  .transform((e) => ({
    plans: {
      free: {
        requestsPerHour: e.FREE_REQUESTS_PER_HOUR,
        accountRequestsPerHour: e.FREE_ACCOUNT_REQUESTS_PER_HOUR ?? DEFAULT_ACCOUNT_CEILING_IN_KEYS * e.FREE_REQUESTS_PER_HOUR,
        concurrency: e.FREE_CONCURRENCY,
        monthlyCredits: e.FREE_MONTHLY_CREDITS,
        fileRetentionDays: e.FREE_FILE_RETENTION_DAYS,
        maxApiKeys: e.FREE_MAX_API_KEYS,
      },
      pro: {
        requestsPerHour: e.PRO_REQUESTS_PER_HOUR,
        accountRequestsPerHour: e.PRO_ACCOUNT_REQUESTS_PER_HOUR ?? DEFAULT_ACCOUNT_CEILING_IN_KEYS * e.PRO_REQUESTS_PER_HOUR,
        concurrency: e.PRO_CONCURRENCY,
        monthlyCredits: e.PRO_MONTHLY_CREDITS,
        fileRetentionDays: e.PRO_FILE_RETENTION_DAYS,
        maxApiKeys: e.PRO_MAX_API_KEYS,
      },
    } satisfies Record<PlanName, unknown>,
  }))
  .superRefine(({ plans }, ctx) => {
    // A ceiling below one key's limit would refuse keys that their headers say have requests left.
    for (const plan of ['free', 'pro'] as const) {
      const { requestsPerHour, accountRequestsPerHour } = plans[plan];
      if (accountRequestsPerHour >= requestsPerHour) continue;
      const prefix = plan.toUpperCase();
      ctx.addIssue({
        code: 'custom',
        path: [`${prefix}_ACCOUNT_REQUESTS_PER_HOUR`],
        message: `must be at least ${prefix}_REQUESTS_PER_HOUR (${requestsPerHour})`,
      });
    }
  });
