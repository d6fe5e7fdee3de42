import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, resetToken, verifyEmail } from '../helpers/accounts.js';
import { apiClient } from '../helpers/client.js';
import { testDialects } from '../helpers/databases.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const ATTACKER_PASSWORD = 'the attacker chose this';

/**
 * Someone registers an ADMIN_EMAILS address before its owner does. Whatever the owner does
 * to get in (the verification link, or a password reset), the first registrant's password,
 * sessions and keys must end, and admin rights come only with a password the owner set.
 */
for (const dialect of await testDialects()) {
  describe(`admin rights by pre-registration [${dialect}]`, () => {
    let server: TestServer;
    let api: ReturnType<typeof apiClient>;
    let n = 0;
    const adminAddress = () => `boss-${(n += 1)}@example.com`;

    beforeAll(async () => {
      server = await startTestServer(dialect, {
        ADMIN_EMAILS: Array.from({ length: 5 }, (_, index) => `boss-${index + 1}@example.com`).join(','),
      });
      api = apiClient(server.baseUrl);
    });
    afterAll(() => server?.close());

    async function preRegister(email: string) {
      const attacker = await api.post('/v1/auth/sign-up/email', { email, password: ATTACKER_PASSWORD, name: 'Not the boss' });
      expect(attacker.status, attacker.text).toBe(200);
      const key = await api.createKey(attacker.body.token, 'planted');
      return { token: attacker.body.token as string, userId: attacker.body.user.id as string, key: key.key };
    }

    async function expectLockedOut(email: string, attacker: { token: string; key: string; userId: string }) {
      expect((await api.get('/v1/user/me', attacker.token)).body.data.isAuthenticated).toBe(false);
      expect((await api.get('/v1/user/credits', attacker.key)).status).toBe(401);
      const signIn = await api.post('/v1/auth/sign-in/email', { email, password: ATTACKER_PASSWORD });
      expect(signIn.status).toBe(401);
      expect(signIn.body.error.code).toBe('INVALID_CREDENTIALS');
      expect((await api.post('/v1/system/update-user-plan', { userId: attacker.userId, plan: 'pro' }, attacker.key)).status).toBe(401);
    }

    async function expectOwnerIsAdmin(email: string, userId: string) {
      const signIn = await api.post('/v1/auth/sign-in/email', { email, password: PASSWORD });
      expect(signIn.status, signIn.text).toBe(200);
      const me = await api.get('/v1/user/me', signIn.body.token);
      expect(me.body.data.user).toMatchObject({ id: userId, isAdmin: true, emailVerified: true });
      const plan = await api.post('/v1/system/update-user-plan', { userId, plan: 'pro' }, signIn.body.token);
      expect(plan.status, plan.text).toBe(200);
    }

    it('the owner verifies the address: the registrant is locked out, and the owner becomes admin only after setting a password', async () => {
      const email = adminAddress();
      const attacker = await preRegister(email);
      const ownerSignUp = await api.post('/v1/auth/sign-up/email', { email, password: PASSWORD, name: 'Boss' });
      expect(ownerSignUp.status).toBe(409);
      expect(ownerSignUp.body.error.code).toBe('EMAIL_ALREADY_REGISTERED');

      // The owner asks for the verification mail, which reaches the real mailbox, and opens it.
      expect((await api.post('/v1/auth/send-verification-email', { email })).status).toBe(200);
      const verified = await verifyEmail(server, email);
      expect(verified.headers.get('location')).toContain('password_reset=required');
      await expectLockedOut(email, attacker);
      // Verified, but not admin: nobody holds a password the owner set.
      const row = await server.ctx.database.db.selectFrom('user').select(['emailVerified', 'passwordProvenAt']).where('id', '=', attacker.userId).executeTakeFirstOrThrow();
      expect(Boolean(row.emailVerified)).toBe(true);
      expect(row.passwordProvenAt).toBeNull();

      const reset = await api.post('/v1/auth/reset-password', { token: resetToken(server, email), newPassword: PASSWORD });
      expect(reset.status, reset.text).toBe(200);
      await expectOwnerIsAdmin(email, attacker.userId);
    });

    it('the owner resets the password by mail instead: the same lock-out, and admin at once', async () => {
      const email = adminAddress();
      const attacker = await preRegister(email);
      expect((await api.post('/v1/auth/request-password-reset', { email })).status).toBe(200);
      const message = server.outbox.filter((mail) => mail.to === email).at(-1)!;
      expect(message.text).toContain('administrator address');
      const reset = await api.post('/v1/auth/reset-password', { token: resetToken(server, email), newPassword: PASSWORD });
      expect(reset.status, reset.text).toBe(200);
      await expectLockedOut(email, attacker);
      await expectOwnerIsAdmin(email, attacker.userId);
    });

    it('a verified admin address is not admin with the sign-up password, with a session or a key', async () => {
      const email = adminAddress();
      const { token, userId } = await api.signUp(email);
      const { key } = await api.createKey(token);
      await verifyEmail(server, email);
      const signIn = await api.post('/v1/auth/sign-in/email', { email, password: PASSWORD });
      expect(signIn.status).toBe(401);
      expect((await api.get('/v1/user/credits', key)).status).toBe(401);
      // Until the owner sets a password, the address has no admin rights anywhere.
      const fresh = await api.post('/v1/system/update-user-plan', { userId, plan: 'pro' }, token);
      expect(fresh.status).toBe(401);
    });

    it('keeps the keys of an admin who proved the address before, through a later reset', async () => {
      const email = adminAddress();
      const { userId } = await api.signUp(email);
      await verifyEmail(server, email);
      await api.post('/v1/auth/reset-password', { token: resetToken(server, email), newPassword: PASSWORD });
      const session = (await api.post('/v1/auth/sign-in/email', { email, password: PASSWORD })).body.token;
      const { key } = await api.createKey(session, 'ops');
      await api.post('/v1/auth/request-password-reset', { email });
      expect((await api.post('/v1/auth/reset-password', { token: resetToken(server, email), newPassword: 'rotated on schedule' })).status).toBe(200);
      const me = await api.get('/v1/user/me', key);
      expect(me.body.data.user).toMatchObject({ id: userId, isAdmin: true });
    });
  });
}
