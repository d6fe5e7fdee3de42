import { existsSync } from 'node:fs';
import { ensurePrivateDir, ensurePrivateFile } from './data-dir.js';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { type AppError, backendUnavailable } from '../errors/app-error.js';

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
}

/**
 * The database could not be reached or did not answer in time, as opposed to a bug in a query:
 * callers get 503. Thrown by the database layer itself (the pg pool below, SQLite's lock
 * timeout), so nothing above it needs to read error messages to tell the two apart.
 */
export class DatabaseUnavailable extends Error {
  constructor(cause: unknown) {
    super('The database is unavailable', { cause });
    this.name = 'DatabaseUnavailable';
  }
}

/** True for DatabaseUnavailable, and SQLite's own lock timeout (SQLITE_BUSY, by its code). */
export function isDatabaseUnavailable(error: unknown): boolean {
  return error instanceof DatabaseUnavailable || (error instanceof Error && (error as { code?: unknown }).code === 'SQLITE_BUSY');
}

/** What callers get when the database cannot be reached: 503, safe to retry. */
export function databaseUnavailable(cause: unknown): AppError {
  return backendUnavailable('The database', cause);
}

/** PostgreSQL when a URL is given, else a SQLite file in the data directory. */
export function openDatabase(options: { databaseUrl?: string; dataDir: string; timeoutMs?: number }): DatabaseHandle {
  if (options.databaseUrl) {
    const timeoutMs = options.timeoutMs ?? 10_000;
    // Both bounds: a refused or stalled PostgreSQL fails the query in time instead of holding
    // the request (and its concurrency slot) until TCP gives up, minutes later.
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
    // An idle client losing its server must not crash the process; the next query reports it.
    pool.on('error', () => {});
    // Nor may a client in use: pg then fails its query and also emits 'error', which the pool
    // listens to only while the client is idle (a PostgreSQL restart mid-query crashed the process).
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: typedFailures(pool) }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  ensurePrivateDir(options.dataDir);
  const file = join(options.dataDir, 'pluck.sqlite');
  ensurePrivateFile(file);
  // SQLite creates its -wal and -shm files with the database file's mode; older ones are tightened.
  for (const companion of [`${file}-wal`, `${file}-shm`]) if (existsSync(companion)) ensurePrivateFile(companion);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/**
 * The pool as Kysely uses it, with every failure typed where it happens: PostgreSQL's own answers
 * (a DatabaseError with a SQLSTATE) pass as they are, except the connection-exception and shutdown
 * states; everything else the driver throws (refused or lost connections, connect and query
 * timeouts) is DatabaseUnavailable.
 */
function typedFailures(pool: pg.Pool) {
  const typed = (error: unknown) => (isServerAnswer(error) ? error : new DatabaseUnavailable(error));
  // The pool hands the same clients out again: each is wrapped once.
  const wrapped = new WeakSet<pg.PoolClient>();
  return {
    async connect() {
      const client = await pool.connect().catch((error: unknown) => {
        throw typed(error);
      });
      if (!wrapped.has(client)) {
        wrapped.add(client);
        const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
        (client as unknown as { query: typeof query }).query = (...args: unknown[]) =>
          query(...args).catch((error: unknown) => {
            throw typed(error);
          });
      }
      return client;
    },
    end: () => pool.end(),
  };
}

/** A query PostgreSQL answered with an error of its own, other than "cannot serve you now". */
function isServerAnswer(error: unknown): boolean {
  if (!(error instanceof pg.DatabaseError)) return false;
  const code = error.code ?? '';
  return !/^08...$/.test(code) && !/^57P0[123]$/.test(code);
}
