import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';
import { isAddressOrRange } from './http/client-address.js';
import { isHostPort } from './net/address-policy.js';

/**
 * Every setting Pluck reads, parsed once from the environment. Nothing else in the code reads
 * `process.env`; tests build a config from a plain object.
 */
const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const commaList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0),
  );

const positiveInt = z.coerce.number().int().positive();
const nonNegativeInt = z.coerce.number().int().min(0);
const optionalUrl = z.url().optional();

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DASHBOARD_DIR: z.string().min(1).default('./dist/dashboard'),
  PUBLIC_BASE_URL: optionalUrl,
  FRONTEND_URL: optionalUrl,
  ADMIN_EMAILS: commaList.default([]),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

  AUTH_SECRET: z.string().min(32, 'AUTH_SECRET must be at least 32 characters').optional(),
  REQUIRE_EMAIL_VERIFICATION: booleanFlag.default(false),
  SMTP_URL: z.string().min(1).optional(),
  MAIL_FROM: z.string().min(3).default('Pluck <no-reply@localhost>'),
  EMAIL_VERIFICATION_TTL_SECONDS: positiveInt.min(300).max(7 * 86_400).default(86_400),
  PASSWORD_RESET_TTL_SECONDS: positiveInt.min(300).max(86_400).default(3600),
  TRUSTED_PROXIES: commaList
    .refine((entries) => entries.every(isAddressOrRange), 'TRUSTED_PROXIES must be a comma list of IP addresses or CIDR ranges')
    .default([]),
  AUTH_LIMIT_WINDOW_SECONDS: positiveInt.max(86_400).default(900),
  AUTH_SIGN_IN_PER_ADDRESS: positiveInt.default(30),
  AUTH_SIGN_IN_PER_EMAIL: positiveInt.default(10),
  AUTH_SIGN_UP_PER_ADDRESS: positiveInt.default(5),
  AUTH_MAIL_PER_ADDRESS: positiveInt.default(10),
  AUTH_MAIL_PER_EMAIL: positiveInt.default(3),

  DATABASE_URL: z.string().min(1).optional(),
  DATABASE_TIMEOUT_MS: positiveInt.default(10_000),
  REDIS_URL: z.string().min(1).optional(),
  REDIS_KEY_PREFIX: z.string().min(1).max(100).default('pluck:'),
  REDIS_CONNECT_TIMEOUT_MS: positiveInt.default(2000),
  REDIS_COMMAND_TIMEOUT_MS: positiveInt.default(1000),
  CONCURRENCY_SLOT_TTL_SECONDS: positiveInt.default(300),
  FILE_SWEEP_INTERVAL_SECONDS: nonNegativeInt.default(600),
  FILE_SWEEP_BATCH_SIZE: positiveInt.max(10_000).default(200),
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_BUCKET: z.string().min(1).max(255).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  S3_TIMEOUT_MS: positiveInt.default(10_000),

  MAX_BODY_BYTES: positiveInt.default(1024 * 1024),
  SHUTDOWN_GRACE_MS: nonNegativeInt.default(10_000),
  SHUTDOWN_DELAY_MS: nonNegativeInt.default(0),
  READY_CHECK_TIMEOUT_MS: positiveInt.default(2000),
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),

  CHROMIUM_PATH: z.string().min(1).default('/usr/bin/chromium'),
  CHROMIUM_SANDBOX: booleanFlag.default(true),
  CHROMIUM_USER: z.string().regex(/^[a-z_][a-z0-9_-]{0,31}$/, 'CHROMIUM_USER must be a user name').default('pluck-chromium'),
  BROWSER_WS_ENDPOINT: z.url({ protocol: /^(wss?|https?)$/ }).optional(),
  BROWSER_REMOTE_HEARTBEAT_MS: positiveInt.default(5000),
  BROWSER_MAX_PAGES: positiveInt.default(Math.min(16, Math.max(2, availableParallelism() * 2))),
  BROWSER_ACCOUNT_MAX_PAGES: positiveInt.optional(),
  BROWSER_MAX_QUEUE: nonNegativeInt.default(100),
  BROWSER_QUEUE_TIMEOUT_MS: positiveInt.default(10_000),
  BROWSER_RECYCLE_AFTER: positiveInt.default(500),
  BROWSER_PREPARED_CONTEXTS: nonNegativeInt.default(2),
  BROWSER_WARM_PAGES: nonNegativeInt.optional(),
  BROWSER_WARM_PAGE_IDLE_MS: positiveInt.default(30_000),
  BROWSER_WARM_PAGE_USES: positiveInt.default(100),
  BROWSER_SESSIONS_PER_ACCOUNT: positiveInt.default(5),
  BROWSER_SESSIONS_MAX: positiveInt.default(100),
  BROWSER_SESSION_IDLE_MS: positiveInt.default(600_000),
  NAVIGATION_TIMEOUT_MAX_MS: positiveInt.default(60_000),
  EGRESS_PROXY_HOST: z.string().min(1).default('127.0.0.1'),
  EGRESS_PROXY_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  EGRESS_PROXY_PUBLIC_URL: z.url({ protocol: /^http$/ }).optional(),
  ALLOW_PRIVATE_NETWORKS: booleanFlag.default(false),
  ALLOW_PRIVATE_HOSTS: commaList
    .refine((entries) => entries.every(isHostPort), 'ALLOW_PRIVATE_HOSTS must be a comma list of host:port')
    .default([]),

  FREE_REQUESTS_PER_HOUR: positiveInt.default(1000),
  PRO_REQUESTS_PER_HOUR: positiveInt.default(10_000),
  FREE_ACCOUNT_REQUESTS_PER_HOUR: positiveInt.optional(),
  PRO_ACCOUNT_REQUESTS_PER_HOUR: positiveInt.optional(),
  FREE_CONCURRENCY: positiveInt.default(5),
  PRO_CONCURRENCY: positiveInt.default(20),
  FREE_MONTHLY_CREDITS: nonNegativeInt.default(1000),
  PRO_MONTHLY_CREDITS: nonNegativeInt.default(100_000),
  FREE_MAX_API_KEYS: positiveInt.max(10_000).default(20),
  PRO_MAX_API_KEYS: positiveInt.max(10_000).default(100),
  FREE_FILE_RETENTION_DAYS: positiveInt.default(7),
  PRO_FILE_RETENTION_DAYS: positiveInt.default(30),

  SEARXNG_URL: z.url({ protocol: /^https?$/ }).optional(),
  BRAVE_API_KEY: z.string().min(1).optional(),
  BRAVE_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://api.search.brave.com'),
  SEARCH_TIMEOUT_MS: positiveInt.default(8000),
  SEARCH_CREDIT_COST: nonNegativeInt.default(1),
  YOUTUBE_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://www.youtube.com'),
  YOUTUBE_TIMEOUT_MS: positiveInt.default(10_000),
  CAPTIONS_CREDIT_COST: nonNegativeInt.default(1),
  OPENAI_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  AI_MODEL: z.string().min(1).max(200).optional(),
  AI_MAX_INPUT_TOKENS: positiveInt.min(500).max(2_000_000).default(8000),
  AI_TIMEOUT_MS: positiveInt.default(120_000),
  AI_EXTRACT_CREDIT_COST: nonNegativeInt.default(5),

  SCREENSHOT_CREDIT_COST: nonNegativeInt.default(1),
  PDF_CREDIT_COST: nonNegativeInt.default(1),
  CONTENT_CREDIT_COST: nonNegativeInt.default(1),
  MARKDOWN_CREDIT_COST: nonNegativeInt.default(1),
  SCRAPE_CREDIT_COST: nonNegativeInt.default(1),
  LINKS_CREDIT_COST: nonNegativeInt.default(1),
  CACHE_TTL_SECONDS: nonNegativeInt.default(3600),
  CACHE_MAX_ENTRY_BYTES: positiveInt.default(8 * 1024 * 1024),
  CACHE_MAX_USER_BYTES: positiveInt.default(64 * 1024 * 1024),
  CACHE_MAX_BYTES: positiveInt.default(256 * 1024 * 1024),
  ANSWER_MAX_CHARS: positiveInt.min(10_000).max(100_000_000).default(5_000_000),
  SCREENSHOT_MAX_WIDTH: positiveInt.max(65_000).default(16_384),
  SCREENSHOT_MAX_HEIGHT: positiveInt.max(65_000).default(16_384),
  SCREENSHOT_MAX_PIXELS: positiveInt.max(268_435_456).default(33_554_432),
  PDF_MAX_PAGES: positiveInt.max(10_000).default(100),
  SCRAPE_MAX_SELECTORS: positiveInt.max(1000).default(20),
  SCRAPE_MAX_RESULTS: positiveInt.max(10_000).default(100),

  FREE_JOBS_AT_ONCE: positiveInt.max(1000).default(2),
  PRO_JOBS_AT_ONCE: positiveInt.max(1000).default(10),
  FREE_JOB_MAX_PAGES: positiveInt.max(1_000_000).default(500),
  PRO_JOB_MAX_PAGES: positiveInt.max(1_000_000).default(10_000),
  FREE_JOB_PAGES_PER_HOUR: positiveInt.max(10_000_000).default(1000),
  PRO_JOB_PAGES_PER_HOUR: positiveInt.max(10_000_000).default(20_000),
  JOB_CONCURRENCY: positiveInt.max(100).default(2),
  JOBS_GLOBAL_CONCURRENCY: positiveInt.max(1000).default(4),
  JOB_PAGE_TIMEOUT_MS: positiveInt.max(600_000).default(90_000),
  JOB_PAGE_ATTEMPTS: positiveInt.max(10).default(3),
  JOB_RETRY_BASE_MS: positiveInt.max(600_000).default(1000),
  JOB_LEASE_SECONDS: positiveInt.max(3600).default(30),
  JOB_POLL_INTERVAL_MS: positiveInt.max(600_000).default(2000),
  JOB_RETENTION_HOURS: positiveInt.max(24 * 365).default(24 * 7),
  JOBS_RUNNER: z.enum(['embedded', 'off']).default('embedded'),
  JOBS_QUEUE: z.enum(['auto', 'database', 'bullmq']).default('auto'),
  JOB_WEBHOOK_ATTEMPTS: positiveInt.max(20).default(5),
  JOB_WEBHOOK_TIMEOUT_MS: positiveInt.max(120_000).default(10_000),
  // Bytes of JSON. The upper bounds keep one result, and one answer, well under V8's largest
  // string (about 512 MB): past it a status answer could not be written at all.
  JOB_ANSWER_MAX_BYTES: positiveInt.min(1024).max(100_000_000).default(10_000_000),
  JOB_RESULT_MAX_BYTES: positiveInt.min(1024).max(200_000_000).default(30_000_000),
  // The running total lives in an integer column: at most 2^31 - 1 on PostgreSQL.
  JOB_TOTAL_MAX_BYTES: positiveInt.min(1024).max(2_000_000_000).default(1_000_000_000),
});

export type PlanName = 'free' | 'pro';

export interface PlanLimits {
  /** Per API key, as the spec says; the sessions of an account count together as one more caller. */
  requestsPerHour: number;
  /** All keys and sessions of an account together: the ceiling that keeps more keys from multiplying the plan. */
  accountRequestsPerHour: number;
  concurrency: number;
  monthlyCredits: number;
  fileRetentionDays: number;
  /** API keys an account may hold at once. */
  maxApiKeys: number;
}

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  /** The built dashboard (static files served at `/`); `npm run build` writes it. */
  dashboardDir: string;
  /** Origin under which this service is reached; used for links it hands out. */
  publicBaseUrl: string;
  /** Where the dashboard lives; redirects after e-mail verification go here and nowhere else. */
  frontendUrl: string;
  /** Origins whose browser requests better-auth accepts (its CSRF/origin check). */
  trustedOrigins: string[];
  adminEmails: ReadonlySet<string>;
  logLevel: string;
  authSecret: string | undefined;
  requireEmailVerification: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Lifetimes of the single-use links Pluck mails (e-mail verification, password reset). */
  emailVerificationTtlSeconds: number;
  passwordResetTtlSeconds: number;
  /** Proxies whose X-Forwarded-For is believed; empty means the connecting peer is the client. */
  trustedProxies: string[];
  authLimits: AuthLimitsConfig;
  databaseUrl: string | undefined;
  /** Bound on connecting to PostgreSQL and on each query: an unreachable database answers 503, not a hang. */
  databaseTimeoutMs: number;
  redisUrl: string | undefined;
  redis: RedisConfig;
  files: FilesConfig;
  /** Set when S3_BUCKET is: stored files then live in that bucket instead of DATA_DIR/blobs. */
  s3: S3Config | undefined;
  maxBodyBytes: number;
  shutdownGraceMs: number;
  /** After SIGTERM, /ready answers 503 this long before the listener closes (for load balancers that poll it). */
  shutdownDelayMs: number;
  /** Each /ready check (database, Redis, storage) that takes longer counts as unavailable. */
  readyCheckTimeoutMs: number;
  /** Bearer token for /metrics; unset turns /metrics off. */
  metricsToken: string | undefined;
  plans: Record<PlanName, PlanLimits>;
  browser: BrowserConfig;
  egress: EgressConfig;
  search: SearchConfig;
  captions: CaptionsConfig;
  ai: AiConfig;
  web: WebConfig;
  jobs: JobsConfig;
}

/**
 * Attempts allowed per window on the auth routes (src/auth/auth-limits.ts), per client address
 * and per e-mail address, so neither one address nor one mailbox can be hammered.
 */
export interface AuthLimitsConfig {
  windowSeconds: number;
  signInPerAddress: number;
  signInPerEmail: number;
  signUpPerAddress: number;
  /** Routes that send mail: verification and password-reset requests (sign-up counts per e-mail too). */
  mailPerAddress: number;
  mailPerEmail: number;
}

export type WebOperation = 'screenshot' | 'pdf' | 'content' | 'markdown' | 'scrape' | 'links' | 'ai-extract';

/** Page operations (src/web). */
export interface WebConfig {
  creditCosts: Record<WebOperation, number>;
  /** Lifetime of cached results; 0 turns the result cache off. */
  cacheTtlSeconds: number;
  cacheLimits: CacheLimits;
  /** Text answers (HTML, markdown, scrape results, links) are cut at this many characters, in the page. */
  answerMaxChars: number;
  /** Screenshot bounds in device pixels (CSS pixels times deviceScaleFactor), whatever asks for the area. */
  screenshot: { maxWidth: number; maxHeight: number; maxPixels: number };
  /** PDFs are cut after this many pages. */
  pdfMaxPages: number;
  scrapeMaxSelectors: number;
  /** Matches returned per selector; `elementsFound` still counts them all. */
  scrapeMaxResults: number;
}

/** The result cache's bounds, in bytes of stored JSON, so that the cache cannot grow with what pages hold. */
export interface CacheLimits {
  /** A larger result is not cached. */
  maxEntryBytes: number;
  /** One account's entries; its oldest go first (memory and Redis). */
  maxUserBytes: number;
  /** Every entry of this instance's in-memory cache (Redis: bounded per account). */
  maxBytes: number;
}

/** Web search providers; each is on when its variable is set. */
export interface SearchConfig {
  searxngUrl: string | undefined;
  braveApiKey: string | undefined;
  braveBaseUrl: string;
  /** Per provider call. */
  timeoutMs: number;
  creditCost: number;
}

/** The OpenAI-compatible chat completions server behind AI extraction (src/ai). */
export interface AiConfig {
  /** As configured; unset means OpenAI's own API when an API key is set. */
  baseUrl: string | undefined;
  apiKey: string | undefined;
  model: string | undefined;
  /** Budget for everything sent to the model; the page's markdown is trimmed to fit. */
  maxInputTokens: number;
  /** Per model call. */
  timeoutMs: number;
}

export interface CaptionsConfig {
  /** Origin of YouTube (or a stand-in); caption URLs are only fetched from it. */
  youtubeBaseUrl: string;
  /** Per outbound call. */
  timeoutMs: number;
  creditCost: number;
}

/** The Chromium pool (src/browser). */
export interface BrowserConfig {
  chromiumPath: string;
  /** Keep Chromium's sandbox (default). It needs unprivileged user namespaces. */
  sandbox: boolean;
  /** The user a sandboxed Chromium runs as when Pluck runs as root (Chromium refuses root with its sandbox). */
  user: string;
  /** A Chromium on another host, reached over CDP (ws:// or http:// form) instead of a local launch. */
  wsEndpoint: string | undefined;
  /** A remote browser that does not answer within this long is treated as crashed. */
  remoteHeartbeatMs: number;
  maxPages: number;
  /** Pages one account may hold at once; unset: all but a quarter of maxPages. */
  maxPagesPerAccount: number | undefined;
  maxQueue: number;
  queueTimeoutMs: number;
  recycleAfter: number;
  preparedContexts: number;
  /** Pages kept warm (reset) for the accounts that used them; unset: maxPages; 0: a fresh context for every request. */
  warmPages: { maxPages: number | undefined; idleMs: number; maxUses: number };
  /** Named sessions (a request's `session`): kept per account, closed when unused this long. */
  sessions: { maxPerAccount: number; maxTotal: number; idleMs: number };
  navigationTimeoutMaxMs: number;
}

/** The address policy for every outbound connection made for a caller (src/net). */
export interface EgressConfig {
  allowPrivateNetworks: boolean;
  /** `host:port` entries exempt from the private-address block. */
  allowPrivateHosts: string[];
  /** Interface the egress proxy listens on; a remote browser needs one it can reach. */
  proxyHost: string;
  /** 0 takes a free port; a fixed one when PUBLIC_URL (or a firewall rule) names it. */
  proxyPort: number;
  /** The proxy address given to browsers, when they reach it by another name (e.g. behind NAT). */
  proxyPublicUrl: string | undefined;
}

/** Batch, crawl and map jobs (src/jobs, docs/jobs.md). */
export interface JobsConfig {
  /** Per plan: jobs queued or running at once, pages (or URLs) one job may hold, and pages all of an account's jobs may load in an hour. */
  plans: Record<PlanName, { jobsAtOnce: number; maxPages: number; pagesPerHour: number }>;
  /** Pages of one job loading at once (never more than the plan's concurrency less one, so single requests keep room). */
  concurrency: number;
  /** Pages of all jobs loading at once in this process: the rest of the browser pool stays for single requests. */
  globalConcurrency: number;
  pageTimeoutMs: number;
  /** Tries of a page whose failure may pass (overload, unreachable target, timeout). */
  pageAttempts: number;
  retryBaseMs: number;
  /** A running job's claim; renewed by its runner, taken over by another when it lapses (the runner died). */
  leaseSeconds: number;
  pollIntervalMs: number;
  /** Finished jobs and their results are kept this long. */
  retentionHours: number;
  /** `off`: this process serves the routes but runs no jobs (another process does). */
  runner: 'embedded' | 'off';
  /** How new jobs reach runners: the database poll alone, or also a BullMQ queue on Redis (the default with REDIS_URL). */
  queue: 'database' | 'bullmq';
  webhookAttempts: number;
  webhookTimeoutMs: number;
  /**
   * Bytes of JSON one status answer holds at most: results are paged by size as well as by count
   * (a result bigger than this is answered alone, so paging always moves on).
   */
  answerMaxBytes: number;
  /** Bytes of JSON one page's result may take; a bigger one is not stored (RESULT_TOO_LARGE, not charged). */
  resultMaxBytes: number;
  /** Bytes of JSON all of one job's results may take; past it the job ends failed (JOB_RESULTS_TOO_LARGE). */
  totalMaxBytes: number;
}

/** The shared Redis behind rate limits, concurrency slots and the result cache (when REDIS_URL is set). */
export interface RedisConfig {
  /** Every key starts with it, so several deployments (or test runs) can share one Redis. */
  keyPrefix: string;
  connectTimeoutMs: number;
  /** A command without a reply by then fails (503) instead of hanging the request. */
  commandTimeoutMs: number;
  /** A concurrency slot not given back by then (its instance crashed) frees itself. */
  slotTtlSeconds: number;
}

/** Stored screenshots and PDFs (src/files). */
export interface FilesConfig {
  /** How often the server sweeps expired files; 0 turns the schedule off. */
  sweepIntervalSeconds: number;
  /** Records removed per statement, so a sweep never holds the database for long. */
  sweepBatchSize: number;
}

/** An S3-compatible bucket (AWS S3, Cloudflare R2, MinIO) for stored files (src/files). */
export interface S3Config {
  /** Unset for AWS S3 itself; set for R2, MinIO and the like, which are then addressed path-style. */
  endpoint: string | undefined;
  bucket: string;
  region: string;
  /** Both or neither; neither means the AWS SDK's own credential chain (environment, IAM role). */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** Public base URL of the bucket; when set, permanentUrl points there instead of at /files/... */
  publicUrl: string | undefined;
  /** Bound on each bucket operation, retries included: a stalled bucket fails instead of hanging. */
  timeoutMs: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment, listing every problem at once rather than failing on the first. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const defined = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(defined);
  const problems = parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  problems.push(...s3Problems(defined));
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const e = parsed.data;
  const plans = planLimits(e);
  if (e.EGRESS_PROXY_PUBLIC_URL && e.EGRESS_PROXY_PORT === 0) {
    throw new ConfigError(['EGRESS_PROXY_PORT: set a fixed port when EGRESS_PROXY_PUBLIC_URL is set, so the advertised address stays valid']);
  }
  const publicBaseUrl = stripTrailingSlash(e.PUBLIC_BASE_URL ?? `http://${hostForUrl(e.HOST)}:${e.PORT}`);
  const frontendUrl = stripTrailingSlash(e.FRONTEND_URL ?? publicBaseUrl);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    dashboardDir: resolve(e.DASHBOARD_DIR),
    publicBaseUrl,
    frontendUrl,
    trustedOrigins: trustedOrigins(e, [publicBaseUrl, frontendUrl]),
    adminEmails: new Set(e.ADMIN_EMAILS.map((email) => email.toLowerCase())),
    logLevel: e.LOG_LEVEL,
    authSecret: e.AUTH_SECRET,
    requireEmailVerification: e.REQUIRE_EMAIL_VERIFICATION,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    emailVerificationTtlSeconds: e.EMAIL_VERIFICATION_TTL_SECONDS,
    passwordResetTtlSeconds: e.PASSWORD_RESET_TTL_SECONDS,
    trustedProxies: e.TRUSTED_PROXIES,
    authLimits: {
      windowSeconds: e.AUTH_LIMIT_WINDOW_SECONDS,
      signInPerAddress: e.AUTH_SIGN_IN_PER_ADDRESS,
      signInPerEmail: e.AUTH_SIGN_IN_PER_EMAIL,
      signUpPerAddress: e.AUTH_SIGN_UP_PER_ADDRESS,
      mailPerAddress: e.AUTH_MAIL_PER_ADDRESS,
      mailPerEmail: e.AUTH_MAIL_PER_EMAIL,
    },
    databaseUrl: e.DATABASE_URL,
    databaseTimeoutMs: e.DATABASE_TIMEOUT_MS,
    redisUrl: e.REDIS_URL,
    redis: {
      keyPrefix: e.REDIS_KEY_PREFIX,
      connectTimeoutMs: e.REDIS_CONNECT_TIMEOUT_MS,
      commandTimeoutMs: e.REDIS_COMMAND_TIMEOUT_MS,
      slotTtlSeconds: e.CONCURRENCY_SLOT_TTL_SECONDS,
    },
    files: {
      sweepIntervalSeconds: e.FILE_SWEEP_INTERVAL_SECONDS,
      sweepBatchSize: e.FILE_SWEEP_BATCH_SIZE,
    },
    s3: e.S3_BUCKET
      ? {
          endpoint: e.S3_ENDPOINT && stripTrailingSlash(e.S3_ENDPOINT),
          bucket: e.S3_BUCKET,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          publicUrl: e.S3_PUBLIC_URL && stripTrailingSlash(e.S3_PUBLIC_URL),
          timeoutMs: e.S3_TIMEOUT_MS,
        }
      : undefined,
    maxBodyBytes: e.MAX_BODY_BYTES,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    shutdownDelayMs: e.SHUTDOWN_DELAY_MS,
    readyCheckTimeoutMs: e.READY_CHECK_TIMEOUT_MS,
    metricsToken: e.METRICS_TOKEN,
    browser: {
      chromiumPath: e.CHROMIUM_PATH,
      sandbox: e.CHROMIUM_SANDBOX,
      user: e.CHROMIUM_USER,
      wsEndpoint: e.BROWSER_WS_ENDPOINT,
      remoteHeartbeatMs: e.BROWSER_REMOTE_HEARTBEAT_MS,
      maxPages: e.BROWSER_MAX_PAGES,
      maxPagesPerAccount: e.BROWSER_ACCOUNT_MAX_PAGES,
      maxQueue: e.BROWSER_MAX_QUEUE,
      queueTimeoutMs: e.BROWSER_QUEUE_TIMEOUT_MS,
      recycleAfter: e.BROWSER_RECYCLE_AFTER,
      preparedContexts: e.BROWSER_PREPARED_CONTEXTS,
      warmPages: { maxPages: e.BROWSER_WARM_PAGES, idleMs: e.BROWSER_WARM_PAGE_IDLE_MS, maxUses: e.BROWSER_WARM_PAGE_USES },
      sessions: { maxPerAccount: e.BROWSER_SESSIONS_PER_ACCOUNT, maxTotal: e.BROWSER_SESSIONS_MAX, idleMs: e.BROWSER_SESSION_IDLE_MS },
      navigationTimeoutMaxMs: e.NAVIGATION_TIMEOUT_MAX_MS,
    },
    egress: {
      allowPrivateNetworks: e.ALLOW_PRIVATE_NETWORKS,
      allowPrivateHosts: e.ALLOW_PRIVATE_HOSTS,
      proxyHost: e.EGRESS_PROXY_HOST,
      proxyPort: e.EGRESS_PROXY_PORT,
      proxyPublicUrl: e.EGRESS_PROXY_PUBLIC_URL && stripTrailingSlash(e.EGRESS_PROXY_PUBLIC_URL),
    },
    plans,
    search: {
      searxngUrl: e.SEARXNG_URL && stripTrailingSlash(e.SEARXNG_URL),
      braveApiKey: e.BRAVE_API_KEY,
      braveBaseUrl: stripTrailingSlash(e.BRAVE_BASE_URL),
      timeoutMs: e.SEARCH_TIMEOUT_MS,
      creditCost: e.SEARCH_CREDIT_COST,
    },
    captions: {
      youtubeBaseUrl: stripTrailingSlash(e.YOUTUBE_BASE_URL),
      timeoutMs: e.YOUTUBE_TIMEOUT_MS,
      creditCost: e.CAPTIONS_CREDIT_COST,
    },
    ai: {
      baseUrl: e.OPENAI_BASE_URL && stripTrailingSlash(e.OPENAI_BASE_URL),
      apiKey: e.OPENAI_API_KEY,
      model: e.AI_MODEL,
      maxInputTokens: e.AI_MAX_INPUT_TOKENS,
      timeoutMs: e.AI_TIMEOUT_MS,
    },
    web: {
      creditCosts: {
        screenshot: e.SCREENSHOT_CREDIT_COST,
        pdf: e.PDF_CREDIT_COST,
        content: e.CONTENT_CREDIT_COST,
        markdown: e.MARKDOWN_CREDIT_COST,
        scrape: e.SCRAPE_CREDIT_COST,
        links: e.LINKS_CREDIT_COST,
        'ai-extract': e.AI_EXTRACT_CREDIT_COST,
      },
      cacheTtlSeconds: e.CACHE_TTL_SECONDS,
      cacheLimits: { maxEntryBytes: e.CACHE_MAX_ENTRY_BYTES, maxUserBytes: e.CACHE_MAX_USER_BYTES, maxBytes: e.CACHE_MAX_BYTES },
      answerMaxChars: e.ANSWER_MAX_CHARS,
      screenshot: { maxWidth: e.SCREENSHOT_MAX_WIDTH, maxHeight: e.SCREENSHOT_MAX_HEIGHT, maxPixels: e.SCREENSHOT_MAX_PIXELS },
      pdfMaxPages: e.PDF_MAX_PAGES,
      scrapeMaxSelectors: e.SCRAPE_MAX_SELECTORS,
      scrapeMaxResults: e.SCRAPE_MAX_RESULTS,
    },
    jobs: {
      plans: {
        free: { jobsAtOnce: e.FREE_JOBS_AT_ONCE, maxPages: e.FREE_JOB_MAX_PAGES, pagesPerHour: e.FREE_JOB_PAGES_PER_HOUR },
        pro: { jobsAtOnce: e.PRO_JOBS_AT_ONCE, maxPages: e.PRO_JOB_MAX_PAGES, pagesPerHour: e.PRO_JOB_PAGES_PER_HOUR },
      },
      concurrency: e.JOB_CONCURRENCY,
      globalConcurrency: e.JOBS_GLOBAL_CONCURRENCY,
      pageTimeoutMs: e.JOB_PAGE_TIMEOUT_MS,
      pageAttempts: e.JOB_PAGE_ATTEMPTS,
      retryBaseMs: e.JOB_RETRY_BASE_MS,
      leaseSeconds: e.JOB_LEASE_SECONDS,
      pollIntervalMs: e.JOB_POLL_INTERVAL_MS,
      retentionHours: e.JOB_RETENTION_HOURS,
      runner: e.JOBS_RUNNER,
      queue: e.JOBS_QUEUE === 'auto' ? (e.REDIS_URL ? 'bullmq' : 'database') : e.JOBS_QUEUE,
      webhookAttempts: e.JOB_WEBHOOK_ATTEMPTS,
      webhookTimeoutMs: e.JOB_WEBHOOK_TIMEOUT_MS,
      answerMaxBytes: e.JOB_ANSWER_MAX_BYTES,
      resultMaxBytes: e.JOB_RESULT_MAX_BYTES,
      totalMaxBytes: e.JOB_TOTAL_MAX_BYTES,
    },
  };
}

type ParsedEnv = z.infer<typeof envSchema>;

/**
 * The account ceiling, unless configured, in per-key limits: the spec's key hygiene asks for
 * separate development and production keys, and a rotation (every 90 days) overlaps an old
 * and a new key for a while; with the dashboard's session that is three callers that can each
 * spend a full hour. More keys than that share the three budgets.
 */
const DEFAULT_ACCOUNT_CEILING_IN_KEYS = 3;

/** The plans' limits; the account ceiling defaults to DEFAULT_ACCOUNT_CEILING_IN_KEYS keys' worth. */
function planLimits(e: ParsedEnv): Record<PlanName, PlanLimits> {
  const plans: Record<PlanName, PlanLimits> = {
    free: {
      requestsPerHour: e.FREE_REQUESTS_PER_HOUR,
      accountRequestsPerHour: e.FREE_ACCOUNT_REQUESTS_PER_HOUR ?? DEFAULT_ACCOUNT_CEILING_IN_KEYS * e.FREE_REQUESTS_PER_HOUR,
      concurrency: e.FREE_CONCURRENCY,
      monthlyCredits: e.FREE_MONTHLY_CREDITS,
      fileRetentionDays: e.FREE_FILE_RETENTION_DAYS,
      maxApiKeys: e.FREE_MAX_API_KEYS,
    },
    pro: {
      requestsPerHour: e.PRO_REQUESTS_PER_HOUR,
      accountRequestsPerHour: e.PRO_ACCOUNT_REQUESTS_PER_HOUR ?? DEFAULT_ACCOUNT_CEILING_IN_KEYS * e.PRO_REQUESTS_PER_HOUR,
      concurrency: e.PRO_CONCURRENCY,
      monthlyCredits: e.PRO_MONTHLY_CREDITS,
      fileRetentionDays: e.PRO_FILE_RETENTION_DAYS,
      maxApiKeys: e.PRO_MAX_API_KEYS,
    },
  };
  // A ceiling below one key's limit would refuse keys that their headers say have requests left.
  const problems = (['free', 'pro'] as const)
    .filter((plan) => plans[plan].accountRequestsPerHour < plans[plan].requestsPerHour)
    .map((plan) => `${plan.toUpperCase()}_ACCOUNT_REQUESTS_PER_HOUR: must be at least ${plan.toUpperCase()}_REQUESTS_PER_HOUR (${plans[plan].requestsPerHour})`);
  if (problems.length > 0) throw new ConfigError(problems);
  return plans;
}

/**
 * Settings that only make sense together. Any S3_ variable without S3_BUCKET is a mistake
 * (files would silently go to local disk on each instance), as is half a key pair.
 */
function s3Problems(env: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  const s3Names = Object.keys(env).filter((name) => name.startsWith('S3_'));
  if (s3Names.length > 0 && !env.S3_BUCKET) {
    problems.push(`S3_BUCKET: required when any S3_ variable is set (found ${s3Names.sort().join(', ')})`);
  }
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both or neither');
  }
  return problems;
}

function stripTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * The public and dashboard origins, and, when PUBLIC_BASE_URL is left to its default on a
 * loopback or wildcard listener, every loopback spelling of this port: someone who just ran
 * start.sh opens localhost or 127.0.0.1 alike and expects sign-in to work from either.
 */
function trustedOrigins(e: { PUBLIC_BASE_URL?: string; HOST: string; PORT: number }, configured: string[]): string[] {
  const origins = [...configured];
  const loopbackOrWildcard = ['127.0.0.1', 'localhost', '::1', '0.0.0.0', '::'].includes(e.HOST);
  if (!e.PUBLIC_BASE_URL && loopbackOrWildcard) {
    origins.push(...['localhost', '127.0.0.1', '[::1]'].map((host) => `http://${host}:${e.PORT}`));
  }
  return [...new Set(origins)];
}

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}
