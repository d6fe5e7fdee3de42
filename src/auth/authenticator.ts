import { type Kysely, sql } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { databaseUnavailable } from '../db/database.js';
import { API_KEY_PREFIX, type Auth } from './auth.js';
import { type Principal, type PrincipalUser, toIsoString, toPlan } from './principal.js';

/**
 * Turns an `Authorization: Bearer ...` header into a Principal. API keys are recognised by
 * their prefix and checked by better-auth's key plugin (a lookup by hash, so no secret is
 * compared byte by byte); anything else is tried as a session token. Only the header is
 * used: cookies and query strings never authenticate an API call.
 */
export class Authenticator {
  constructor(
    private readonly auth: Auth,
    private readonly db: Kysely<Database>,
    private readonly config: Config,
  ) {}

  async resolve(authorization: string | undefined): Promise<Principal | undefined> {
    const token = bearerToken(authorization);
    if (!token) return undefined;
    const principal = await (token.startsWith(API_KEY_PREFIX) ? this.fromApiKey(token) : this.fromSession(authorization!));
    if (!principal) await this.assertDatabaseReachable();
    return principal;
  }

  /**
   * better-auth reports a key or session it could not look up the same way as an unknown one,
   * so a database outage would tell every caller that their valid key is invalid (401). A
   * refused credential therefore costs one `select 1`: if that fails too, the answer is 503.
   */
  private async assertDatabaseReachable(): Promise<void> {
    try {
      await sql`select 1`.execute(this.db);
    } catch (error) {
      throw databaseUnavailable(error);
    }
  }

  /**
   * Admin by an operator's act (role `admin`: the admin CLI, or another admin), or by an
   * ADMIN_EMAILS address whose password was set after the address was proven. A verified
   * address alone is not enough: whoever registered it first chose the password.
   */
  isAdmin(user: Pick<PrincipalUser, 'email' | 'emailVerified' | 'role' | 'passwordProven'>): boolean {
    if (user.role === 'admin') return true;
    return user.emailVerified && user.passwordProven && this.config.adminEmails.has(user.email.toLowerCase());
  }

  private async fromApiKey(key: string): Promise<Principal | undefined> {
    const result = await this.auth.api.verifyApiKey({ body: { key } });
    if (!result.valid || !result.key) return undefined;
    const user = await this.loadUser(result.key.referenceId);
    if (!user) return undefined;
    // better-auth counts requests only inside its rate-limit window; the key record shows lifetime use.
    await this.db
      .updateTable('apikey')
      .set((eb) => ({ requestCount: eb('requestCount', '+', 1) }))
      .where('id', '=', result.key.id)
      .execute();
    return {
      kind: 'api-key',
      userId: user.id,
      user,
      isAdmin: this.isAdmin(user),
      apiKey: { id: result.key.id, name: result.key.name ?? null, start: result.key.start ?? null },
    };
  }

  private async fromSession(authorization: string): Promise<Principal | undefined> {
    const found = await this.auth.api.getSession({ headers: new Headers({ authorization }) });
    if (!found) return undefined;
    const user = normaliseUser(found.user as unknown as Record<string, unknown>);
    return {
      kind: 'session',
      userId: user.id,
      user,
      isAdmin: this.isAdmin(user),
      session: { id: found.session.id, expiresAt: toIsoString(found.session.expiresAt) },
    };
  }

  async loadUser(userId: string): Promise<PrincipalUser | undefined> {
    const row = await this.db
      .selectFrom('user')
      .select(['id', 'email', 'name', 'emailVerified', 'plan', 'role', 'passwordProvenAt', 'createdAt'])
      .where('id', '=', userId)
      .executeTakeFirst();
    return row && normaliseUser(row as unknown as Record<string, unknown>);
  }
}

function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

function normaliseUser(row: Record<string, unknown>): PrincipalUser {
  return {
    id: String(row.id),
    email: String(row.email),
    name: String(row.name ?? ''),
    emailVerified: row.emailVerified === true || row.emailVerified === 1,
    plan: toPlan(row.plan),
    role: typeof row.role === 'string' ? row.role : 'user',
    passwordProven: row.passwordProvenAt !== null && row.passwordProvenAt !== undefined && row.passwordProvenAt !== '',
    createdAt: toIsoString(row.createdAt),
  };
}
