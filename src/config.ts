import { resolve } from 'node:path';
import { z } from 'zod';

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

  MAX_BODY_BYTES: positiveInt.default(1024 * 1024),
  SHUTDOWN_GRACE_MS: nonNegativeInt.default(10_000),

  FREE_REQUESTS_PER_HOUR: positiveInt.default(1000),
  PRO_REQUESTS_PER_HOUR: positiveInt.default(10_000),
  FREE_CONCURRENCY: positiveInt.default(5),
  PRO_CONCURRENCY: positiveInt.default(20),
  FREE_MONTHLY_CREDITS: nonNegativeInt.default(1000),
  PRO_MONTHLY_CREDITS: nonNegativeInt.default(100_000),
  FREE_FILE_RETENTION_DAYS: positiveInt.default(7),
  PRO_FILE_RETENTION_DAYS: positiveInt.default(30),
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
  maxBodyBytes: number;
  shutdownGraceMs: number;
  plans: Record<PlanName, PlanLimits>;
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
    maxBodyBytes: e.MAX_BODY_BYTES,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
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
  };
}

function stripTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}
