import pg from 'pg';

export type TestDialect = 'sqlite' | 'postgres';

const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const inCi = process.env.CI === 'true';
/** `npm run test:quick` leaves the PostgreSQL runs to the full suite; CI runs them regardless. */
const localOnly = process.env.TEST_EXTERNAL_SERVICES === 'off' && !inCi;

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * The dialects a database suite runs against: SQLite always; PostgreSQL when it answers (and
 * TEST_EXTERNAL_SERVICES is not `off`). In CI PostgreSQL is required, so its absence fails the
 * run instead of skipping quietly.
 */
export async function testDialects(): Promise<TestDialect[]> {
  if (localOnly) return ['sqlite'];
  if (await postgresReachable()) return ['sqlite', 'postgres'];
  if (inCi) throw new Error(`CI=true but PostgreSQL at ${ADMIN_URL} is unreachable`);
  process.stderr.write(`\n*** PostgreSQL at ${ADMIN_URL} unreachable: SKIPPING the PostgreSQL runs of this suite ***\n\n`);
  return ['sqlite'];
}

/** A fresh PostgreSQL database for one test server; dropped by the returned function. */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `pluck_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
