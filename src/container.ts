import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getMigrations } from 'better-auth/db/migration';
import pino, { type Logger } from 'pino';
import { type AccountServices, createAccountServices } from './accounts/account-services.js';
import { authOptions } from './auth/auth.js';
import { AuthEventRelay } from './auth/auth-events.js';
import { createLogMailer, createSmtpMailer, type Mailer } from './auth/mailer.js';
import { type BrowserEngine, createBrowserEngine } from './browser/browser-engine.js';
import { MemoryResultCache } from './cache/memory-result-cache.js';
import { RedisResultCache } from './cache/redis-result-cache.js';
import type { ResultCache } from './cache/result-cache.js';
import { CaptionsService } from './captions/captions.service.js';
import { YouTubeClient } from './captions/youtube-client.js';
import type { Config } from './config.js';
import { ensurePrivateDir } from './db/data-dir.js';
import { type DatabaseHandle, openDatabase } from './db/database.js';
import { migrate } from './db/migrations.js';
import { createFileServices, type FileServices } from './files/file-services.js';
import { createJobServices, type JobServices } from './jobs/job-services.js';
import { Lifecycle } from './lifecycle.js';
import type { ConcurrencyLimiter } from './limits/concurrency-limiter.js';
import { MemoryConcurrencyLimiter } from './limits/memory-concurrency-limiter.js';
import { MemoryRateLimiter } from './limits/memory-rate-limiter.js';
import type { RateLimiter } from './limits/rate-limiter.js';
import { RedisConcurrencyLimiter } from './limits/redis-concurrency-limiter.js';
import { RedisRateLimiter } from './limits/redis-rate-limiter.js';
import { Metrics } from './metrics/metrics.js';
import type { HostResolver } from './net/address-policy.js';
import { RedisConnection } from './redis/redis-connection.js';
import { createSearchProviders, SearchService } from './search/search.service.js';
import { createPageServices, type PageServices } from './web/page-services.js';
import type { Platform } from './platform.js';

/** Web search and YouTube captions: one service each over their providers. */
export interface LookupServices {
  search: SearchService;
  captions: CaptionsService;
}

/**
 * Everything a running Pluck holds, built once per process, domain by domain. Each route
 * module takes only the part it names (its domain's services, its settings); the whole is for
 * the server's start and stop, the worker and the tests.
 */
export type AppContext = Platform & BrowserEngine & AccountServices & FileServices & PageServices & LookupServices & JobServices;

/** Parts a test or an embedding program may supply instead of the defaults. */
export interface ContextOverrides {
  logger?: Logger;
  mailer?: Mailer;
  rateLimiter?: RateLimiter;
  cache?: ResultCache;
  concurrency?: ConcurrencyLimiter;
  /** DNS for the address policy and egress proxy: tests point names at loopback with it. */
  hostResolver?: HostResolver;
}

/** The composition root: picks each implementation from config, runs migrations, builds each domain on the ones below it. */
export async function createContext(config: Config, overrides: ContextOverrides = {}): Promise<AppContext> {
  const logger = overrides.logger ?? pino({ level: config.logLevel, redact: ['req.headers.authorization', '*.key', '*.password'] });
  const database = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, timeoutMs: config.databaseTimeoutMs });
  const redis = config.redisUrl ? new RedisConnection(config.redisUrl, config.redis, logger) : undefined;
  try {
    await redis?.connect();
    const authDeps = {
      config,
      database,
      secret: config.authSecret ?? readOrCreateSecret(config.dataDir, database.dialect),
      logger,
      events: new AuthEventRelay(),
    };
    await migrate(database, async () => {
      const { runMigrations } = await getMigrations(authOptions(authDeps));
      await runMigrations();
    });
    const engine = createBrowserEngine(config, logger, overrides.hostResolver);
    const platform: Platform = {
      config,
      logger,
      database,
      redis,
      mailer: overrides.mailer ?? (config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.mailFrom) : createLogMailer(logger)),
      rateLimiter: overrides.rateLimiter ?? (redis ? new RedisRateLimiter(redis) : new MemoryRateLimiter()),
      cache: overrides.cache ?? (redis ? new RedisResultCache(redis, config.web.cacheLimits) : new MemoryResultCache(config.web.cacheLimits)),
      concurrency:
        overrides.concurrency ??
        (redis ? new RedisConcurrencyLimiter(redis, config.redis.slotTtlSeconds * 1000, logger) : new MemoryConcurrencyLimiter()),
      metrics: new Metrics(() => engine.browser.stats()),
      lifecycle: new Lifecycle(),
    };
    const accounts = createAccountServices({ ...platform, auth: authDeps });
    const files = await createFileServices(config, database, logger);
    const metering = { ...platform, billing: accounts.billing };
    const pages = createPageServices(metering, engine, files.files);
    const lookups: LookupServices = {
      search: new SearchService(createSearchProviders(config.search), metering),
      captions: new CaptionsService(new YouTubeClient({ baseUrl: config.captions.youtubeBaseUrl, timeoutMs: config.captions.timeoutMs }), metering),
    };
    const jobs = createJobServices({ ...platform, ...accounts, pages: pages.pages, engine });
    return { ...platform, ...engine, ...accounts, ...files, ...pages, ...lookups, ...jobs };
  } catch (error) {
    await redis?.close();
    await database.close();
    throw error;
  }
}

export async function closeContext(ctx: AppContext): Promise<void> {
  // First, while the browser and database are still there: running jobs are given back for the next start.
  await ctx.jobRunner?.stop();
  await ctx.jobQueue?.close();
  await ctx.fileSweeper.stop();
  await ctx.browser.close();
  await ctx.documents.close();
  await ctx.guardedFetch.close();
  await ctx.rateLimiter.close();
  await ctx.concurrency.close();
  await ctx.cache.close();
  await ctx.redis?.close();
  await ctx.blobs.close?.();
  await ctx.database.close();
}

/**
 * The embedded default needs no setup, so a signing secret is made on first start and kept in
 * the data directory. Several instances must share one, so PostgreSQL setups must set it.
 */
function readOrCreateSecret(dataDir: string, dialect: string): string {
  if (dialect === 'postgres') {
    throw new Error('AUTH_SECRET must be set when DATABASE_URL is used: every instance has to share it');
  }
  ensurePrivateDir(dataDir);
  const path = join(dataDir, 'auth-secret');
  try {
    writeFileSync(path, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(path, 'utf8').trim();
}
