import { createHash } from 'node:crypto';
import type { BetterAuthOptions } from 'better-auth';
import type { DBAdapter, Where } from '@better-auth/core/db/adapter';

type AdapterFactory = (options: BetterAuthOptions) => DBAdapter<BetterAuthOptions>;
type Row = Record<string, unknown>;

const SESSION_MODEL = 'session';
const TOKEN_FIELD = 'token';

/** What the session table keeps of a token: its SHA-256. Tokens are 32 random characters, so a fast hash is enough. */
export function sessionTokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

function hashWhere(model: string, where: Where[] | undefined): { where: Where[] | undefined; token: string | undefined } {
  if (model !== SESSION_MODEL || !where) return { where, token: undefined };
  let token: string | undefined;
  const hashed = where.map((clause) => {
    if (clause.field !== TOKEN_FIELD) return clause;
    if (typeof clause.value === 'string') {
      token = clause.value;
      return { ...clause, value: sessionTokenDigest(clause.value) };
    }
    if (Array.isArray(clause.value)) return { ...clause, value: clause.value.map((value) => sessionTokenDigest(String(value))) };
    return clause;
  });
  return { where: hashed, token };
}

/** The row as better-auth expects it: carrying the token the caller presented, not its digest. */
function withToken<T>(row: T, token: string | undefined): T {
  if (!token || !row || typeof row !== 'object' || !(TOKEN_FIELD in row)) return row;
  return { ...(row as Row), [TOKEN_FIELD]: token } as T;
}

function hashUpdate(model: string, update: Row): Row {
  if (model !== SESSION_MODEL || typeof update[TOKEN_FIELD] !== 'string') return update;
  return { ...update, [TOKEN_FIELD]: sessionTokenDigest(update[TOKEN_FIELD]) };
}

function wrap(adapter: DBAdapter<BetterAuthOptions>): DBAdapter<BetterAuthOptions> {
  return {
    ...adapter,
    create: async <T extends Record<string, unknown>, R = T>(args: { model: string; data: Omit<T, 'id'> }) => {
      const data = args.data as Row;
      if (args.model !== SESSION_MODEL || typeof data[TOKEN_FIELD] !== 'string') return adapter.create<T, R>(args);
      const created = await adapter.create<T, R>({ ...args, data: hashUpdate(args.model, data) as Omit<T, 'id'> });
      return withToken(created, data[TOKEN_FIELD]);
    },
    findOne: async (args) => {
      const { where, token } = hashWhere(args.model, args.where);
      return withToken(await adapter.findOne({ ...args, where: where! }), token);
    },
    // Rows found by user, not by token, keep their digest: it is not a usable token.
    findMany: async (args) => adapter.findMany({ ...args, where: hashWhere(args.model, args.where).where }),
    count: async (args) => adapter.count({ ...args, where: hashWhere(args.model, args.where).where }),
    update: async (args) => {
      const { where, token } = hashWhere(args.model, args.where);
      return withToken(await adapter.update({ ...args, where: where!, update: hashUpdate(args.model, args.update) }), token);
    },
    updateMany: async (args) =>
      adapter.updateMany({ ...args, where: hashWhere(args.model, args.where).where!, update: hashUpdate(args.model, args.update) }),
    delete: async (args) => adapter.delete({ ...args, where: hashWhere(args.model, args.where).where! }),
    deleteMany: async (args) => adapter.deleteMany({ ...args, where: hashWhere(args.model, args.where).where! }),
    consumeOne: async (args) => {
      const { where, token } = hashWhere(args.model, args.where);
      return withToken(await adapter.consumeOne({ ...args, where: where! }), token);
    },
    incrementOne: async (args) => {
      const { where, token } = hashWhere(args.model, args.where);
      return withToken(await adapter.incrementOne({ ...args, where: where! }), token);
    },
    transaction: (callback) => adapter.transaction((trx) => callback(wrap(trx as DBAdapter<BetterAuthOptions>))),
  };
}

/**
 * better-auth keeps session tokens in the `session` table as they are, so anyone who reads the
 * database (a backup, a replica) could use them. This adapter stores their SHA-256 instead and
 * hashes every lookup, so the column holds nothing a caller can present: a digest sent as a
 * bearer token is hashed again and matches nothing. Rows found by token carry the presented
 * token back to better-auth, which refreshes and deletes sessions by it.
 */
export function withHashedSessionTokens(factory: AdapterFactory): AdapterFactory {
  return (options) => wrap(factory(options));
}
