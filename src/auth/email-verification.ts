import { randomBytes } from 'node:crypto';
import type { AccountMail } from './account-mail.js';
import type { Auth } from './auth.js';
import type { Credentials } from './credentials.js';

/** Marks Pluck's verification tokens among the values in better-auth's `verification` table. */
const IDENTIFIER_PREFIX = 'verify-email:';

/**
 * What a verification link did: verified the address; verified an ADMIN_EMAILS address whose
 * password predates the proof, so the old access ended and a reset link was sent (`mailFailed`
 * when the mail server refused it); or nothing (unknown, used or expired token).
 */
export type VerificationOutcome = { result: 'verified' | 'invalid' } | { result: 'set-password'; mailFailed: boolean };

interface Claim {
  userId: string;
  email: string;
}

function parseClaim(value: string): Claim | undefined {
  try {
    const parsed = JSON.parse(value) as Partial<Claim>;
    return typeof parsed.userId === 'string' && typeof parsed.email === 'string' ? { userId: parsed.userId, email: parsed.email } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * E-mail verification links with single-use, expiring tokens. A token lives in better-auth's
 * `verification` table under its SHA-256 (verification.storeIdentifier: 'hashed') and is taken
 * out atomically when used, so a link works once, also when clicked twice at the same moment
 * or on two instances.
 */
export class EmailVerification {
  constructor(
    private readonly auth: Auth,
    private readonly credentials: Credentials,
    private readonly mail: AccountMail,
    private readonly ttlSeconds: number,
  ) {}

  async issue(user: { id: string; email: string }): Promise<void> {
    const token = randomBytes(24).toString('base64url');
    const { internalAdapter } = await this.auth.$context;
    await internalAdapter.createVerificationValue({
      identifier: `${IDENTIFIER_PREFIX}${token}`,
      value: JSON.stringify({ userId: user.id, email: user.email.toLowerCase() } satisfies Claim),
      expiresAt: new Date(Date.now() + this.ttlSeconds * 1000),
    });
    await this.mail.sendVerification(user.email, token);
  }

  async verify(token: string): Promise<VerificationOutcome> {
    const { internalAdapter } = await this.auth.$context;
    const row = await internalAdapter.consumeVerificationValue(`${IDENTIFIER_PREFIX}${token}`);
    const claim = row ? parseClaim(row.value) : undefined;
    if (!claim) return { result: 'invalid' };
    const user = await internalAdapter.findUserById(claim.userId);
    // The link proves the address it was sent to, and nothing once the account has another.
    if (!user || user.email.toLowerCase() !== claim.email) return { result: 'invalid' };
    if (this.credentials.isAdminAddress(user.email) && !(await this.credentials.isPasswordProven(user.id))) {
      // Whoever chose this password had not proven the address: it must not become an admin's.
      await this.credentials.revokeUnprovenAccess(user.id);
      // The token is spent and the old access gone: a refused mail must not undo that (the owner can ask again).
      const { mailFailed } = await this.credentials.requestPasswordReset(user.email);
      return { result: 'set-password', mailFailed };
    }
    if (!user.emailVerified) await internalAdapter.updateUser(user.id, { emailVerified: true });
    return { result: 'verified' };
  }
}
