import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, resetToken, verifyEmail } from '../helpers/accounts.js';
import { apiClient } from '../helpers/client.js';
import { testDialects } from '../helpers/databases.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const AUTH_REQUIRED = { success: false, error: { code: 'UNAUTHORIZED', message: 'Authentication required' } };

for (const dialect of await testDialects()) {
  describe(`authentication [${dialect}]`, () => {
    let server: TestServer;
    let api: ReturnType<typeof apiClient>;

    beforeAll(async () => {
      server = await startTestServer(dialect, {
        ADMIN_EMAILS: 'boss@example.com',
        FRONTEND_URL: 'http://dashboard.example.com',
      });
      api = apiClient(server.baseUrl);
    });
    afterAll(() => server?.close());

    it('refuses protected endpoints without credentials, with an invalid token, or a malformed header', async () => {
      for (const token of [undefined, 'not-a-token', 'pk_definitelynotarealkey0000000000000000000000000000']) {
        const res = await api.get('/v1/user/credits', token);
        expect(res.status, `${token}: ${res.text}`).toBe(401);
        expect(res.body).toMatchObject(AUTH_REQUIRED);
      }
      const basic = await api.request('GET', '/v1/user/credits', { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
      expect(basic.status).toBe(401);
    });

    it('accepts a session token from sign-up and from sign-in as a bearer token', async () => {
      const { token, email } = await api.signUp();
      expect((await api.get('/v1/user/credits', token)).status).toBe(200);
      const signIn = await api.post('/v1/auth/sign-in/email', { email, password: 'correct horse battery' });
      expect(signIn.status, signIn.text).toBe(200);
      const me = await api.get('/v1/user/me', signIn.body.token);
      expect(me.body.data).toMatchObject({ authType: 'session', isAuthenticated: true, user: { email } });
      const wrong = await api.post('/v1/auth/sign-in/email', { email, password: 'wrong password!' });
      expect(wrong.status).toBe(401);
    });

    it('ends a session at sign-out', async () => {
      const { token } = await api.signUp();
      const out = await api.post('/v1/auth/sign-out', {}, token);
      expect(out.status, out.text).toBe(200);
      expect((await api.get('/v1/user/credits', token)).status).toBe(401);
    });

    it('never authenticates with a cookie or a key in the query string', async () => {
      const { token } = await api.signUp();
      const key = (await api.createKey(token)).key;
      for (const query of [`api_key=${key}`, `key=${key}`, `token=${token}`, `apiKey=${key}`]) {
        const res = await api.get(`/v1/user/credits?${query}`);
        expect(res.status, query).toBe(401);
      }
      const cookie = await api.request('GET', '/v1/user/credits', {
        headers: { cookie: `better-auth.session_token=${token}` },
      });
      expect(cookie.status).toBe(401);
    });

    it('ignores role, plan and credits sent in the sign-up body', async () => {
      const res = await api.post('/v1/auth/sign-up/email', {
        email: `sneaky-${crypto.randomUUID()}@example.com`,
        password: 'correct horse battery',
        name: 'Sneaky',
        role: 'admin',
        plan: 'pro',
        credits: 1_000_000,
        balance: 1_000_000,
        emailVerified: true,
      });
      // better-auth refuses input-false fields outright; either way nothing may stick.
      if (res.status === 200) {
        const token = res.body.token;
        const me = await api.get('/v1/user/me', token);
        expect(me.body.data.user).toMatchObject({ plan: 'free', isAdmin: false, emailVerified: false });
        const credits = await api.get('/v1/user/credits', token);
        expect(credits.body.data).toMatchObject({ plan: 'free', balance: 1000 });
      } else {
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
      }
      const row = await server.ctx.database.db
        .selectFrom('user')
        .select(['role', 'plan'])
        .where('name', '=', 'Sneaky')
        .executeTakeFirst();
      if (row) expect(row).toEqual({ role: 'user', plan: 'free' });
    });

    it('does not let update-user change plan or role either', async () => {
      const { token, userId } = await api.signUp();
      await api.post('/v1/auth/update-user', { name: 'Renamed', plan: 'pro', role: 'admin' }, token);
      const row = await server.ctx.database.db.selectFrom('user').select(['role', 'plan']).where('id', '=', userId).executeTakeFirstOrThrow();
      expect(row).toEqual({ role: 'user', plan: 'free' });
    });

    it('makes an ADMIN_EMAILS account admin only once a password was set through a mailed link', async () => {
      const { token, userId } = await api.signUp('boss@example.com');
      const before = await api.post('/v1/system/update-user-plan', { userId, plan: 'pro' }, token);
      expect(before.status, before.text).toBe(403);
      expect(before.body.error.code).toBe('FORBIDDEN');
      // Verifying proves the address, but not who chose the password: it ends, with the session.
      const verified = await verifyEmail(server, 'boss@example.com');
      expect(verified.status).toBe(302);
      expect(verified.headers.get('location')).toBe('http://dashboard.example.com/sign-in?verified=true&password_reset=required&mail=smtp');
      expect((await api.get('/v1/user/credits', token)).status).toBe(401);
      const oldPassword = await api.post('/v1/auth/sign-in/email', { email: 'boss@example.com', password: PASSWORD });
      expect(oldPassword.status).toBe(401);

      const reset = await api.post('/v1/auth/reset-password', { token: resetToken(server, 'boss@example.com'), newPassword: 'the boss chose this' });
      expect(reset.status, reset.text).toBe(200);
      const signIn = await api.post('/v1/auth/sign-in/email', { email: 'boss@example.com', password: 'the boss chose this' });
      expect(signIn.status, signIn.text).toBe(200);
      const after = await api.post('/v1/system/update-user-plan', { userId, plan: 'pro' }, signIn.body.token);
      expect(after.status, after.text).toBe(200);
    });

    it('refuses a verification callback URL on a foreign origin (no open redirect)', async () => {
      const email = `redirect-${crypto.randomUUID()}@example.com`;
      await api.signUp(email);
      const message = server.outbox.find((m) => m.to === email)!;
      const token = new URL(message.link!).searchParams.get('token')!;
      const evil = await fetch(
        `${server.baseUrl}/v1/auth/verify-email?token=${token}&callbackURL=${encodeURIComponent('https://evil.example.net/steal')}`,
        { redirect: 'manual' },
      );
      expect(evil.headers.get('location') ?? '').not.toContain('evil.example.net');
      expect(evil.status).toBeGreaterThanOrEqual(400);

      const ours = await fetch(`${message.link}&redirect=${encodeURIComponent('https://evil.example.net')}`, { redirect: 'manual' });
      expect(ours.status).toBe(302);
      expect(ours.headers.get('location')).toBe('http://dashboard.example.com/?new_user=true');
    });

    it('redirects a bad verification token to sign-in on FRONTEND_URL', async () => {
      const res = await fetch(`${server.baseUrl}/v1/user/verify-email-token?token=garbage`, { redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('http://dashboard.example.com/sign-in?verified=false');
    });

    it('refuses fields better-auth would act on (callbackURL, image) and unknown ones, with 422', async () => {
      for (const extra of [{ callbackURL: 'https://evil.example.net/' }, { image: 'https://evil.example.net/x.png' }, { isAdmin: true }]) {
        const email = `cb-${crypto.randomUUID()}@example.com`;
        const res = await api.post('/v1/auth/sign-up/email', { email, password: PASSWORD, name: 'Callback', ...extra });
        expect(res.status, res.text).toBe(422);
        expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', issues: [{ code: 'unrecognized_keys' }] });
        const row = await server.ctx.database.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirst();
        expect(row).toBeUndefined();
      }
    });

    it('bounds every text field an account stores: a name of 1,040,000 characters is refused, not stored', async () => {
      const email = `long-${crypto.randomUUID()}@example.com`;
      const huge = await api.post('/v1/auth/sign-up/email', { email, password: PASSWORD, name: 'n'.repeat(1_040_000) });
      expect(huge.status, huge.text.slice(0, 300)).toBe(422);
      expect(huge.body.error.issues).toEqual([expect.objectContaining({ code: 'too_big', path: ['name'] })]);
      expect(await server.ctx.database.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
      const longEmail = await api.post('/v1/auth/sign-up/email', { email: `${'e'.repeat(250)}@example.com`, password: PASSWORD, name: 'E' });
      expect(longEmail.status).toBe(422);
      expect(longEmail.body.error.issues[0].path).toEqual(['email']);

      const { token, userId } = await api.signUp(email);
      const rename = await api.post('/v1/auth/update-user', { name: 'x'.repeat(101) }, token);
      expect(rename.status).toBe(422);
      expect((await api.post('/v1/auth/update-user', { name: 'y'.repeat(100) }, token)).status).toBe(200);
      const row = await server.ctx.database.db.selectFrom('user').select('name').where('id', '=', userId).executeTakeFirstOrThrow();
      expect(row.name).toBe('y'.repeat(100));

      // The user agent better-auth keeps on each session is cut, whatever the header holds.
      const signIn = await api.request('POST', '/v1/auth/sign-in/email', { body: { email, password: PASSWORD }, headers: { 'user-agent': 'u'.repeat(8000) } });
      expect(signIn.status, signIn.text).toBe(200);
      const sessions = await server.ctx.database.db.selectFrom('session').select('userAgent').where('userId', '=', userId).execute();
      expect(Math.max(...sessions.map((session) => session.userAgent?.length ?? 0))).toBe(512);
    });
  });
}

describe('browser origins on a default install', () => {
  let server: TestServer;
  beforeAll(async () => {
    // As after `bash scripts/start.sh`: PUBLIC_BASE_URL left unset, listening on loopback.
    server = await startTestServer('sqlite', { PUBLIC_BASE_URL: '' });
  });
  afterAll(() => server?.close());

  it('accepts sign-up from every loopback spelling of its own address, and no other origin', async () => {
    const port = new URL(server.baseUrl).port;
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`]) {
      const res = await apiClient(server.baseUrl, origin).signUp();
      expect(res.token, origin).toBeTruthy();
    }
    for (const origin of ['http://localhost:1', 'http://evil.example.net', `https://localhost:${port}`]) {
      const res = await apiClient(server.baseUrl, origin).post('/v1/auth/sign-up/email', {
        email: `o-${crypto.randomUUID()}@example.com`,
        password: 'correct horse battery',
        name: 'Origin',
      });
      expect(res.status, origin).toBe(403);
    }
  });
});
