import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.js';
import { AppError } from '../errors/app-error.js';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/**
 * A JSON body that does not parse answers 400 INVALID_JSON before any route reads it. Hono
 * keeps the parsed body, so the route's validator does not parse it again.
 */
export function rejectMalformedJson(): MiddlewareHandler<AppEnv> {
  return async function rejectMalformedJsonMiddleware(c, next) {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && JSON_TYPE.test(c.req.header('content-type') ?? '')) {
      // Clients (Firecrawl's 1.x SDK among them) send their JSON content type on a DELETE with no
      // body at all: nothing to parse there, and nothing malformed.
      if (c.req.method === 'DELETE' && (await c.req.text()).trim() === '') return next();
      try {
        await c.req.json();
      } catch (error) {
        throw new AppError('INVALID_JSON', 'Request body is not valid JSON', { cause: error });
      }
    }
    await next();
  };
}
