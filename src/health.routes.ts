import { createRoute, z } from '@hono/zod-openapi';
import { sql } from 'kysely';
import type { AppContext } from './container.js';
import { createRouter } from './http/openapi.js';

const CheckSchema = z.object({ status: z.enum(['ok', 'unavailable']), checks: z.record(z.string(), z.string()) });

const healthRoute = createRoute({
  method: 'get',
  path: '/health',
  tags: ['Operations'],
  summary: 'Liveness: the process answers',
  responses: { 200: { content: { 'application/json': { schema: z.object({ status: z.literal('ok') }) } }, description: 'Alive' } },
});

const readyRoute = createRoute({
  method: 'get',
  path: '/ready',
  tags: ['Operations'],
  summary: 'Readiness: the database and other dependencies answer',
  responses: {
    200: { content: { 'application/json': { schema: CheckSchema } }, description: 'Ready' },
    503: { content: { 'application/json': { schema: CheckSchema } }, description: 'A dependency is unavailable' },
  },
});

export function healthRoutes(ctx: AppContext) {
  const router = createRouter();
  router.openapi(healthRoute, (c) => c.json({ status: 'ok' as const }, 200));
  router.openapi(readyRoute, async (c) => {
    const checks: Record<string, string> = {};
    try {
      await sql`select 1`.execute(ctx.database.db);
      checks.database = 'ok';
    } catch (error) {
      ctx.logger.warn({ err: error }, 'readiness: database unavailable');
      checks.database = 'unavailable';
    }
    try {
      await ctx.blobs.check();
      checks.storage = 'ok';
    } catch (error) {
      ctx.logger.warn({ err: error }, 'readiness: storage unavailable');
      checks.storage = 'unavailable';
    }
    // Never launches Chromium: reports a running browser, or whether one could be started.
    const browser = await ctx.browser.readiness();
    if (browser.status !== 'ok') ctx.logger.warn({ detail: browser.detail }, 'readiness: browser unavailable');
    checks.browser = browser.status;
    if (ctx.redis) {
      try {
        await ctx.redis.check();
        checks.redis = 'ok';
      } catch (error) {
        ctx.logger.warn({ err: error }, 'readiness: redis unavailable');
        checks.redis = 'unavailable';
      }
    }
    const ready = Object.values(checks).every((value) => value === 'ok');
    return ready
      ? c.json({ status: 'ok' as const, checks }, 200)
      : c.json({ status: 'unavailable' as const, checks }, 503);
  });
  return router;
}
