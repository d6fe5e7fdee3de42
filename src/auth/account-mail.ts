import type { Config } from '../config.js';
import type { MailDelivery, Mailer } from './mailer.js';

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
  ) {}

  get delivery(): MailDelivery {
    return this.mailer.delivery;
  }

  async sendVerification(to: string, token: string): Promise<void> {
    const link = `${this.config.publicBaseUrl}${VERIFY_EMAIL_PATH}?token=${encodeURIComponent(token)}`;
    await this.mailer.send({
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
    await this.mailer.send({
      to,
      subject: 'Set your Pluck password',
      text:
        `${why}\n\n${link}\n\n` +
        `The link works once, for ${hours(this.config.passwordResetTtlSeconds)}. ` +
        'Setting a password ends every session of the account. If you did not ask for this, ignore this message.\n',
      link,
    });
  }
}

function hours(seconds: number): string {
  if (seconds < 3600) return `${Math.round(seconds / 60)} minutes`;
  const value = Math.round(seconds / 360) / 10;
  return `${value} hour${value === 1 ? '' : 's'}`;
}
