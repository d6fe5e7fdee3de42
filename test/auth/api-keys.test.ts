import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { testDialects } from '../helpers/databases.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const RECORD_FIELDS = [
  'createdAt',
  'enabled',
  'expiresAt',
  'id',
  'lastRequest',
  'metadata',
  'name',
  'prefix',
  'remaining',
  'requestCount',
  'start',
  'updatedAt',
  'userId',
];

for (const dialect of await testDialects()) {
  describe(`API keys [${dialect}]`, () => {
    let server: TestServer;
    let api: ReturnType<typeof apiClient>;

    beforeAll(async () => {
      server = await startTestServer(dialect);
      api = apiClient(server.baseUrl);
    });
    afterAll(() => server?.close());

    it('creates a key whose secret appears only in the create answer and is stored hashed', async () => {
      const { token, userId } = await api.signUp();
      const res = await api.post('/v1/api-keys', { name: 'production', expiresIn: 30 * 86400 }, token);
      expect(res.status, res.text).toBe(201);
      const created = res.body.data;
      expect(created.key).toMatch(/^pk_[A-Za-z0-9_-]{40,}$/);
      expect(Object.keys(created).sort()).toEqual([...RECORD_FIELDS, 'key'].sort());
      expect(created).toMatchObject({ name: 'production', userId, enabled: true, prefix: 'pk_', requestCount: 0 });
      expect(created.key.startsWith(created.start)).toBe(true);
      expect(new Date(created.expiresAt).getTime() - Date.now()).toBeGreaterThan(29 * 86400_000);

      const listed = await api.get('/v1/api-keys', token);
      expect(listed.text).not.toContain(created.key);
      expect(Object.keys(listed.body.data.apiKeys[0]).sort()).toEqual(RECORD_FIELDS);
      const one = await api.get(`/v1/api-keys/${created.id}`, token);
      expect(one.status).toBe(200);
      expect(one.text).not.toContain(created.key);

      const row = await server.ctx.database.db.selectFrom('apikey').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain(created.key);
      expect(JSON.stringify(row)).not.toContain(created.key.slice(12));
    });

    it('authenticates with the key and counts its use', async () => {
      const { token } = await api.signUp();
      const { id, key } = await api.createKey(token);
      const me = await api.get('/v1/user/me', key);
      expect(me.body.data).toMatchObject({ authType: 'api-key', isAuthenticated: true, apiToken: { id } });
      await api.get('/v1/user/credits', key);
      const record = await api.get(`/v1/api-keys/${id}`, token);
      expect(record.body.data.requestCount).toBeGreaterThanOrEqual(2);
      expect(record.body.data.lastRequest).not.toBeNull();
    });

    it('revokes a key at once', async () => {
      const { token } = await api.signUp();
      const { id, key } = await api.createKey(token);
      expect((await api.get('/v1/user/credits', key)).status).toBe(200);
      const revoked = await api.request('DELETE', `/v1/api-keys/${id}`, { token });
      expect(revoked.status, revoked.text).toBe(200);
      expect(revoked.body.data).toMatchObject({ revoked: true, apiKey: { id } });
      const after = await api.get('/v1/user/credits', key);
      expect(after.status).toBe(401);
      expect((await api.get(`/v1/api-keys/${id}`, token)).status).toBe(404);
    });

    it("answers 404 for another user's key and never lets them revoke it", async () => {
      const alice = await api.signUp();
      const bob = await api.signUp();
      const aliceKey = await api.createKey(alice.token);
      for (const [method, path] of [
        ['GET', `/v1/api-keys/${aliceKey.id}`],
        ['DELETE', `/v1/api-keys/${aliceKey.id}`],
      ] as const) {
        const res = await api.request(method, path, { token: bob.token });
        expect(res.status, `${method} ${res.text}`).toBe(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      }
      const bobList = await api.get('/v1/api-keys', bob.token);
      expect(bobList.body.data.apiKeys).toEqual([]);
      expect((await api.get('/v1/user/credits', aliceKey.key)).status).toBe(200);
    });

    it('never creates a key for another userId', async () => {
      const alice = await api.signUp();
      const mallory = await api.signUp();
      const res = await api.post('/v1/api-keys', { name: 'mine now', userId: alice.userId }, mallory.token);
      expect(res.status, res.text).toBe(422);
      // better-auth's own key routes are not reachable over HTTP at all.
      const direct = await api.post('/v1/auth/api-key/create', { name: 'direct', userId: alice.userId }, mallory.token);
      expect(direct.status).toBe(404);
      expect(direct.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
      const aliceKeys = await server.ctx.database.db.selectFrom('apikey').select('id').where('referenceId', '=', alice.userId).execute();
      expect(aliceKeys).toEqual([]);
    });

    it('does not let an API key create or revoke keys', async () => {
      const { token } = await api.signUp();
      const { id, key } = await api.createKey(token);
      const create = await api.post('/v1/api-keys', { name: 'from a key' }, key);
      expect(create.status).toBe(403);
      const revoke = await api.request('DELETE', `/v1/api-keys/${id}`, { token: key });
      expect(revoke.status).toBe(403);
      expect((await api.get('/v1/api-keys', key)).body.data.apiKeys).toHaveLength(1);
    });

    it('refuses an expired key', async () => {
      const { token } = await api.signUp();
      const { id, key } = await api.createKey(token);
      const past = dialect === 'postgres' ? new Date(Date.now() - 1000) : new Date(Date.now() - 1000).toISOString();
      await server.ctx.database.db.updateTable('apikey').set({ expiresAt: past }).where('id', '=', id).execute();
      expect((await api.get('/v1/user/credits', key)).status).toBe(401);
    });

    it("holds at most the plan's number of keys (20 on the free plan), so keys cannot multiply an account", async () => {
      const { token } = await api.signUp();
      const created = [];
      for (let i = 0; i < 20; i += 1) created.push(await api.createKey(token, `key ${i}`));
      const over = await api.post('/v1/api-keys', { name: 'one too many' }, token);
      expect(over.status, over.text).toBe(403);
      expect(over.body.error.code).toBe('API_KEY_LIMIT_REACHED');
      const revoked = await api.request('DELETE', `/v1/api-keys/${created[0]!.id}`, { token });
      expect(revoked.status, revoked.text).toBe(200);
      expect((await api.post('/v1/api-keys', { name: 'after revoking one' }, token)).status).toBe(201);
    });

    it('validates the key id path parameter and the create body', async () => {
      const { token } = await api.signUp();
      const blank = await api.post('/v1/api-keys', { name: '   ' }, token);
      expect(blank.status).toBe(422);
      expect(blank.body.error.issues[0].path).toEqual(['name']);
      const long = await api.post('/v1/api-keys', { name: 'n'.repeat(65) }, token);
      expect(long.status).toBe(422);
      const tooLong = await api.post('/v1/api-keys', { name: 'ok', expiresIn: 400 * 86400 }, token);
      expect(tooLong.status).toBe(422);
    });
  });
}
