import type { Context } from 'hono';
import { matchedRoutes } from 'hono/route';

/** The label for requests no handler matched, so probes of random paths add no log or metric series. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The path template of the handler that answered (`/files/:token/:filename`, never the raw
 * path), or of the one the request was heading for when middleware refused it (401, 429).
 * Middleware, registered for every method, does not count; nor do later catch-all handlers
 * (the dashboard's `GET *`) that never ran.
 */
export function routeTemplate(c: Context): string {
  const routes = matchedRoutes(c);
  const handler = routes.slice(c.req.routeIndex).find((route) => route.method !== 'ALL');
  return handler?.path ?? UNMATCHED_ROUTE;
}
