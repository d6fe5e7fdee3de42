import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';
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
  PUBLIC_BASE_URL: optionalUrl,
  FRONTEND_URL: optionalUrl,
  ADMIN_EMAILS: commaList.default([]),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

  AUTH_SECRET: z.string().min(32, 'AUTH_SECRET must be at least 32 characters').optional(),
  REQUIRE_EMAIL_VERIFICATION: booleanFlag.default(false),
  SMTP_URL: z.string().min(1).optional(),
  MAIL_FROM: z.string().min(3).default('Pluck <no-reply@localhost>'),

  DATABASE_URL: z.string().min(1).optional(),
  REDIS_URL: z.string().min(1).optional(),
  REDIS_KEY_PREFIX: z.string().min(1).max(100).default('pluck:'),
  REDIS_CONNECT_TIMEOUT_MS: positiveInt.default(2000),
  REDIS_COMMAND_TIMEOUT_MS: positiveInt.default(1000),
  CONCURRENCY_SLOT_TTL_SECONDS: positiveInt.default(300),
  FILE_SWEEP_INTERVAL_SECONDS: nonNegativeInt.default(600),
  FILE_SWEEP_BATCH_SIZE: positiveInt.max(10_000).default(200),

  MAX_BODY_BYTES: positiveInt.default(1024 * 1024),
  SHUTDOWN_GRACE_MS: nonNegativeInt.default(10_000),

  CHROMIUM_PATH: z.string().min(1).default('/usr/bin/chromium'),
  CHROMIUM_SANDBOX: booleanFlag.default(false),
  BROWSER_WS_ENDPOINT: z.url().optional(),
  BROWSER_MAX_PAGES: positiveInt.default(Math.min(16, Math.max(2, availableParallelism() * 2))),
  BROWSER_MAX_QUEUE: nonNegativeInt.default(100),
  BROWSER_QUEUE_TIMEOUT_MS: positiveInt.default(10_000),
  BROWSER_RECYCLE_AFTER: positiveInt.default(500),
  BROWSER_PREPARED_CONTEXTS: nonNegativeInt.default(2),
  NAVIGATION_TIMEOUT_MAX_MS: positiveInt.default(60_000),
  ALLOW_PRIVATE_NETWORKS: booleanFlag.default(false),
  ALLOW_PRIVATE_HOSTS: commaList
    .refine((entries) => entries.every(isHostPort), 'ALLOW_PRIVATE_HOSTS must be a comma list of host:port')
    .default([]),

  FREE_REQUESTS_PER_HOUR: positiveInt.default(1000),
  PRO_REQUESTS_PER_HOUR: positiveInt.default(10_000),
  FREE_CONCURRENCY: positiveInt.default(5),
  PRO_CONCURRENCY: positiveInt.default(20),
  FREE_MONTHLY_CREDITS: nonNegativeInt.default(1000),
  PRO_MONTHLY_CREDITS: nonNegativeInt.default(100_000),
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

  SCREENSHOT_CREDIT_COST: nonNegativeInt.default(1),
  PDF_CREDIT_COST: nonNegativeInt.default(1),
  CONTENT_CREDIT_COST: nonNegativeInt.default(1),
  MARKDOWN_CREDIT_COST: nonNegativeInt.default(1),
  SCRAPE_CREDIT_COST: nonNegativeInt.default(1),
  LINKS_CREDIT_COST: nonNegativeInt.default(1),
  CACHE_TTL_SECONDS: nonNegativeInt.default(3600),
  SCREENSHOT_MAX_HEIGHT: positiveInt.max(65_000).default(16_384),
  SCRAPE_MAX_SELECTORS: positiveInt.max(1000).default(20),
  SCRAPE_MAX_RESULTS: positiveInt.max(10_000).default(100),
});

export type PlanName = 'free' | 'pro';

export interface PlanLimits {
  requestsPerHour: number;
  concurrency: number;
  monthlyCredits: number;
  fileRetentionDays: number;
}

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  /** Origin under which this service is reached; used for links it hands out. */
  publicBaseUrl: string;
  /** Where the dashboard lives; redirects after e-mail verification go here and nowhere else. */
  frontendUrl: string;
  adminEmails: ReadonlySet<string>;
  logLevel: string;
  authSecret: string | undefined;
  requireEmailVerification: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  redis: RedisConfig;
  files: FilesConfig;
  maxBodyBytes: number;
  shutdownGraceMs: number;
  plans: Record<PlanName, PlanLimits>;
  browser: BrowserConfig;
  egress: EgressConfig;
  search: SearchConfig;
  captions: CaptionsConfig;
  web: WebConfig;
}

export type WebOperation = 'screenshot' | 'pdf' | 'content' | 'markdown' | 'scrape' | 'links';

/** Page operations (src/web). */
export interface WebConfig {
  creditCosts: Record<WebOperation, number>;
  /** Lifetime of cached results; 0 turns the result cache off. */
  cacheTtlSeconds: number;
  /** Full-page screenshots are cut at this height so an endless page cannot exhaust memory. */
  screenshotMaxHeight: number;
  scrapeMaxSelectors: number;
  /** Matches returned per selector; `elementsFound` still counts them all. */
  scrapeMaxResults: number;
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
  /** Keep Chromium's sandbox; off by default because it cannot start as root or in most containers. */
  sandbox: boolean;
  /** A remote CDP browser: reserved, not supported yet (startup fails when set). */
  wsEndpoint: string | undefined;
  maxPages: number;
  maxQueue: number;
  queueTimeoutMs: number;
  recycleAfter: number;
  preparedContexts: number;
  navigationTimeoutMaxMs: number;
}

/** The address policy for every outbound connection made for a caller (src/net). */
export interface EgressConfig {
  allowPrivateNetworks: boolean;
  /** `host:port` entries exempt from the private-address block. */
  allowPrivateHosts: string[];
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
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const e = parsed.data;
  const publicBaseUrl = stripTrailingSlash(e.PUBLIC_BASE_URL ?? `http://${hostForUrl(e.HOST)}:${e.PORT}`);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    publicBaseUrl,
    frontendUrl: stripTrailingSlash(e.FRONTEND_URL ?? publicBaseUrl),
    adminEmails: new Set(e.ADMIN_EMAILS.map((email) => email.toLowerCase())),
    logLevel: e.LOG_LEVEL,
    authSecret: e.AUTH_SECRET,
    requireEmailVerification: e.REQUIRE_EMAIL_VERIFICATION,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    databaseUrl: e.DATABASE_URL,
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
    maxBodyBytes: e.MAX_BODY_BYTES,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    browser: {
      chromiumPath: e.CHROMIUM_PATH,
      sandbox: e.CHROMIUM_SANDBOX,
      wsEndpoint: e.BROWSER_WS_ENDPOINT,
      maxPages: e.BROWSER_MAX_PAGES,
      maxQueue: e.BROWSER_MAX_QUEUE,
      queueTimeoutMs: e.BROWSER_QUEUE_TIMEOUT_MS,
      recycleAfter: e.BROWSER_RECYCLE_AFTER,
      preparedContexts: e.BROWSER_PREPARED_CONTEXTS,
      navigationTimeoutMaxMs: e.NAVIGATION_TIMEOUT_MAX_MS,
    },
    egress: {
      allowPrivateNetworks: e.ALLOW_PRIVATE_NETWORKS,
      allowPrivateHosts: e.ALLOW_PRIVATE_HOSTS,
    },
    plans: {
      free: {
        requestsPerHour: e.FREE_REQUESTS_PER_HOUR,
        concurrency: e.FREE_CONCURRENCY,
        monthlyCredits: e.FREE_MONTHLY_CREDITS,
        fileRetentionDays: e.FREE_FILE_RETENTION_DAYS,
      },
      pro: {
        requestsPerHour: e.PRO_REQUESTS_PER_HOUR,
        concurrency: e.PRO_CONCURRENCY,
        monthlyCredits: e.PRO_MONTHLY_CREDITS,
        fileRetentionDays: e.PRO_FILE_RETENTION_DAYS,
      },
    },
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
    web: {
      creditCosts: {
        screenshot: e.SCREENSHOT_CREDIT_COST,
        pdf: e.PDF_CREDIT_COST,
        content: e.CONTENT_CREDIT_COST,
        markdown: e.MARKDOWN_CREDIT_COST,
        scrape: e.SCRAPE_CREDIT_COST,
        links: e.LINKS_CREDIT_COST,
      },
      cacheTtlSeconds: e.CACHE_TTL_SECONDS,
      screenshotMaxHeight: e.SCREENSHOT_MAX_HEIGHT,
      scrapeMaxSelectors: e.SCRAPE_MAX_SELECTORS,
      scrapeMaxResults: e.SCRAPE_MAX_RESULTS,
    },
  };
}

function stripTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}
