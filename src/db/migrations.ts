import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import type { DatabaseHandle, DialectName } from './database.js';

/**
 * Pluck's own tables. Append new migrations; never edit one that has shipped. IDs sort by
 * name, so each starts with a zero-padded sequence number.
 */
function migrationsFor(dialect: DialectName): Record<string, Migration> {
  return {
  '0001_credits': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('credit_balance')
        .addColumn('user_id', 'varchar(64)', (col) => col.primaryKey())
        .addColumn('balance', 'integer', (col) => col.notNull().check(sql`balance >= 0`))
        .addColumn('last_refill', 'varchar(32)', (col) => col.notNull())
        .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
        .execute();
      await db.schema
        .createTable('credit_ledger')
        .addColumn('id', 'integer', (col) =>
          dialect === 'postgres' ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement(),
        )
        .addColumn('user_id', 'varchar(64)', (col) => col.notNull())
        .addColumn('delta', 'integer', (col) => col.notNull())
        .addColumn('balance_after', 'integer', (col) => col.notNull())
        .addColumn('reason', 'varchar(64)', (col) => col.notNull())
        .addColumn('request_id', 'varchar(64)')
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('credit_ledger_user_idx').on('credit_ledger').columns(['user_id', 'id']).execute();
    },
  },
  '0002_files': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('file')
        .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
        .addColumn('user_id', 'varchar(64)', (col) => col.notNull())
        .addColumn('type', 'varchar(16)', (col) => col.notNull())
        .addColumn('url', 'text', (col) => col.notNull())
        .addColumn('filename', 'varchar(255)', (col) => col.notNull())
        .addColumn('r2_key', 'varchar(512)', (col) => col.notNull().unique())
        .addColumn('public_url', 'text', (col) => col.notNull())
        .addColumn('content_type', 'varchar(64)', (col) => col.notNull())
        .addColumn('size', 'integer', (col) => col.notNull())
        .addColumn('metadata', 'text', (col) => col.notNull())
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .addColumn('expires_at', 'varchar(32)', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('file_user_created_idx').on('file').columns(['user_id', 'created_at']).execute();
      await db.schema.createIndex('file_expires_idx').on('file').column('expires_at').execute();
      // Objects whose record was deleted without the object (deleteFromR2: false): kept, and
      // served, until they expire; then the sweeper removes them.
      await db.schema
        .createTable('file_orphan')
        .addColumn('r2_key', 'varchar(512)', (col) => col.primaryKey())
        .addColumn('expires_at', 'varchar(32)', (col) => col.notNull())
        .execute();
    },
  },
  '0003_file_sweep': {
    async up(db: Kysely<unknown>) {
      // The expiry sweeper looks orphans up by expiry; records already have file_expires_idx.
      await db.schema.createIndex('file_orphan_expires_idx').on('file_orphan').column('expires_at').execute();
    },
  },
  '0004_tokens_at_rest': {
    async up(db: Kysely<unknown>) {
      // From here on session tokens are stored as SHA-256 digests and verification values under
      // hashed identifiers. Rows written before hold usable secrets (in this database and in
      // every backup of it): they are ended rather than converted, so none of them works again.
      // Signed-in users sign in once more; API keys are not affected.
      await sql`delete from ${sql.table('session')}`.execute(db);
      await sql`delete from ${sql.table('verification')}`.execute(db);
    },
  },
  '0005_jobs': {
    async up(db: Kysely<unknown>) {
      // Batch, crawl and map jobs (src/jobs). A runner holds a lease on a running job and renews
      // it; a lapsed lease means its runner died, and another runner takes the job over.
      await db.schema
        .createTable('job')
        .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
        .addColumn('user_id', 'varchar(64)', (col) => col.notNull())
        .addColumn('kind', 'varchar(16)', (col) => col.notNull())
        .addColumn('status', 'varchar(16)', (col) => col.notNull())
        .addColumn('options', 'text', (col) => col.notNull())
        .addColumn('webhook', 'text')
        .addColumn('total', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('completed', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('failed', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('credits_used', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('seeded', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('error_code', 'varchar(64)')
        .addColumn('error_message', 'text')
        .addColumn('lease_owner', 'varchar(64)')
        .addColumn('lease_expires_at', 'varchar(32)')
        .addColumn('heartbeat_at', 'varchar(32)')
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .addColumn('started_at', 'varchar(32)')
        .addColumn('finished_at', 'varchar(32)')
        .addColumn('expires_at', 'varchar(32)')
        .execute();
      await db.schema.createIndex('job_user_created_idx').on('job').columns(['user_id', 'created_at']).execute();
      await db.schema.createIndex('job_status_idx').on('job').columns(['status', 'lease_expires_at']).execute();
      await db.schema.createIndex('job_expires_idx').on('job').column('expires_at').execute();
      // The URLs a job will load: the batch's list, or a crawl's frontier as it is discovered.
      // url_key (a digest of the normalised URL) makes each URL once per job, however long.
      await db.schema
        .createTable('job_task')
        .addColumn('job_id', 'varchar(64)', (col) => col.notNull())
        .addColumn('seq', 'integer', (col) => col.notNull())
        .addColumn('url', 'text', (col) => col.notNull())
        .addColumn('url_key', 'varchar(64)', (col) => col.notNull())
        .addColumn('depth', 'integer', (col) => col.notNull())
        .addColumn('state', 'varchar(16)', (col) => col.notNull())
        .addPrimaryKeyConstraint('job_task_pk', ['job_id', 'seq'])
        .addUniqueConstraint('job_task_url_uq', ['job_id', 'url_key'])
        .execute();
      await db.schema.createIndex('job_task_state_idx').on('job_task').columns(['job_id', 'state', 'seq']).execute();
      // One row per finished URL, numbered in the order they finished: results are paged by ordinal.
      await db.schema
        .createTable('job_result')
        .addColumn('job_id', 'varchar(64)', (col) => col.notNull())
        .addColumn('ordinal', 'integer', (col) => col.notNull())
        .addColumn('url', 'text', (col) => col.notNull())
        .addColumn('status', 'varchar(16)', (col) => col.notNull())
        .addColumn('data', 'text')
        .addColumn('error_code', 'varchar(64)')
        .addColumn('error_message', 'text')
        .addColumn('credits', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .addPrimaryKeyConstraint('job_result_pk', ['job_id', 'ordinal'])
        .execute();
    },
  },
  '0007_job_reservations': {
    async up(db: Kysely<unknown>) {
      // The credits each attempt at a job's page reserved, from the debit until the page is
      // recorded (committed) or they are given back (refunded). A runner that dies with pages in
      // flight leaves them reserved here, for whoever ends its hold on the job to refund.
      await db.schema
        .createTable('job_reservation')
        .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
        .addColumn('job_id', 'varchar(64)', (col) => col.notNull())
        .addColumn('task_seq', 'integer')
        .addColumn('owner', 'varchar(64)', (col) => col.notNull())
        .addColumn('user_id', 'varchar(64)', (col) => col.notNull())
        .addColumn('amount', 'integer', (col) => col.notNull())
        .addColumn('reason', 'varchar(64)', (col) => col.notNull())
        .addColumn('request_id', 'varchar(64)', (col) => col.notNull())
        .addColumn('state', 'varchar(16)', (col) => col.notNull())
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('job_reservation_state_idx').on('job_reservation').columns(['job_id', 'state']).execute();
    },
  },
  '0008_job_result_size': {
    async up(db: Kysely<unknown>) {
      // Each result's size (bytes of its data's JSON text) and each job's total, so that status
      // answers are paged by size from the sizes alone, before any result's data is loaded, and
      // a job's stored results can be bounded (JOB_RESULT_MAX_BYTES, JOB_TOTAL_MAX_BYTES).
      await db.schema.alterTable('job_result').addColumn('size', 'integer', (col) => col.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('job').addColumn('result_bytes', 'integer', (col) => col.notNull().defaultTo(0)).execute();
      // Rows written before are measured here, once, rather than guessed at on every read: UTF-8
      // bytes, as the runner measures new ones (SQLite's length() of text counts characters).
      const bytes = dialect === 'postgres' ? sql`octet_length(data)` : sql`length(cast(data as blob))`;
      await sql`update job_result set size = ${bytes} where data is not null`.execute(db);
      await sql`update job set result_bytes = (select coalesce(sum(r.size), 0) from job_result r where r.job_id = job.id)`.execute(db);
    },
  },
  };
}

/** Arbitrary constant naming Pluck's migration lock among PostgreSQL advisory locks. */
const MIGRATION_LOCK_KEY = 7_351_024_117;

/**
 * Runs better-auth's schema migration, then Pluck's own. On PostgreSQL both run under one
 * advisory lock so instances starting at the same moment migrate one after another.
 */
export async function migrate(handle: DatabaseHandle, migrateAuth: () => Promise<void>): Promise<void> {
  const run = async () => {
    await migrateAuth();
    const migrator = new Migrator({
      db: handle.db,
      provider: { getMigrations: async () => migrationsFor(handle.dialect) },
    });
    const { error } = await migrator.migrateToLatest();
    if (error) throw error;
  };
  if (handle.dialect !== 'postgres') return run();
  await handle.db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`.execute(connection);
    try {
      await run();
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.execute(connection);
    }
  });
}
