import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Config, PlanName } from '../config.js';
import type { Database, FileTable } from '../db/schema.js';
import { unlessBackendUnavailable } from '../errors/app-error.js';
import { BlobStoreUnavailable, type BlobStore, type StoredBlob } from './blob-store.js';

export type FileType = 'screenshot' | 'pdf';
export type FileSortField = 'created_at' | 'filename';

/** Sort fields map to fixed columns: text from a request never reaches the SQL. */
const SORT_COLUMNS = { created_at: 'created_at', filename: 'filename' } as const satisfies Record<FileSortField, keyof FileTable>;

export interface FileListQuery {
  type?: FileType;
  limit: number;
  offset: number;
  sortBy: FileSortField;
  sortOrder: 'asc' | 'desc';
}

export interface FileDeletion {
  wasFound: boolean;
  deletedFromDatabase: boolean;
  deletedFromStorage: boolean;
  deletedFile: FileRecord | null;
  error: string | null;
}

/** The spec's file record. */
export interface FileRecord {
  id: string;
  type: FileType;
  url: string;
  filename: string;
  r2_key: string;
  public_url: string;
  metadata: string;
  created_at: string;
  expires_at: string;
}

export interface NewFile {
  userId: string;
  plan: PlanName;
  type: FileType;
  /** The page the file was made from. */
  url: string;
  body: Uint8Array;
  contentType: string;
  extension: string;
  metadata: Record<string, unknown>;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Path segment of service-served files; the next segment is the unguessable token. */
export const FILES_PATH = '/files';

/**
 * Stored screenshots and PDFs: the object in the blob store, the record in the database. Each
 * object key holds 256 random bits, so a public URL cannot be guessed from another.
 */
export class FileService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly blobs: BlobStore,
    private readonly config: Config,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async store(file: NewFile): Promise<FileRecord> {
    const token = randomBytes(32).toString('base64url');
    const created = this.now();
    const filename = `${file.type}-${created.toISOString().replace(/[-:]/g, '').replace(/\..*/, '')}.${file.extension}`;
    const key = `files/${token}/${filename}`;
    await unlessStorageUnavailable(() => this.blobs.put(key, file.body, file.contentType));
    const row: Selectable<FileTable> = {
      id: randomUUID(),
      user_id: file.userId,
      type: file.type,
      url: file.url,
      filename,
      r2_key: key,
      public_url: this.blobs.publicUrl(key) ?? `${this.config.publicBaseUrl}${FILES_PATH}/${token}/${filename}`,
      content_type: file.contentType,
      size: file.body.byteLength,
      metadata: JSON.stringify(file.metadata),
      created_at: created.toISOString(),
      expires_at: new Date(created.getTime() + this.config.plans[file.plan].fileRetentionDays * DAY_MS).toISOString(),
    };
    try {
      await this.db.insertInto('file').values(row).execute();
    } catch (error) {
      await this.blobs.delete(key).catch(() => {});
      throw error;
    }
    return toRecord(row);
  }

  /** The user's unexpired files, one page of them, and how many there are in all. */
  async list(userId: string, query: FileListQuery): Promise<{ files: FileRecord[]; total: number }> {
    let owned = this.db.selectFrom('file').where('user_id', '=', userId).where('expires_at', '>', this.now().toISOString());
    if (query.type) owned = owned.where('type', '=', query.type);
    const counted = await owned.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
    const rows = await owned
      .selectAll()
      .orderBy(SORT_COLUMNS[query.sortBy], query.sortOrder)
      .orderBy('id', query.sortOrder)
      .limit(query.limit)
      .offset(query.offset)
      .execute();
    return { files: rows.map(toRecord), total: Number(counted.total) };
  }

  /**
   * Deletes one of the user's file records. With `fromStorage` the object goes too; without,
   * the object stays (and stays served) until the record's expiry, when the sweeper removes it.
   * Someone else's or an unknown id touches nothing.
   */
  async delete(userId: string, fileId: string, fromStorage: boolean): Promise<FileDeletion> {
    const row = await this.db.transaction().execute(async (trx) => {
      const deleted = await trx.deleteFrom('file').where('id', '=', fileId).where('user_id', '=', userId).returningAll().executeTakeFirst();
      if (deleted && !fromStorage) await queueOrphan(trx, deleted.r2_key, deleted.expires_at);
      return deleted;
    });
    if (!row) {
      return { wasFound: false, deletedFromDatabase: false, deletedFromStorage: false, deletedFile: null, error: 'File not found' };
    }
    const deletion = { wasFound: true, deletedFromDatabase: true, deletedFromStorage: false, deletedFile: toRecord(row), error: null };
    if (!fromStorage) return deletion;
    try {
      return { ...deletion, deletedFromStorage: await this.blobs.delete(row.r2_key) };
    } catch {
      // Already expired in the orphan list, so it is not served and the next sweep retries it.
      await queueOrphan(this.db, row.r2_key, this.now().toISOString());
      return { ...deletion, error: 'The stored object could not be removed now; the expiry sweeper will remove it' };
    }
  }

  /** An object served by the service itself, while its record (or orphan entry) is unexpired. */
  async openPublic(token: string, filename: string): Promise<StoredBlob | undefined> {
    return this.read(`files/${token}/${filename}`);
  }

  /** A stored object by key, while its record (or orphan entry) is unexpired. */
  async read(key: string): Promise<StoredBlob | undefined> {
    const now = this.now().toISOString();
    const live =
      (await this.db.selectFrom('file').select('expires_at').where('r2_key', '=', key).executeTakeFirst()) ??
      (await this.db.selectFrom('file_orphan').select('expires_at').where('r2_key', '=', key).executeTakeFirst());
    if (!live || live.expires_at <= now) return undefined;
    return unlessStorageUnavailable(() => this.blobs.get(key));
  }
}

/** A store that cannot be reached (a stalled bucket) answers 503 with Retry-After, not 500. */
function unlessStorageUnavailable<T>(work: () => Promise<T>): Promise<T> {
  return unlessBackendUnavailable(work, (error) => error instanceof BlobStoreUnavailable, 'File storage');
}

/** Leaves an object in storage until `expiresAt`; the sweeper removes it then. */
export async function queueOrphan(db: Kysely<Database>, key: string, expiresAt: string): Promise<void> {
  await db
    .insertInto('file_orphan')
    .values({ r2_key: key, expires_at: expiresAt })
    .onConflict((oc) => oc.column('r2_key').doUpdateSet({ expires_at: expiresAt }))
    .execute();
}

export function toRecord(row: Selectable<FileTable>): FileRecord {
  return {
    id: row.id,
    type: row.type,
    url: row.url,
    filename: row.filename,
    r2_key: row.r2_key,
    public_url: row.public_url,
    metadata: row.metadata,
    created_at: row.created_at,
    expires_at: row.expires_at,
  };
}
