import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.js';
import { AppError } from '../errors/app-error.js';
import { routeTemplate } from './route-template.js';
import type { Metrics } from '../metrics/metrics.js';

/**
 * Counts every answer by method, route template (`/files/:token/:filename`, not the token) and
 * status, times it, and counts 429 refusals by reason. Mounted right after the request context,
 * so the status is the final one, error bodies included.
 */
export function httpMetrics(metrics: Metrics): MiddlewareHandler<AppEnv> {
  return async function httpMetricsMiddleware(c, next) {
    const started = performance.now();
    const finished = metrics.requestStarted();
    try {
      await next();
    } finally {
      finished();
      metrics.observeRequest(c.req.method, routeTemplate(c), c.res.status, (performance.now() - started) / 1000);
      const error = c.error;
      if (error instanceof AppError && error.code === 'RATE_LIMIT_EXCEEDED') metrics.observeRejection('rate_limit');
      if (error instanceof AppError && error.code === 'CONCURRENCY_LIMIT_EXCEEDED') metrics.observeRejection('concurrency');
    }
  };
}
