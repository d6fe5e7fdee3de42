import type { Kysely, Selectable } from 'kysely';
import type { ApiKeyTable, Database } from '../db/schema.js';
import { AppError, notFound } from '../errors/app-error.js';
import type { Auth } from './auth.js';
import { toIsoString } from './principal.js';

/** The spec's API key record. Never includes the secret or its hash. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  start: string;
  prefix: string;
  userId: string;
  enabled: boolean;
  requestCount: number;
  remaining: number | null;
  lastRequest: string | null;
  expiresAt: string | null;
  createdAt: string;
  updatedAt: string;
  metadata: Record<string, unknown>;
}

const RECORD_COLUMNS = [
  'id',
  'name',
  'start',
  'prefix',
  'referenceId',
  'enabled',
  'requestCount',
  'remaining',
  'lastRequest',
  'expiresAt',
  'createdAt',
  'updatedAt',
  'metadata',
] as const;

type KeyRow = Pick<Selectable<ApiKeyTable>, (typeof RECORD_COLUMNS)[number]>;

/**
 * API keys of one owner. Creation goes through better-auth (which generates and hashes the
 * secret); reads and revocation are plain queries scoped to the owner, so another user's key
 * is indistinguishable from a missing one.
 */
export class ApiKeyService {
  constructor(
    private readonly auth: Auth,
    private readonly db: Kysely<Database>,
  ) {}

  /** A new key; refused (403 API_KEY_LIMIT_REACHED) when the account already holds `maxKeys` (operators' tools pass none). */
  async create(userId: string, name: string, expiresInSeconds?: number, maxKeys = Number.POSITIVE_INFINITY): Promise<ApiKeyRecord & { key: string }> {
    const { count } = await this.db
      .selectFrom('apikey')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('referenceId', '=', userId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= maxKeys) {
      throw new AppError('API_KEY_LIMIT_REACHED', `This account holds ${maxKeys} API keys, the most its plan allows; revoke one first`);
    }
    // A server-side call with `userId`: the owner always comes from the authenticated principal.
    const created = await this.auth.api.createApiKey({
      body: { name, userId, ...(expiresInSeconds === undefined ? {} : { expiresIn: expiresInSeconds }) },
    });
    const record = await this.get(userId, created.id);
    return { ...record, key: created.key };
  }

  async list(userId: string): Promise<ApiKeyRecord[]> {
    const rows = await this.db
      .selectFrom('apikey')
      .select(RECORD_COLUMNS)
      .where('referenceId', '=', userId)
      .orderBy('createdAt', 'desc')
      .execute();
    return rows.map(toRecord);
  }

  async get(userId: string, id: string): Promise<ApiKeyRecord> {
    const row = await this.db
      .selectFrom('apikey')
      .select(RECORD_COLUMNS)
      .where('id', '=', id)
      .where('referenceId', '=', userId)
      .executeTakeFirst();
    if (!row) throw notFound('API key');
    return toRecord(row);
  }

  /** Whose key this is; undefined for an unknown id. For operators, who name keys by id alone. */
  async ownerOf(id: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('apikey').select('referenceId').where('id', '=', id).executeTakeFirst();
    return row?.referenceId;
  }

  /** Deletes the key; the next request made with it fails authentication. */
  async revoke(userId: string, id: string): Promise<ApiKeyRecord> {
    const record = await this.get(userId, id);
    await this.db.deleteFrom('apikey').where('id', '=', id).where('referenceId', '=', userId).execute();
    return record;
  }
}

function toRecord(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name ?? '',
    start: row.start ?? '',
    prefix: row.prefix ?? '',
    userId: row.referenceId,
    enabled: row.enabled === true || row.enabled === 1,
    requestCount: Number(row.requestCount ?? 0),
    remaining: row.remaining === null ? null : Number(row.remaining),
    lastRequest: row.lastRequest ? toIsoString(row.lastRequest) : null,
    expiresAt: row.expiresAt ? toIsoString(row.expiresAt) : null,
    createdAt: toIsoString(row.createdAt),
    updatedAt: toIsoString(row.updatedAt),
    metadata: parseMetadata(row.metadata),
  };
}

function parseMetadata(value: unknown): Record<string, unknown> {
  if (value && typeof value === 'object') return value as Record<string, unknown>;
  if (typeof value !== 'string' || value === '') return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
