import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionTokenDigest } from '../../src/auth/session-tokens.js';
import { PASSWORD, resetToken } from '../helpers/accounts.js';
import { apiClient } from '../helpers/client.js';
import { createPostgresDatabase, testDialects } from '../helpers/databases.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** Tables created by migrations after 0004, dependants first. */
const LATER_MIGRATION_TABLES = ['job_reservation', 'job_result', 'job_task', 'job'];

/**
 * What someone who reads the database (a backup, a replica) finds of the secrets that let
 * callers in: session tokens, verification and reset tokens. Nothing they can present.
 */
for (const dialect of await testDialects()) {
  describe(`tokens at rest [${dialect}]`, () => {
    let server: TestServer;
    let api: ReturnType<typeof apiClient>;

    beforeAll(async () => {
      server = await startTestServer(dialect);
      api = apiClient(server.baseUrl, null);
    });
    afterAll(() => server?.close());

    it('stores session tokens as digests that do not work as tokens', async () => {
      const { email, token, userId } = await api.signUp();
      const second = (await api.post('/v1/auth/sign-in/email', { email, password: PASSWORD })).body.token as string;
      const rows = await server.ctx.database.db.selectFrom('session').select('token').where('userId', '=', userId).execute();
      const stored = rows.map((row) => row.token).sort();
      expect(stored).toEqual([sessionTokenDigest(token), sessionTokenDigest(second)].sort());
      for (const digest of stored) {
        expect((await api.get('/v1/user/credits', digest)).status).toBe(401);
        expect((await api.get('/v1/auth/get-session', digest)).body).toBeNull();
      }
      // The tokens themselves keep working, and sign-out still finds its session.
      expect((await api.get('/v1/user/credits', token)).status).toBe(200);
      expect((await api.post('/v1/auth/sign-out', {}, second)).status).toBe(200);
      expect(await server.ctx.database.db.selectFrom('session').select('id').where('token', '=', sessionTokenDigest(second)).executeTakeFirst()).toBeUndefined();
    });

    it('stores verification and reset tokens under digests only', async () => {
      const { email } = await api.signUp();
      await api.post('/v1/auth/request-password-reset', { email });
      const verification = new URL(server.outbox.find((mail) => mail.to === email)!.link!).searchParams.get('token')!;
      const reset = resetToken(server, email);
      const rows = await server.ctx.database.db.selectFrom('verification').selectAll().execute();
      const dump = JSON.stringify(rows);
      expect(rows.length).toBeGreaterThanOrEqual(2);
      for (const secret of [verification, reset]) expect(dump).not.toContain(secret);
      expect(dump).not.toMatch(/reset-password:|verify-email:/);
      // A stored identifier is no token either.
      for (const row of rows) {
        const used = await api.post('/v1/auth/reset-password', { token: row.identifier, newPassword: 'not through a digest' });
        expect(used.status).toBe(400);
      }
    });
  });

  describe(`an upgraded database [${dialect}]`, () => {
    let dataDir: string;
    let postgres: Awaited<ReturnType<typeof createPostgresDatabase>> | undefined;
    let env: Record<string, string>;

    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'pluck-upgrade-'));
      postgres = dialect === 'postgres' ? await createPostgresDatabase() : undefined;
      env = { DATA_DIR: dataDir, ...(postgres ? { DATABASE_URL: postgres.url } : {}) };
    });
    afterAll(async () => {
      await postgres?.drop();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('ends sessions that were stored as usable tokens, and keeps API keys working', async () => {
      const before = await startTestServer(dialect, env);
      const api = apiClient(before.baseUrl, null);
      const { token, userId } = await api.signUp();
      const { key } = await api.createKey(token);
      // As the previous version stored it: the token itself. Even before the migration runs
      // again, a stored token matches nothing, since every lookup hashes what it is given.
      const legacy = 'LegacyPlainSessionToken00000001';
      const { db } = before.ctx.database;
      await db.updateTable('session').set({ token: legacy }).where('userId', '=', userId).execute();
      expect((await api.get('/v1/user/credits', legacy)).status).toBe(401);
      // Back to the schema before 0004: the later migrations' records and tables go too, so the
      // upgrade runs them again in order, as on a database that never had them.
      await sql`delete from kysely_migration where name >= '0004'`.execute(db);
      for (const table of LATER_MIGRATION_TABLES) await sql`drop table if exists ${sql.table(table)}`.execute(db);
      await before.close();

      const after = await startTestServer(dialect, env);
      try {
        const rows = await after.ctx.database.db.selectFrom('session').select('token').execute();
        expect(rows).toEqual([]);
        const again = apiClient(after.baseUrl, null);
        expect((await again.get('/v1/user/credits', legacy)).status).toBe(401);
        expect((await again.get('/v1/user/credits', key)).status).toBe(200);
      } finally {
        await after.close();
      }
    });
  });
}
