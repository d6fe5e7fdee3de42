import type { Logger } from 'pino';
import { AccountMail } from '../auth/account-mail.js';
import { ApiKeyService } from '../auth/api-keys.service.js';
import { type Auth, type AuthDependencies, createAuth } from '../auth/auth.js';
import type { AuthEventRelay } from '../auth/auth-events.js';
import { AuthLimits } from '../auth/auth-limits.js';
import { Authenticator } from '../auth/authenticator.js';
import { Credentials } from '../auth/credentials.js';
import { EmailVerification } from '../auth/email-verification.js';
import type { Mailer } from '../auth/mailer.js';
import type { Config } from '../config.js';
import type { DatabaseHandle } from '../db/database.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import { AccountService } from './account.service.js';
import { Billing } from './billing.js';
import { CreditStore } from './credits.js';

/** Accounts, their credentials and keys, their credits. */
export interface AccountServices {
  auth: Auth;
  authenticator: Authenticator;
  /** The account messages (verification and reset links) and where they go. */
  accountMail: AccountMail;
  /** Passwords, reset links and the admin-address rule. */
  credentials: Credentials;
  /** Single-use verification links. */
  emailVerification: EmailVerification;
  /** Attempt limits of sign-in, sign-up and the mail-sending auth routes. */
  authLimits: AuthLimits;
  apiKeys: ApiKeyService;
  credits: CreditStore;
  accounts: AccountService;
  billing: Billing;
}

export interface AccountDependencies {
  config: Config;
  database: DatabaseHandle;
  logger: Logger;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  /** What better-auth is built with (its migrations ran with the same); its events go to `events`. */
  auth: AuthDependencies & { events: AuthEventRelay };
}

export function createAccountServices({ config, database, logger, mailer, rateLimiter, auth: authDeps }: AccountDependencies): AccountServices {
  const auth = createAuth(authDeps);
  const credits = new CreditStore(database.db);
  const accountMail = new AccountMail(mailer, config, logger.child({ component: 'mail' }));
  const accounts = new AccountService(database.db, credits, config, database.dialect);
  const credentials = new Credentials(auth, database.db, config, accountMail);
  const emailVerification = new EmailVerification(auth, credentials, accountMail, config.emailVerificationTtlSeconds);
  authDeps.events.connect({
    userCreated: (user) => accounts.onUserCreated(user.id),
    verificationRequested: (user) => emailVerification.issue(user),
    passwordResetRequested: (user, token) => credentials.onPasswordResetRequested(user, token),
    passwordReset: (user) => credentials.onPasswordReset(user),
  });
  return {
    auth,
    authenticator: new Authenticator(auth, database.db, config),
    accountMail,
    credentials,
    emailVerification,
    authLimits: new AuthLimits(rateLimiter, config.authLimits),
    apiKeys: new ApiKeyService(auth, database.db),
    credits,
    accounts,
    billing: new Billing(credits, accounts),
  };
}
