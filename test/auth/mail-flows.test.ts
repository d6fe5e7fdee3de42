import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../helpers/accounts.js';
import { apiClient } from '../helpers/client.js';
import { testDialects } from '../helpers/databases.js';
import { closedPort } from '../helpers/recording-server.js';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const FRONTEND = 'http://app.example.com';

/**
 * The account mails through the production SMTP mailer to a real SMTP server on loopback:
 * what arrives, and what its links do when followed once, twice, or late.
 */
for (const dialect of await testDialects()) {
  describe(`account mail over SMTP [${dialect}]`, () => {
    let smtp: TestSmtpServer;
    let server: TestServer;
    let api: ReturnType<typeof apiClient>;

    beforeAll(async () => {
      smtp = await startSmtpServer();
      // SMTP_URL makes the service build its own SMTP mailer, pointed here at the loopback server.
      server = await startTestServer(dialect, { SMTP_URL: smtp.url, MAIL_FROM: 'Pluck <pluck@example.com>', FRONTEND_URL: FRONTEND });
      api = apiClient(server.baseUrl, null);
    });
    afterAll(async () => {
      await server?.close();
      await smtp?.close();
    });

    async function linkFor(email: string, path: string, count: number): Promise<string> {
      await expect.poll(() => smtp.to(email).length, { timeout: 5000 }).toBe(count);
      const link = smtp.lastLink(email, path);
      expect(link, smtp.to(email).at(-1)?.text).toBeDefined();
      return link!;
    }

    it('mails a verification link that works once', async () => {
      const signUp = await api.post('/v1/auth/sign-up/email', { email: `v-${crypto.randomUUID()}@example.com`, password: PASSWORD, name: 'V' });
      expect(signUp.body.mailDelivery).toBe('smtp');
      const { email } = signUp.body.user;
      const link = await linkFor(email, '/v1/user/verify-email-token', 1);
      expect(smtp.to(email)[0]!.raw).toContain('From: Pluck <pluck@example.com>');
      expect(link.startsWith(`${server.baseUrl}/v1/user/verify-email-token?token=`)).toBe(true);

      const first = await fetch(link, { redirect: 'manual' });
      expect(first.status).toBe(302);
      expect(first.headers.get('location')).toBe(`${FRONTEND}/?new_user=true`);
      expect((await api.get('/v1/user/me', signUp.body.token)).body.data.user.emailVerified).toBe(true);
      for (const again of [1, 2]) {
        const reused = await fetch(link, { redirect: 'manual' });
        expect(reused.headers.get('location'), `use ${again + 1}`).toBe(`${FRONTEND}/sign-in?verified=false`);
      }
    });

    it('resets a forgotten password by mail: the link works once, the new password signs in, old sessions end', async () => {
      const { email, token: firstSession } = await api.signUp();
      const secondSession = (await api.post('/v1/auth/sign-in/email', { email, password: PASSWORD })).body.token;
      const { key } = await api.createKey(firstSession);

      const asked = await api.post('/v1/auth/request-password-reset', { email });
      expect(asked.status, asked.text).toBe(200);
      expect(asked.body).toMatchObject({ status: true, mailDelivery: 'smtp' });
      const link = await linkFor(email, '/reset-password', 2);
      expect(link.startsWith(`${FRONTEND}/reset-password?token=`)).toBe(true);
      const resetToken = new URL(link).searchParams.get('token')!;

      const reset = await api.post('/v1/auth/reset-password', { token: resetToken, newPassword: 'a brand new passphrase' });
      expect(reset.status, reset.text).toBe(200);
      for (const session of [firstSession, secondSession]) expect((await api.get('/v1/user/credits', session)).status).toBe(401);
      expect((await api.post('/v1/auth/sign-in/email', { email, password: PASSWORD })).body.error.code).toBe('INVALID_CREDENTIALS');
      const signIn = await api.post('/v1/auth/sign-in/email', { email, password: 'a brand new passphrase' });
      expect(signIn.status, signIn.text).toBe(200);
      // A reset proves the address too.
      expect((await api.get('/v1/user/me', signIn.body.token)).body.data.user.emailVerified).toBe(true);
      const again = await api.post('/v1/auth/reset-password', { token: resetToken, newPassword: 'another passphrase' });
      expect(again.status).toBe(400);
      expect(again.body.error.code).toBe('INVALID_TOKEN');
      // API keys are the owner's tools: they stay (and are listed for the owner to revoke).
      expect((await api.get('/v1/user/credits', key)).status).toBe(200);
    });

    it('answers a reset request for an unknown address the same way, and sends nothing', async () => {
      const before = smtp.received.length;
      const asked = await api.post('/v1/auth/request-password-reset', { email: `ghost-${crypto.randomUUID()}@example.com` });
      expect(asked.status).toBe(200);
      expect(asked.body).toMatchObject({ status: true, mailDelivery: 'smtp' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(smtp.received.length).toBe(before);
    });

    it('refuses a reset link after it expires', async () => {
      const { email, userId } = await api.signUp();
      await api.post('/v1/auth/request-password-reset', { email });
      const resetToken = new URL(await linkFor(email, '/reset-password', 2)).searchParams.get('token')!;
      const past = dialect === 'postgres' ? new Date(Date.now() - 1000) : new Date(Date.now() - 1000).toISOString();
      await server.ctx.database.db.updateTable('verification').set({ expiresAt: past }).where('value', '=', userId).execute();
      const late = await api.post('/v1/auth/reset-password', { token: resetToken, newPassword: 'too late for this' });
      expect(late.status).toBe(400);
      expect(late.body.error.code).toBe('INVALID_TOKEN');
      expect((await api.post('/v1/auth/sign-in/email', { email, password: PASSWORD })).status).toBe(200);
    });

    it("changes a password with the current one: every session ends but the answer's new one", async () => {
      const { email, token: first } = await api.signUp();
      const second = (await api.post('/v1/auth/sign-in/email', { email, password: PASSWORD })).body.token;
      const changed = await api.post('/v1/auth/change-password', { currentPassword: PASSWORD, newPassword: 'changed on purpose' }, first);
      expect(changed.status, changed.text).toBe(200);
      expect(changed.body.token).toEqual(expect.any(String));
      for (const session of [first, second]) expect((await api.get('/v1/user/credits', session)).status).toBe(401);
      expect((await api.get('/v1/user/credits', changed.body.token)).status).toBe(200);
      expect((await api.post('/v1/auth/sign-in/email', { email, password: PASSWORD })).status).toBe(401);
      expect((await api.post('/v1/auth/sign-in/email', { email, password: 'changed on purpose' })).status).toBe(200);
    });
  });
}

describe('account mail when the mail server refuses', () => {
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    server = await startTestServer('sqlite', { SMTP_URL: `smtp://127.0.0.1:${await closedPort()}` });
    api = apiClient(server.baseUrl, null);
  });
  afterAll(() => server?.close());

  it('still signs up and says the link was not sent; the other mail routes answer as for any address, and the log says why', async () => {
    const email = `down-${crypto.randomUUID()}@example.com`;
    const signUp = await api.post('/v1/auth/sign-up/email', { email, password: PASSWORD, name: 'Down' });
    expect(signUp.status, signUp.text).toBe(200);
    expect(signUp.body.mailDelivery).toBe('failed');
    expect((await api.get('/v1/user/credits', signUp.body.token)).status).toBe(200);

    // A failure only for addresses with an account would tell which addresses have one.
    for (const path of ['/v1/auth/request-password-reset', '/v1/auth/send-verification-email']) {
      const known = await api.post(path, { email });
      const unknown = await api.post(path, { email: `nobody-${crypto.randomUUID()}@example.com` });
      expect(known.status, known.text).toBe(200);
      expect(known.body).toEqual(unknown.body);
    }
    const failures = server.logs.filter((line) => line.includes('e-mail could not be sent'));
    expect(failures).toHaveLength(3);
    for (const line of failures) expect(line).not.toContain('token=');
  });
});
