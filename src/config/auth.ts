import { z } from 'zod';
import { booleanFlag, commaList, positiveInt } from './env-values.js';

/** Sign-up, sign-in and the mail they send (src/auth, src/accounts). */
export const authSection = z
  .object({
    /** Admin addresses, compared in lower case. */
    ADMIN_EMAILS: commaList.default([]),
    /** Unset: generated into DATA_DIR/auth-secret. */
    AUTH_SECRET: z.string().min(32, 'AUTH_SECRET must be at least 32 characters').optional(),
    REQUIRE_EMAIL_VERIFICATION: booleanFlag.default(false),
    /** Unset: mails are logged. */
    SMTP_URL: z.string().min(1).optional(),
    MAIL_FROM: z.string().min(3).default('Pluck <no-reply@localhost>'),
    /** Lifetimes of the single-use links Pluck mails. */
    EMAIL_VERIFICATION_TTL_SECONDS: positiveInt.min(300).max(7 * 86_400).default(86_400),
    PASSWORD_RESET_TTL_SECONDS: positiveInt.min(300).max(86_400).default(3600),
    /**
     * Attempts allowed per window on the auth routes (src/auth/auth-limits.ts), per client
     * address and per e-mail address, so neither one address nor one mailbox can be hammered.
     */
    AUTH_LIMIT_WINDOW_SECONDS: positiveInt.max(86_400).default(900),
    AUTH_SIGN_IN_PER_ADDRESS: positiveInt.default(30),
    AUTH_SIGN_IN_PER_EMAIL: positiveInt.default(10),
    AUTH_SIGN_UP_PER_ADDRESS: positiveInt.default(5),
    /** Routes that send mail: verification and password-reset requests (sign-up counts per e-mail too). */
    AUTH_MAIL_PER_ADDRESS: positiveInt.default(10),
    AUTH_MAIL_PER_EMAIL: positiveInt.default(3),
  })
  .transform((e) => ({
    adminEmails: new Set(e.ADMIN_EMAILS.map((email) => email.toLowerCase())) as ReadonlySet<string>,
    authSecret: e.AUTH_SECRET,
    requireEmailVerification: e.REQUIRE_EMAIL_VERIFICATION,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    emailVerificationTtlSeconds: e.EMAIL_VERIFICATION_TTL_SECONDS,
    passwordResetTtlSeconds: e.PASSWORD_RESET_TTL_SECONDS,
    authLimits: {
      windowSeconds: e.AUTH_LIMIT_WINDOW_SECONDS,
      signInPerAddress: e.AUTH_SIGN_IN_PER_ADDRESS,
      signInPerEmail: e.AUTH_SIGN_IN_PER_EMAIL,
      signUpPerAddress: e.AUTH_SIGN_UP_PER_ADDRESS,
      mailPerAddress: e.AUTH_MAIL_PER_ADDRESS,
      mailPerEmail: e.AUTH_MAIL_PER_EMAIL,
    },
  }));
