import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { type AccountMail, toleratingMailFailure } from './account-mail.js';
import type { Auth } from './auth.js';

/** The provider id better-auth gives an e-mail and password login. */
const CREDENTIAL_PROVIDER = 'credential';

/**
 * Passwords and what hangs on them: reset links, operator-set passwords, and the rule that
 * makes an ADMIN_EMAILS address admin only once its password was set by someone who proved
 * the address (or by an operator). Everything a password lets in (sessions, and for an
 * unproven admin address its API keys) ends when it is replaced.
 */
export class Credentials {
  constructor(
    private readonly auth: Auth,
    private readonly db: Kysely<Database>,
    private readonly config: Pick<Config, 'adminEmails'>,
    private readonly mail: AccountMail,
  ) {}

  isAdminAddress(email: string): boolean {
    return this.config.adminEmails.has(email.toLowerCase());
  }

  /**
   * Mails a reset link (nothing for an address without an account); answers whether the mail
   * server refused it, which better-auth itself would only log.
   */
  async requestPasswordReset(email: string): Promise<{ mailFailed: boolean }> {
    const { mailFailed } = await toleratingMailFailure(() => this.auth.api.requestPasswordReset({ body: { email } }));
    return { mailFailed };
  }

  /** better-auth made a reset token for `user`: mail it. */
  async onPasswordResetRequested(user: { id: string; email: string }, token: string): Promise<void> {
    const proven = await this.isPasswordProven(user.id);
    await this.mail.sendPasswordReset(user.email, token, this.isAdminAddress(user.email) && !proven ? 'admin-address' : 'requested');
  }

  /**
   * A reset link was used, so whoever set this password reads the account's mailbox: the
   * address is verified and the password proven. On an admin address proven for the first
   * time, API keys made before (perhaps by someone who registered the address first) are
   * revoked, since they would otherwise become admin keys. better-auth ends the sessions.
   */
  async onPasswordReset(user: { id: string; email: string }): Promise<void> {
    const wasProven = await this.isPasswordProven(user.id);
    const { internalAdapter } = await this.auth.$context;
    await internalAdapter.updateUser(user.id, { emailVerified: true, passwordProvenAt: new Date() });
    if (!wasProven && this.isAdminAddress(user.email)) await this.revokeApiKeys(user.id);
  }

  /**
   * An admin address was just proven on an account whose password was chosen before: that
   * password, every session and every API key end, and the address counts as verified. The
   * owner sets a password through a reset link next.
   */
  async revokeUnprovenAccess(userId: string): Promise<void> {
    const { internalAdapter } = await this.auth.$context;
    for (const account of await internalAdapter.findAccounts(userId)) {
      if (account.providerId === CREDENTIAL_PROVIDER) await internalAdapter.deleteAccount(account.id);
    }
    await internalAdapter.deleteUserSessions(userId);
    await this.revokeApiKeys(userId);
    await internalAdapter.updateUser(userId, { emailVerified: true });
  }

  /**
   * An account an operator vouches for (the admin CLI): the address counts as verified and the
   * password, random and known to nobody, as proven; its owner sets one through a reset link.
   * No verification mail goes out.
   */
  async createVouchedAccount(email: string, name: string): Promise<string> {
    const context = await this.auth.$context;
    const user = await context.internalAdapter.createUser({ email: email.toLowerCase(), name, emailVerified: true }, { method: 'email-password' });
    const hash = await context.password.hash(randomBytes(24).toString('base64url'));
    await context.internalAdapter.linkAccount({ userId: user.id, providerId: CREDENTIAL_PROVIDER, accountId: user.id, password: hash });
    await this.markProven(user.id);
    return user.id;
  }

  /** An operator sets the password: it counts as proven, and every session of the old one ends. */
  async setPassword(userId: string, password: string): Promise<void> {
    const context = await this.auth.$context;
    const hash = await context.password.hash(password);
    const credential = await context.internalAdapter.findCredentialAccount(userId);
    if (credential) await context.internalAdapter.updatePassword(userId, hash);
    else await context.internalAdapter.linkAccount({ userId, providerId: CREDENTIAL_PROVIDER, accountId: userId, password: hash });
    await context.internalAdapter.deleteUserSessions(userId);
    await this.markProven(userId);
  }

  /** An operator vouches for the account's address and password (the admin CLI's create-key). */
  async markProven(userId: string): Promise<void> {
    const { internalAdapter } = await this.auth.$context;
    await internalAdapter.updateUser(userId, { passwordProvenAt: new Date() });
  }

  /** Ends every session of the account at once. */
  async endSessions(userId: string): Promise<void> {
    const { internalAdapter } = await this.auth.$context;
    await internalAdapter.deleteUserSessions(userId);
  }

  /** Sessions of the account that have not expired. */
  async countSessions(userId: string): Promise<number> {
    const { internalAdapter } = await this.auth.$context;
    return (await internalAdapter.listSessions(userId, { onlyActiveSessions: true })).length;
  }

  async isPasswordProven(userId: string): Promise<boolean> {
    const row = await this.db.selectFrom('user').select('passwordProvenAt').where('id', '=', userId).executeTakeFirst();
    return row?.passwordProvenAt != null;
  }

  private async revokeApiKeys(userId: string): Promise<void> {
    await this.db.deleteFrom('apikey').where('referenceId', '=', userId).execute();
  }
}
