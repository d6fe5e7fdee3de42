import { createHash, timingSafeEqual } from 'node:crypto';
import { createRoute, z } from '@hono/zod-openapi';
import { AppError, unauthorized } from '../errors/app-error.js';
import { createRouter, errorResponse } from '../http/openapi.js';
import type { Platform } from '../platform.js';

const metricsRoute = createRoute({
  method: 'get',
  path: '/metrics',
  tags: ['Operations'],
  summary: 'Prometheus metrics (operational, not part of the API)',
  description:
    'Prometheus text format. Off (404) unless METRICS_TOKEN is set; then it needs `Authorization: Bearer <METRICS_TOKEN>`. ' +
    'API keys and session tokens are not accepted here.',
  responses: {
    200: { content: { 'text/plain': { schema: z.string() } }, description: 'Metrics in the Prometheus text format' },
    401: errorResponse('Missing or wrong metrics token'),
    404: errorResponse('Metrics are turned off (METRICS_TOKEN unset)'),
  },
});

/** What this module's routes use of the running service. */
type Services = Pick<Platform, 'config' | 'metrics'>;

/**
 * `/metrics`, for a scraper on the private network. The token is compared in constant time,
 * and without one configured the route does not exist, so a fresh install leaks nothing.
 */
export function metricsRoutes(ctx: Services) {
  const router = createRouter();
  const expected = ctx.config.metricsToken === undefined ? undefined : digest(ctx.config.metricsToken);
  router.openapi(metricsRoute, async (c) => {
    if (!expected) throw new AppError('NOT_FOUND', `No route for ${c.req.method} ${c.req.path}`);
    const presented = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1]?.trim();
    if (!presented || !timingSafeEqual(digest(presented), expected)) throw unauthorized();
    const { body, contentType } = await ctx.metrics.expose();
    return c.text(body, 200, { 'content-type': contentType, 'cache-control': 'no-store' });
  });
  return router;
}

/** Equal-length inputs for timingSafeEqual, whatever was presented. */
function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}
