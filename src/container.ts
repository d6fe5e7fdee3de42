import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getMigrations } from 'better-auth/db/migration';
import pino, { type Logger } from 'pino';
import { AccountService } from './accounts/account.service.js';
import { Billing } from './accounts/billing.js';
import { CreditStore } from './accounts/credits.js';
import { type Auth, authOptions, createAuth } from './auth/auth.js';
import { ApiKeyService } from './auth/api-keys.service.js';
import { AccountMail } from './auth/account-mail.js';
import { AuthLimits } from './auth/auth-limits.js';
import { Authenticator } from './auth/authenticator.js';
import { Credentials } from './auth/credentials.js';
import { EmailVerification } from './auth/email-verification.js';
import { createLogMailer, createSmtpMailer, type Mailer } from './auth/mailer.js';
import { createClientAddress } from './http/client-address.js';
import { createBrowserEngine } from './browser/browser-engine.js';
import type { BrowserPool } from './browser/browser-pool.js';
import type { Config } from './config.js';
import { Lifecycle } from './lifecycle.js';
import { Metrics } from './metrics/metrics.js';
import { type DatabaseHandle, openDatabase } from './db/database.js';
import { migrate } from './db/migrations.js';
import { ensurePrivateDir } from './db/data-dir.js';
import type { BlobStore } from './files/blob-store.js';
import { FileService } from './files/file.service.js';
import { LocalBlobStore } from './files/local-blob-store.js';
import { FileSweeper } from './files/file-sweeper.js';
import { RedisConnection } from './redis/redis-connection.js';
import { RedisRateLimiter } from './limits/redis-rate-limiter.js';
import { RedisConcurrencyLimiter } from './limits/redis-concurrency-limiter.js';
import { RedisResultCache } from './cache/redis-result-cache.js';
import { MemoryRateLimiter } from './limits/memory-rate-limiter.js';
import { MemoryResultCache } from './cache/memory-result-cache.js';
import type { ResultCache } from './cache/result-cache.js';
import type { ConcurrencyLimiter } from './limits/concurrency-limiter.js';
import { MemoryConcurrencyLimiter } from './limits/memory-concurrency-limiter.js';
import { PageOperations } from './web/page-operations.js';
import { PagePipeline } from './web/page-pipeline.js';
import type { RateLimiter } from './limits/rate-limiter.js';
import type { AddressPolicy, HostResolver } from './net/address-policy.js';
import type { GuardedFetcher } from './net/guarded-fetch.js';
import { CaptionsService } from './captions/captions.service.js';
import { YouTubeClient } from './captions/youtube-client.js';
import { createSearchProviders, SearchService } from './search/search.service.js';
import { AiExtractor } from './ai/ai-extract.service.js';
import { JobRunner } from './jobs/job-runner.js';
import { JobService } from './jobs/job.service.js';
import { JobStore } from './jobs/job-store.js';
import { SiteDiscovery } from './jobs/site-discovery.js';
import { WebhookSender } from './jobs/webhooks.js';
import { JobQueue } from './jobs/job-queue.js';

/** Everything a running Pluck holds, built once per process. */
export interface AppContext {
  config: Config;
  logger: Logger;
  database: DatabaseHandle;
  mailer: Mailer;
  /** The account messages (verification and reset links) and where they go. */
  accountMail: AccountMail;
  auth: Auth;
  authenticator: Authenticator;
  /** Passwords, reset links and the admin-address rule. */
  credentials: Credentials;
  /** Single-use verification links. */
  emailVerification: EmailVerification;
  /** Attempt limits of sign-in, sign-up and the mail-sending auth routes. */
  authLimits: AuthLimits;
  /** The client address of a request, behind TRUSTED_PROXIES or not. */
  clientAddress: ReturnType<typeof createClientAddress>;
  apiKeys: ApiKeyService;
  credits: CreditStore;
  accounts: AccountService;
  billing: Billing;
  rateLimiter: RateLimiter;
  blobs: BlobStore;
  files: FileService;
  /** Removes expired files; the server starts its schedule (FILE_SWEEP_INTERVAL_SECONDS). */
  fileSweeper: FileSweeper;
  /** Present when REDIS_URL is set: limiters and cache are then shared by every instance. */
  redis: RedisConnection | undefined;
  cache: ResultCache;
  concurrency: ConcurrencyLimiter;
  /** The spec's page operations over the page pipeline (one load, every output asked of it). */
  pages: PageOperations;
  search: SearchService;
  captions: CaptionsService;
  /** AI extraction over an OpenAI-compatible server (OPENAI_BASE_URL / OPENAI_API_KEY / AI_MODEL). */
  ai: AiExtractor;
  /** The SSRF policy every caller-chosen URL passes. */
  addressPolicy: AddressPolicy;
  /** The Chromium pool (PageRunner); Chromium starts on first use. */
  browser: BrowserPool;
  /** fetch for server-side calls to caller-influenced URLs. */
  guardedFetch: GuardedFetcher;
  /** Prometheus metrics of this context (its own registry), served at /metrics. */
  metrics: Metrics;
  /** Draining after SIGTERM: /ready answers 503. */
  lifecycle: Lifecycle;
  /** Batch, crawl and map jobs (docs/jobs.md). */
  jobs: JobService;
  /** Runs jobs in this process (JOBS_RUNNER=embedded, the default); started here, stopped by closeContext. */
  jobRunner: JobRunner | undefined;
  /** With REDIS_URL (JOBS_QUEUE=auto or bullmq): announces new jobs to the runners through BullMQ. */
  jobQueue: JobQueue | undefined;
}

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

/** The composition root: picks each implementation from config, runs migrations. */
export async function createContext(config: Config, overrides: ContextOverrides = {}): Promise<AppContext> {
  const logger = overrides.logger ?? pino({ level: config.logLevel, redact: ['req.headers.authorization', '*.key', '*.password'] });
  const database = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, timeoutMs: config.databaseTimeoutMs });
  const redis = config.redisUrl ? new RedisConnection(config.redisUrl, config.redis, logger) : undefined;
  try {
    await redis?.connect();
    const mailer = overrides.mailer ?? (config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.mailFrom) : createLogMailer(logger));
    const credits = new CreditStore(database.db);
    const secret = config.authSecret ?? readOrCreateSecret(config.dataDir, database.dialect);
    const accountMail = new AccountMail(mailer, config, logger.child({ component: 'mail' }));
    // These services need `auth`, and better-auth's events need them: bind late.
    let accounts: AccountService | undefined;
    let credentials: Credentials | undefined;
    let emailVerification: EmailVerification | undefined;
    const authDeps = {
      config,
      database,
      secret,
      logger,
      events: {
        userCreated: async (user: { id: string }) => accounts!.onUserCreated(user.id),
        verificationRequested: async (user: { id: string; email: string }) => emailVerification!.issue(user),
        passwordResetRequested: async (user: { id: string; email: string }, token: string) =>
          credentials!.onPasswordResetRequested(user, token),
        passwordReset: async (user: { id: string; email: string }) => credentials!.onPasswordReset(user),
      },
    };
    await migrate(database, async () => {
      const { runMigrations } = await getMigrations(authOptions(authDeps));
      await runMigrations();
    });
    const auth = createAuth(authDeps);
    const authenticator = new Authenticator(auth, database.db, config);
    accounts = new AccountService(database.db, credits, config, database.dialect);
    credentials = new Credentials(auth, database.db, config, accountMail);
    emailVerification = new EmailVerification(auth, credentials, accountMail, config.emailVerificationTtlSeconds);
    const rateLimiter = overrides.rateLimiter ?? (redis ? new RedisRateLimiter(redis) : new MemoryRateLimiter());
    const clientAddress = createClientAddress(config.trustedProxies);
    const authLimits = new AuthLimits(rateLimiter, config.authLimits, clientAddress);
    const apiKeys = new ApiKeyService(auth, database.db);
    const billing = new Billing(credits, accounts);
    // Loaded only when used: the AWS SDK adds about a second to every start.
    const blobs: BlobStore = config.s3
      ? new (await import('./files/s3-blob-store.js')).S3BlobStore(config.s3)
      : new LocalBlobStore(join(config.dataDir, 'blobs'));
    const files = new FileService(database.db, blobs, config);
    const engine = createBrowserEngine(config, logger, overrides.hostResolver);
    const fileSweeper = new FileSweeper(database.db, blobs, logger, config.files.sweepBatchSize);
    const cacheLimits = config.web.cacheLimits;
    const cache = overrides.cache ?? (redis ? new RedisResultCache(redis, cacheLimits) : new MemoryResultCache(cacheLimits));
    const concurrency =
      overrides.concurrency ??
      (redis ? new RedisConcurrencyLimiter(redis, config.redis.slotTtlSeconds * 1000, logger) : new MemoryConcurrencyLimiter());
    const metrics = new Metrics(() => engine.browser.stats());
    const ai = new AiExtractor(config.ai);
    const metering = { config, billing, cache, concurrency, metrics };
    const pipeline = new PagePipeline({ ...metering, policy: engine.addressPolicy, browser: engine.browser, files, ai });
    const pages = new PageOperations(pipeline);
    const search = new SearchService(createSearchProviders(config.search), metering);
    const youtube = new YouTubeClient({ baseUrl: config.captions.youtubeBaseUrl, timeoutMs: config.captions.timeoutMs });
    const captions = new CaptionsService(youtube, metering);
    const jobStore = new JobStore(database.db, credits, config.jobs);
    const jobQueue =
      config.jobs.queue === 'bullmq' && config.redisUrl
        ? new JobQueue({ redisUrl: config.redisUrl, keyPrefix: config.redis.keyPrefix }, logger.child({ component: 'job-queue' }))
        : undefined;
    const jobRunner =
      config.jobs.runner === 'embedded'
        ? new JobRunner({
            store: jobStore,
            pages,
            policy: engine.addressPolicy,
            discovery: new SiteDiscovery(engine.guardedFetch.fetch, logger),
            config: config.jobs,
            plans: config.plans,
            loadUser: (userId) => authenticator.loadUser(userId),
            logger,
            webhooks: new WebhookSender(engine.guardedFetch.fetch, config.jobs, logger.child({ component: 'webhooks' })),
            queue: jobQueue,
          })
        : undefined;
    const jobs = new JobService(jobStore, engine.addressPolicy, config, (jobId) => {
      void jobQueue?.add(jobId);
      jobRunner?.wake();
    });
    jobRunner?.start();
    return {
      ...engine,
      config,
      logger,
      database,
      mailer,
      accountMail,
      auth,
      authenticator,
      credentials,
      emailVerification,
      authLimits,
      clientAddress,
      apiKeys,
      credits,
      accounts,
      billing,
      rateLimiter,
      blobs,
      files,
      fileSweeper,
      redis,
      cache,
      concurrency,
      pages,
      search,
      captions,
      ai,
      metrics,
      lifecycle: new Lifecycle(),
      jobs,
      jobRunner,
      jobQueue,
    };
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
