import type { MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import type { AppEnv } from './context.js';
import { routeTemplate } from './route-template.js';

const REQUEST_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/**
 * Gives each request its id (a caller's UUID `X-Request-Id` is kept for tracing across
 * services, anything else is replaced), a child logger, and one access log line at the end.
 */
export function requestContext(logger: Logger): MiddlewareHandler<AppEnv> {
  return async function requestContextMiddleware(c, next) {
    const started = performance.now();
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && REQUEST_ID_PATTERN.test(incoming) ? incoming.toLowerCase() : crypto.randomUUID();
    c.set('requestId', requestId);
    c.set('log', logger.child({ requestId }));
    c.header('X-Request-Id', requestId);
    await next();
    c.res.headers.set('X-Request-Id', requestId);
    const principal = c.get('principal');
    c.get('log').info(
      {
        method: c.req.method,
        route: routeTemplate(c),
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        userId: principal?.userId,
      },
      'request',
    );
  };
}
