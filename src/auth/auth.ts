import { apiKey } from '@better-auth/api-key';
import { kyselyAdapter } from '@better-auth/kysely-adapter';
import { betterAuth, type BetterAuthOptions } from 'better-auth';
import { bearer } from 'better-auth/plugins';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { DatabaseHandle } from '../db/database.js';
import { withHashedSessionTokens } from './session-tokens.js';

/** Prefix of every API key Pluck issues; lets the auth middleware tell keys from session tokens. */
export const API_KEY_PREFIX = 'pk_';

/** Longest user-agent kept on a session row: the header itself may be kilobytes. */
const MAX_STORED_USER_AGENT = 512;

/** What better-auth tells Pluck about, whatever the route (sign-up, CLI, reset link). */
export interface AuthEvents {
  /** Once for every account created. */
  userCreated(user: { id: string; email: string }): Promise<void>;
  /** An unverified account asked for (or, at sign-up, was given) a verification link. */
  verificationRequested(user: { id: string; email: string }): Promise<void>;
  /** A password reset was asked for; `token` is the single-use reset token to mail. */
  passwordResetRequested(user: { id: string; email: string }, token: string): Promise<void>;
  /** A reset link was used: its new password is set. */
  passwordReset(user: { id: string; email: string }): Promise<void>;
}

export interface AuthDependencies {
  config: Config;
  database: DatabaseHandle;
  secret: string;
  logger: Logger;
  events: AuthEvents;
}

/**
 * better-auth routes Pluck does not serve. Its HTTP surface is Pluck's own routes in
 * auth.routes.ts, which validate and forward to the handler; these are also closed in the
 * handler itself, so no server-side call reaches them by mistake either.
 */
const DISABLED_PATHS = [
  // Pluck's /v1/api-keys routes are the one way to manage keys.
  '/api-key/create',
  '/api-key/update',
  '/api-key/delete',
  '/api-key/list',
  '/api-key/get',
  // Verification is Pluck's single-use link (/v1/user/verify-email-token), and reset links open the dashboard.
  '/verify-email',
  '/reset-password/:token',
  // They hand out or take session tokens as stored, which are digests here (session-tokens.ts).
  '/list-sessions',
  '/revoke-session',
  '/revoke-other-sessions',
];

/**
 * better-auth checks the schema when an instance is created and keeps a mismatch until one of
 * its own migrations clears it. So the instance must be made after the tables exist: build the
 * options, migrate with them (`authOptions` is all getMigrations needs), then `createAuth`.
 * Otherwise an instance that finds the migrations already done by another (two starting at
 * once) answers every auth call with SCHEMA_MISMATCH for the rest of its life.
 */
export function createAuth(deps: AuthDependencies) {
  const { database } = deps;
  // The migration reads the plain Kysely form; the running instance stores session tokens hashed.
  return betterAuth({
    ...authOptions(deps),
    database: withHashedSessionTokens(kyselyAdapter(database.db, { type: database.dialect })),
  });
}

export function authOptions({ config, database, secret, logger, events }: AuthDependencies) {
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
      resetPasswordTokenExpiresIn: config.passwordResetTtlSeconds,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) => events.passwordResetRequested(user, token),
      onPasswordReset: async ({ user }) => events.passwordReset(user),
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: false,
      // better-auth's own token is a signed JWT that works until it expires, however often it
      // is used; Pluck mails a stored single-use token instead (email-verification.ts).
      sendVerificationEmail: async ({ user }) => events.verificationRequested(user),
    },
    // Reset and verification tokens are stored as SHA-256: the table holds nothing usable.
    verification: { storeIdentifier: 'hashed' },
    user: {
      additionalFields: {
        // input: false: sign-up and update-user bodies can never set these.
        plan: { type: 'string', required: false, defaultValue: 'free', input: false },
        role: { type: 'string', required: false, defaultValue: 'user', input: false },
        // When the password was last set by someone who had proven the address (a mailed reset
        // link) or by an operator; ADMIN_EMAILS counts only then (see Authenticator.isAdmin).
        passwordProvenAt: { type: 'date', required: false, input: false },
      },
    },
    databaseHooks: {
      user: {
        create: {
          after: async (user) => {
            await events.userCreated({ id: user.id, email: user.email });
          },
        },
      },
      session: {
        create: {
          before: async (session) => ({
            data: { ...session, userAgent: session.userAgent?.slice(0, MAX_STORED_USER_AGENT) ?? null },
          }),
        },
      },
    },
    disabledPaths: DISABLED_PATHS,
    // Pluck limits the auth routes itself (auth-limits.ts), per client address and e-mail,
    // shared through Redis; better-auth's limiter counts per instance only.
    rateLimit: { enabled: false },
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
