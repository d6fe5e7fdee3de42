import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpAdmin } from '../helpers/accounts.js';
import { apiClient } from '../helpers/client.js';
import { testDialects } from '../helpers/databases.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const ADMIN = 'ops@example.com';

for (const dialect of await testDialects()) {
  describe(`accounts [${dialect}]`, () => {
    let server: TestServer;
    let api: ReturnType<typeof apiClient>;
    let admin: { token: string; userId: string };

    beforeAll(async () => {
      server = await startTestServer(dialect, { ADMIN_EMAILS: ADMIN, FREE_MONTHLY_CREDITS: '250', PRO_MONTHLY_CREDITS: '5000' });
      api = apiClient(server.baseUrl);
      admin = await signUpAdmin(server, api, ADMIN);
    });
    afterAll(() => server?.close());

    it('describes guests, session callers and key callers on /v1/user/me', async () => {
      const guest = await api.get('/v1/user/me');
      expect(guest.status).toBe(200);
      expect(guest.body.data).toMatchObject({ authType: 'guest', isAuthenticated: false, user: null, session: null, apiToken: null });
      expect(guest.headers.get('x-ratelimit-limit')).toBeNull();

      const { token, email, userId } = await api.signUp();
      const bySession = await api.get('/v1/user/me', token);
      expect(bySession.body.data).toMatchObject({
        authType: 'session',
        isAuthenticated: true,
        user: { id: userId, email, plan: 'free', isAdmin: false },
        apiToken: null,
      });
      expect(bySession.body.data.session.id).toEqual(expect.any(String));

      const { key, id } = await api.createKey(token);
      const byKey = await api.get('/v1/user/me', key);
      expect(byKey.body.data).toMatchObject({ authType: 'api-key', user: { id: userId }, session: null, apiToken: { id } });
      expect(byKey.text).not.toContain(key);
    });

    it("gives new accounts their plan's grant and writes it to the ledger", async () => {
      const { token, userId } = await api.signUp();
      const res = await api.get('/v1/user/credits', token);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ balance: 250, plan: 'free' });
      expect(Date.now() - new Date(res.body.data.lastRefill).getTime()).toBeLessThan(60_000);
      const ledger = await server.ctx.credits.ledger(userId);
      expect(ledger).toEqual([expect.objectContaining({ delta: 250, balance_after: 250, reason: 'signup_grant' })]);
    });

    it('bootstraps credits only for a caller without a credit record, once', async () => {
      const { token, userId } = await api.signUp();
      const before = await api.post('/v1/user/bootstrap-credits', undefined, token);
      expect(before.status, before.text).toBe(200);
      expect(before.body.data).toEqual({});
      expect((await api.get('/v1/user/credits', token)).body.data.balance).toBe(250);

      // An account from before credits existed: no record at all.
      await server.ctx.database.db.deleteFrom('credit_balance').where('user_id', '=', userId).execute();
      expect((await api.get('/v1/user/credits', token)).body.data.balance).toBe(0);
      const results = await Promise.all([1, 2, 3].map(() => api.post('/v1/user/bootstrap-credits', undefined, token)));
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
      expect((await api.get('/v1/user/credits', token)).body.data.balance).toBe(250);
      const grants = (await server.ctx.credits.ledger(userId)).filter((e) => e.reason === 'bootstrap_grant');
      expect(grants).toHaveLength(1);
      expect(grants[0]!.request_id).toEqual(expect.any(String));
    });

    it('lets only admins change plans, with 404 for unknown users', async () => {
      const { token, userId } = await api.signUp();
      const denied = await api.post('/v1/system/update-user-plan', { userId, plan: 'pro' }, token);
      expect(denied.status).toBe(403);
      expect(denied.body.error.code).toBe('FORBIDDEN');
      const { key } = await api.createKey(admin.token);
      const unknown = await api.post('/v1/system/update-user-plan', { userId: 'no-such-user', plan: 'pro' }, key);
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('USER_NOT_FOUND');

      const res = await api.post('/v1/system/update-user-plan', { userId, plan: 'pro' }, key);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data).toMatchObject({ userId, plan: 'pro', updatedBy: admin.userId });
      expect(Date.now() - new Date(res.body.data.updatedAt).getTime()).toBeLessThan(60_000);

      const credits = await api.get('/v1/user/credits', token);
      expect(credits.body.data).toMatchObject({ plan: 'pro', balance: 5000 });
      expect(credits.headers.get('x-ratelimit-limit')).toBe('10000');
      const ledger = await server.ctx.credits.ledger(userId);
      expect(ledger.at(-1)).toMatchObject({ delta: 4750, balance_after: 5000, reason: 'plan_change:pro', request_id: res.body.requestId });

      const back = await api.post('/v1/system/update-user-plan', { userId, plan: 'free' }, key);
      expect(back.status).toBe(200);
      expect((await api.get('/v1/user/credits', token)).body.data).toMatchObject({ plan: 'free', balance: 5000 });
    });

    it('does not read the body of a non-admin plan update (403 before 422)', async () => {
      const { token } = await api.signUp();
      const res = await api.post('/v1/system/update-user-plan', {}, token);
      expect(res.status).toBe(403);
    });

    it('allows initialize for admins outside development, and says who may not', async () => {
      const { token, userId } = await api.signUp();
      const anonymous = await api.post('/v1/user/initialize', { userId });
      expect(anonymous.status).toBe(401);
      const user = await api.post('/v1/user/initialize', { userId }, token);
      expect(user.status).toBe(403);
      const ok = await api.post('/v1/user/initialize', { userId }, admin.token);
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body.data).toEqual({ webDurableObjectInitialized: true, message: 'User resources already existed' });
      const unknown = await api.post('/v1/user/initialize', { userId: 'nobody' }, admin.token);
      expect(unknown.status).toBe(404);
      const invalid = await api.post('/v1/user/initialize', { userId: '' }, admin.token);
      expect(invalid.status).toBe(422);
    });
  });
}

describe('initialize in development mode', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { NODE_ENV: 'development' });
  });
  afterAll(() => server?.close());

  it('needs no credentials and creates a missing credit record', async () => {
    const api = apiClient(server.baseUrl);
    const { userId, token } = await api.signUp();
    await server.ctx.database.db.deleteFrom('credit_balance').where('user_id', '=', userId).execute();
    const res = await api.post('/v1/user/initialize', { userId });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.message).toBe('User resources created');
    expect((await api.get('/v1/user/credits', token)).body.data.balance).toBe(1000);
  });
});
