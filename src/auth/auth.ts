import { apiKey } from '@better-auth/api-key';
import { betterAuth, type BetterAuthOptions } from 'better-auth';
import { bearer } from 'better-auth/plugins';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { DatabaseHandle } from '../db/database.js';
import type { Mailer } from './mailer.js';

/** Prefix of every API key Pluck issues; lets the auth middleware tell keys from session tokens. */
export const API_KEY_PREFIX = 'pk_';

export interface AuthDependencies {
  config: Config;
  database: DatabaseHandle;
  secret: string;
  mailer: Mailer;
  logger: Logger;
  /** Called once for every account created, whatever the route (sign-up, CLI). */
  onUserCreated: (user: { id: string; email: string }) => Promise<void>;
}

/** Path of Pluck's own verification endpoint, which users reach from the e-mail link. */
export const VERIFY_EMAIL_PATH = '/v1/user/verify-email-token';

/**
 * better-auth checks the schema when an instance is created and keeps a mismatch until one of
 * its own migrations clears it. So the instance must be made after the tables exist: build the
 * options, migrate with them (`authOptions` is all getMigrations needs), then `createAuth`.
 * Otherwise an instance that finds the migrations already done by another (two starting at
 * once) answers every auth call with SCHEMA_MISMATCH for the rest of its life.
 */
export function createAuth(deps: AuthDependencies) {
  return betterAuth(authOptions(deps));
}

export function authOptions({ config, database, secret, mailer, logger, onUserCreated }: AuthDependencies) {
  const authLog = logger.child({ component: 'auth' });
  return {
    appName: 'Pluck',
    baseURL: config.publicBaseUrl,
    basePath: '/v1/auth',
    secret,
    database: { db: database.db, type: database.dialect },
    trustedOrigins: config.trustedOrigins,
    logger: {
      log: (level, message) => {
        // better-auth logs key-verification failures; their text never holds the key itself.
        const method = level === 'error' || level === 'warn' ? level : 'debug';
        authLog[method]({ source: 'better-auth' }, message);
      },
    },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      requireEmailVerification: config.requireEmailVerification,
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: false,
      sendVerificationEmail: async ({ user, token }) => {
        // Users land on Pluck's endpoint, which redirects only to FRONTEND_URL: no caller-chosen target.
        const link = `${config.publicBaseUrl}${VERIFY_EMAIL_PATH}?token=${encodeURIComponent(token)}`;
        await mailer.send({
          to: user.email,
          subject: 'Verify your e-mail for Pluck',
          text: `Open this link to verify your e-mail address:\n\n${link}\n`,
          link,
        });
      },
    },
    user: {
      additionalFields: {
        // input: false: sign-up and update-user bodies can never set these.
        plan: { type: 'string', required: false, defaultValue: 'free', input: false },
        role: { type: 'string', required: false, defaultValue: 'user', input: false },
      },
    },
    databaseHooks: {
      user: {
        create: {
          after: async (user) => {
            await onUserCreated({ id: user.id, email: user.email });
          },
        },
      },
    },
    // Pluck's own /v1/api-keys routes are the one way to manage keys.
    disabledPaths: ['/api-key/create', '/api-key/update', '/api-key/delete', '/api-key/list', '/api-key/get'],
    rateLimit: { enabled: config.env === 'production', window: 60, max: 100 },
    advanced: {
      ipAddress: { disableIpTracking: true },
      // better-auth turns these checks off when it detects a test runner; keep them on
      // everywhere so tests exercise what production runs.
      disableOriginCheck: false,
      disableCSRFCheck: false,
    },
    plugins: [
      bearer(),
      apiKey({
        defaultPrefix: API_KEY_PREFIX,
        defaultKeyLength: 48,
        requireName: true,
        maximumNameLength: 64,
        enableMetadata: true,
        rateLimit: { enabled: false },
        keyExpiration: { defaultExpiresIn: null, minExpiresIn: 1, maxExpiresIn: 365 },
        startingCharactersConfig: { shouldStore: true, charactersLength: 10 },
      }),
    ],
  } satisfies BetterAuthOptions;
}

export type Auth = ReturnType<typeof createAuth>;
