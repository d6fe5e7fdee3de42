import { createRoute, z } from '@hono/zod-openapi';
import { sql } from 'kysely';
import { createRouter } from './http/openapi.js';
import type { FileServices } from './files/file-services.js';
import type { BrowserEngine } from './browser/browser-engine.js';
import type { Platform } from './platform.js';

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

/** What this module's routes use of the running service. */
type Services = Pick<FileServices, 'blobs'> & Pick<BrowserEngine, 'browser'> & Pick<Platform, 'config' | 'database' | 'lifecycle' | 'logger' | 'redis'>;

export function healthRoutes(ctx: Services) {
  const router = createRouter();
  router.openapi(healthRoute, (c) => c.json({ status: 'ok' as const }, 200));
  router.openapi(readyRoute, async (c) => {
    const timeoutMs = ctx.config.readyCheckTimeoutMs;
    const probe = (name: string, check: () => Promise<unknown>) => probeWithin(ctx, name, check, timeoutMs);
    // The checks run side by side, so a dead dependency costs the probe one timeout, not several.
    const [database, storage, redis, browser] = await Promise.all([
      probe('database', () => sql`select 1`.execute(ctx.database.db)),
      probe('storage', () => ctx.blobs.check()),
      ctx.redis ? probe('redis', () => ctx.redis!.check()) : undefined,
      // Never launches Chromium: reports a running browser, or whether one could be started.
      ctx.browser.readiness(),
    ]);
    if (browser.status !== 'ok') ctx.logger.warn({ detail: browser.detail }, 'readiness: browser unavailable');
    const checks: Record<string, string> = { database, storage, browser: browser.status, ...(redis ? { redis } : {}) };
    // After SIGTERM: requests in flight finish, but the load balancer should send no more.
    if (ctx.lifecycle.draining) checks.shutdown = 'draining';
    const ready = Object.values(checks).every((value) => value === 'ok');
    return ready
      ? c.json({ status: 'ok' as const, checks }, 200)
      : c.json({ status: 'unavailable' as const, checks }, 503);
  });
  return router;
}

/** 'ok', or 'unavailable' when the check fails or has not answered within `timeoutMs`. */
async function probeWithin(ctx: Services, name: string, check: () => Promise<unknown>, timeoutMs: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([check(), timedOut]);
    return 'ok';
  } catch (error) {
    ctx.logger.warn({ err: error, check: name }, 'readiness: dependency unavailable');
    return 'unavailable';
  } finally {
    clearTimeout(timer);
  }
}
