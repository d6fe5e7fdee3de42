import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getMigrations } from 'better-auth/db/migration';
import pino, { type Logger } from 'pino';
import { AccountService } from './accounts/account.service.js';
import { Billing } from './accounts/billing.js';
import { CreditStore } from './accounts/credits.js';
import { type Auth, createAuth } from './auth/auth.js';
import { ApiKeyService } from './auth/api-keys.service.js';
import { Authenticator } from './auth/authenticator.js';
import { createLogMailer, createSmtpMailer, type Mailer } from './auth/mailer.js';
import type { Config } from './config.js';
import { type DatabaseHandle, openDatabase } from './db/database.js';
import { migrate } from './db/migrations.js';
import { MemoryRateLimiter } from './limits/memory-rate-limiter.js';
import type { RateLimiter } from './limits/rate-limiter.js';

/** Everything a running Pluck holds, built once per process. */
export interface AppContext {
  config: Config;
  logger: Logger;
  database: DatabaseHandle;
  mailer: Mailer;
  auth: Auth;
  authenticator: Authenticator;
  apiKeys: ApiKeyService;
  credits: CreditStore;
  accounts: AccountService;
  billing: Billing;
  rateLimiter: RateLimiter;
}

/** Parts a test or an embedding program may supply instead of the defaults. */
export interface ContextOverrides {
  logger?: Logger;
  mailer?: Mailer;
  rateLimiter?: RateLimiter;
}

/** The composition root: picks each implementation from config, runs migrations. */
export async function createContext(config: Config, overrides: ContextOverrides = {}): Promise<AppContext> {
  const logger = overrides.logger ?? pino({ level: config.logLevel, redact: ['req.headers.authorization', '*.key', '*.password'] });
  const database = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const mailer = overrides.mailer ?? (config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.mailFrom) : createLogMailer(logger));
    const credits = new CreditStore(database.db);
    const secret = config.authSecret ?? readOrCreateSecret(config.dataDir, database.dialect);
    // `accounts` needs `auth` and better-auth's user hook needs `accounts`: bind late.
    let accounts: AccountService | undefined;
    const auth = createAuth({
      config,
      database,
      secret,
      mailer,
      logger,
      onUserCreated: async (user) => accounts!.onUserCreated(user.id),
    });
    await migrate(database, async () => {
      const { runMigrations } = await getMigrations(auth.options);
      await runMigrations();
    });
    const authenticator = new Authenticator(auth, database.db, config);
    accounts = new AccountService(database.db, credits, config, database.dialect);
    const rateLimiter = overrides.rateLimiter ?? new MemoryRateLimiter();
    const apiKeys = new ApiKeyService(auth, database.db);
    const billing = new Billing(credits, accounts);
    return { config, logger, database, mailer, auth, authenticator, apiKeys, credits, accounts, billing, rateLimiter };
  } catch (error) {
    await database.close();
    throw error;
  }
}

export async function closeContext(ctx: AppContext): Promise<void> {
  await ctx.rateLimiter.close();
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
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'auth-secret');
  try {
    writeFileSync(path, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(path, 'utf8').trim();
}
