import { existsSync } from 'node:fs';
import { ensurePrivateDir, ensurePrivateFile } from './data-dir.js';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { type AppError, backendUnavailable } from '../http/errors.js';

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
}

/**
 * Errors that mean the database could not be reached or did not answer in time, as opposed to
 * a bug in a query: callers get 503 for these. Covers pg's connection errors and timeouts,
 * PostgreSQL's connection-exception and shutdown states, and SQLite's lock timeout.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'SQLITE_BUSY'].includes(code)) return true;
    // SQLSTATE class 08 (connection exception); 57P01-57P03 (admin shutdown, crash, cannot connect now).
    if (/^08...$/.test(code) || /^57P0[123]$/.test(code)) return true;
  }
  return /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Connection ended unexpectedly/i.test(
    error.message,
  );
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
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
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
