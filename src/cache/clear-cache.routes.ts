import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '../http/envelope.js';
import { authedErrors, bearerSecurity, createRouter, envelope, errorResponse, json } from '../http/openapi.js';
import { unlessUnavailable } from '../redis/service-unavailable.js';
import type { Platform } from '../platform.js';
import type { Guards } from '../http/guards.js';

const ClearCacheData = z.object({
  cleared: z.boolean(),
  message: z.string(),
  details: z.object({
    v1CacheCleared: z.number().openapi({ description: 'Entries of /v1 operations (page operations, v1 search)' }),
    v2CacheCleared: z.number().openapi({ description: 'Entries of /v2 operations (v2 search, yt-captions)' }),
    totalCleared: z.number(),
    method: z.literal('global-api'),
    globalPurgeSuccess: z.boolean(),
  }),
});

const clearCacheRoute = createRoute({
  method: 'get',
  path: '/v1/user/clear-cache',
  tags: ['Account'],
  summary: "Delete all of the caller's cached results, v1 and v2",
  security: bearerSecurity,
  responses: {
    200: json(envelope(ClearCacheData), 'Cleared'),
    503: errorResponse('SERVICE_UNAVAILABLE: the shared cache (Redis) did not answer'),
    ...authedErrors,
  },
});

/** What this module's routes use of the running service. */
type Services = Pick<Platform, 'cache'>;

export function clearCacheRoutes(ctx: Services, { requireAuth }: Guards) {
  const router = createRouter();

  router.openapi({ ...clearCacheRoute, middleware: requireAuth }, async (c) => {
    const counts = await unlessUnavailable(() => ctx.cache.clearUser(c.get('principal').userId));
    const total = counts.v1 + counts.v2;
    return ok(c, {
      cleared: true,
      message: `Cleared ${total} cached ${total === 1 ? 'result' : 'results'}`,
      details: { v1CacheCleared: counts.v1, v2CacheCleared: counts.v2, totalCleared: total, method: 'global-api' as const, globalPurgeSuccess: true },
    });
  });

  return router;
}
