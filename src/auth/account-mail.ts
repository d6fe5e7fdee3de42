import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { MailDelivery, MailMessage, Mailer } from './mailer.js';

/** Thrown when the mail server did not take a message and the caller does not tolerate it. */
export class MailUnavailable extends Error {
  constructor(cause?: unknown) {
    super('The mail server did not take the message', { cause });
    this.name = 'MailUnavailable';
  }
}

const tolerance = new AsyncLocalStorage<{ failed: boolean }>();

/**
 * Runs `work` so that a message the mail server refuses does not fail it (the refusal is
 * logged); answers whether one was refused. Sign-up runs so, since its account exists by the
 * time the verification mail goes out, and so do the routes that must answer alike for any
 * address: a failure only for addresses with an account would tell which have one.
 */
export async function toleratingMailFailure<T>(work: () => Promise<T>): Promise<{ value: T; mailFailed: boolean }> {
  const state = { failed: false };
  const value = await tolerance.run(state, work);
  return { value, mailFailed: state.failed };
}

/** Path of Pluck's own verification endpoint, which users reach from the e-mail link. */
export const VERIFY_EMAIL_PATH = '/v1/user/verify-email-token';

/** The dashboard page a reset link opens; it asks for the new password and posts it with the token. */
export const RESET_PASSWORD_PAGE = '/reset-password';

/** Why a reset link is sent: asked for, or needed before an ADMIN_EMAILS address gets its rights. */
export type ResetReason = 'requested' | 'admin-address';

/**
 * The messages Pluck sends about an account. Links carry single-use tokens and point only at
 * PUBLIC_BASE_URL (verification) or FRONTEND_URL (the reset page), never at a caller's URL.
 */
export class AccountMail {
  constructor(
    private readonly mailer: Mailer,
    private readonly config: Pick<Config, 'publicBaseUrl' | 'frontendUrl' | 'emailVerificationTtlSeconds' | 'passwordResetTtlSeconds'>,
    private readonly logger: Logger,
  ) {}

  get delivery(): MailDelivery {
    return this.mailer.delivery;
  }

  async sendVerification(to: string, token: string): Promise<void> {
    const link = `${this.config.publicBaseUrl}${VERIFY_EMAIL_PATH}?token=${encodeURIComponent(token)}`;
    await this.deliver({
      to,
      subject: 'Verify your e-mail for Pluck',
      text:
        `Open this link to verify your e-mail address:\n\n${link}\n\n` +
        `It works once, for ${hours(this.config.emailVerificationTtlSeconds)}. ` +
        "If you did not sign up for Pluck, ignore this message.\n",
      link,
    });
  }

  async sendPasswordReset(to: string, token: string, reason: ResetReason = 'requested'): Promise<void> {
    const link = `${this.config.frontendUrl}${RESET_PASSWORD_PAGE}?token=${encodeURIComponent(token)}`;
    const why =
      reason === 'admin-address'
        ? 'Your Pluck account uses an administrator address. Its administrator rights start once a password ' +
          'is set through a link like this one, which proves the address is yours. Choose a password here:'
        : 'Someone (hopefully you) asked to reset the password of your Pluck account. Choose a new password here:';
    await this.deliver({
      to,
      subject: 'Set your Pluck password',
      text:
        `${why}\n\n${link}\n\n` +
        `The link works once, for ${hours(this.config.passwordResetTtlSeconds)}. ` +
        'Setting a password ends every session of the account. If you did not ask for this, ignore this message.\n',
      link,
    });
  }

  /** A refused message is logged (never its link), then thrown as MailUnavailable unless the caller tolerates it. */
  private async deliver(message: MailMessage): Promise<void> {
    try {
      await this.mailer.send(message);
    } catch (error) {
      this.logger.error({ err: error, subject: message.subject }, 'e-mail could not be sent');
      const tolerant = tolerance.getStore();
      if (tolerant) {
        tolerant.failed = true;
        return;
      }
      throw new MailUnavailable(error);
    }
  }
}

function hours(seconds: number): string {
  if (seconds < 3600) return `${Math.round(seconds / 60)} minutes`;
  const value = Math.round(seconds / 360) / 10;
  return `${value} hour${value === 1 ? '' : 's'}`;
}
