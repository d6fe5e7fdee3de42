import type { Logger } from 'pino';
import type { ResultCache } from './cache/result-cache.js';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import type { Lifecycle } from './lifecycle.js';
import type { ConcurrencyLimiter } from './limits/concurrency-limiter.js';
import type { RateLimiter } from './limits/rate-limiter.js';
import type { Metrics } from './metrics/metrics.js';
import type { RedisConnection } from './redis/redis-connection.js';
import type { Mailer } from './auth/mailer.js';

/** What every domain stands on: settings, logs, storage and the shared limiters and cache. */
export interface Platform {
  config: Config;
  logger: Logger;
  database: DatabaseHandle;
  /** Present when REDIS_URL is set: limiters and cache are then shared by every instance. */
  redis: RedisConnection | undefined;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  cache: ResultCache;
  concurrency: ConcurrencyLimiter;
  /** Prometheus metrics of this context (its own registry), served at /metrics. */
  metrics: Metrics;
  /** Draining after SIGTERM: /ready answers 503. */
  lifecycle: Lifecycle;
}
