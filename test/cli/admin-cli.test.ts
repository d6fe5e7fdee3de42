import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../helpers/accounts.js';
import { adminInProcess } from '../helpers/admin-cli.js';
import { apiClient } from '../helpers/client.js';
import { testDialects } from '../helpers/databases.js';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const COMMANDS = [
  'list-users',
  'show-user',
  'set-plan',
  'grant-credits',
  'send-password-reset',
  'set-password',
  'grant-admin',
  'revoke-admin',
  'list-keys',
  'revoke-key',
  'create-key',
];

// Called in-process; admin-cli-binary.system.test.ts starts the built binary itself.
const cli = adminInProcess;

describe('the admin CLI, its help', { timeout: 120_000 }, () => {
  it('lists every command, and each answers --help with its usage, without touching a database', async () => {
    const env = { DATA_DIR: '/nonexistent/never-created', DATABASE_URL: '' };
    const overview = await cli.run(['--help'], env);
    expect(overview.code).toBe(0);
    for (const name of COMMANDS) expect(overview.stdout).toContain(`  ${name} `);
    for (const name of COMMANDS) {
      const help = await cli.run([name, '--help'], env);
      expect(help.code, name).toBe(0);
      expect(help.stdout).toContain(`Usage:\n  npm run admin -- ${name} `);
    }
    const unknown = await cli.run(['drop-tables'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command: drop-tables');
    const badOption = await cli.run(['set-plan', '--emial', 'x@example.com'], env);
    expect(badOption.code).toBe(2);
    expect(badOption.stderr).toContain("Unknown option '--emial'");
  });
});

/**
 * The operator's commands, run against the database of a running service, whose HTTP API then
 * shows what they did.
 */
for (const dialect of await testDialects()) {
  describe(`the admin CLI against a running service [${dialect}]`, { timeout: 120_000 }, () => {
    let smtp: TestSmtpServer;
    let server: TestServer;
    let api: ReturnType<typeof apiClient>;
    let env: Record<string, string>;
    let alice: { email: string; token: string; userId: string };
    let password = PASSWORD;

    const admin = (args: string[], stdin?: string) => cli.run(args, env, stdin);

    beforeAll(async () => {
      smtp = await startSmtpServer();
      server = await startTestServer(dialect, { SMTP_URL: smtp.url, ADMIN_EMAILS: 'listed@example.com' });
      api = apiClient(server.baseUrl, null);
      const { config } = server.ctx;
      // The same database and settings as the running service, as on the operator's machine.
      env = {
        DATA_DIR: config.dataDir,
        DATABASE_URL: config.databaseUrl ?? '',
        AUTH_SECRET: config.authSecret!,
        PUBLIC_BASE_URL: config.publicBaseUrl,
        SMTP_URL: smtp.url,
        ADMIN_EMAILS: 'listed@example.com',
      };
      alice = await api.signUp(`alice-${crypto.randomUUID()}@example.com`);
    });
    afterAll(async () => {
      await server?.close();
      await smtp?.close();
    });

    it('finds and lists users, and shows one', async () => {
      const listed = await admin(['list-users', '--search', 'ALICE-', '--json']);
      expect(listed.code, listed.stderr).toBe(0);
      const { total, accounts } = JSON.parse(listed.stdout);
      expect(total).toBe(1);
      expect(accounts[0]).toMatchObject({ id: alice.userId, email: alice.email, plan: 'free', admin: false, verified: false, balance: 1000 });
      // A pattern character in the search is taken literally.
      expect(JSON.parse((await admin(['list-users', '--search', '%', '--json'])).stdout).total).toBe(0);
      const shown = await admin(['show-user', '--email', alice.email.toUpperCase(), '--json']);
      expect(JSON.parse(shown.stdout)).toMatchObject({ id: alice.userId, sessions: 1, apiKeys: 0, ledger: [{ delta: 1000, reason: 'signup_grant' }] });
      const missing = await admin(['show-user', '--email', 'nobody@example.com']);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('No account with e-mail nobody@example.com');
    });

    it('changes a plan by e-mail and grants credits through the ledger', async () => {
      const plan = await admin(['set-plan', '--email', alice.email, '--plan', 'pro']);
      expect(plan.code, plan.stderr).toBe(0);
      expect((await api.get('/v1/user/credits', alice.token)).body.data).toMatchObject({ plan: 'pro', balance: 100_000 });
      const grant = await admin(['grant-credits', '--email', alice.email, '--amount', '250', '--reason', 'support ticket 12']);
      expect(grant.code, grant.stderr).toBe(0);
      expect(grant.stdout).toContain('the balance is 100250');
      expect((await api.get('/v1/user/credits', alice.token)).body.data.balance).toBe(100_250);
      const ledger = await server.ctx.credits.ledger(alice.userId);
      expect(ledger.at(-1)).toMatchObject({ delta: 250, balance_after: 100_250, reason: 'operator_grant:support ticket 12' });
      const fraction = await admin(['grant-credits', '--email', alice.email, '--amount', '1.5']);
      expect(fraction.code).toBe(2);
      expect(fraction.stderr).toContain('--amount must be a whole number');
    });

    it('sends a password reset by mail and sets a password; sessions end', async () => {
      const sent = await admin(['send-password-reset', '--email', alice.email]);
      expect(sent.code, sent.stderr).toBe(0);
      await expect.poll(() => smtp.lastLink(alice.email, '/reset-password'), { timeout: 5000 }).toBeDefined();
      const token = new URL(smtp.lastLink(alice.email, '/reset-password')!).searchParams.get('token')!;
      expect((await api.post('/v1/auth/reset-password', { token, newPassword: 'reset by the owner' })).status).toBe(200);
      const session = (await api.post('/v1/auth/sign-in/email', { email: alice.email, password: 'reset by the owner' })).body.token;
      expect(session).toEqual(expect.any(String));

      // From stdin, never from the command line (where `ps` would show it).
      const set = await admin(['set-password', '--email', alice.email, '--password-stdin'], 'typed by the operator\n');
      expect(set.code, set.stderr).toBe(0);
      expect(set.stdout).toBe('');
      expect((await api.get('/v1/user/credits', session)).status).toBe(401);
      expect((await api.post('/v1/auth/sign-in/email', { email: alice.email, password: 'typed by the operator' })).status).toBe(200);
      const generated = await admin(['set-password', '--email', alice.email]);
      password = generated.stdout.trim();
      expect(password.length).toBeGreaterThanOrEqual(16);
      expect((await api.post('/v1/auth/sign-in/email', { email: alice.email, password })).status).toBe(200);
    });

    it('grants and revokes admin rights', async () => {
      const session = (await api.post('/v1/auth/sign-in/email', { email: alice.email, password })).body.token;
      expect((await admin(['grant-admin', '--email', alice.email])).stdout).toContain('is an admin now');
      expect((await api.get('/v1/user/me', session)).body.data.user.isAdmin).toBe(true);
      expect((await api.post('/v1/system/update-user-plan', { userId: alice.userId, plan: 'free' }, session)).status).toBe(200);
      expect((await admin(['revoke-admin', '--email', alice.email])).stdout).toContain('is not an admin now');
      expect((await api.get('/v1/user/me', session)).body.data.user.isAdmin).toBe(false);

      // An ADMIN_EMAILS address the CLI makes is vouched for by the operator: admin at once.
      const created = await admin(['create-key', '--email', 'Listed@Example.com', '--name', 'ops']);
      const key = created.stdout.trim();
      expect(key).toMatch(/^pk_\S+$/);
      expect(created.stderr).toContain('shown only once');
      expect((await api.get('/v1/user/me', key)).body.data.user).toMatchObject({ email: 'listed@example.com', isAdmin: true, emailVerified: true });
      const stays = await admin(['revoke-admin', '--email', 'listed@example.com']);
      expect(stays.stderr).toContain('ADMIN_EMAILS');
      // No verification mail goes to an account the operator made; its owner gets in by a reset.
      expect(smtp.to('listed@example.com')).toEqual([]);
      await api.post('/v1/auth/request-password-reset', { email: 'listed@example.com' });
      await expect.poll(() => smtp.lastLink('listed@example.com', '/reset-password'), { timeout: 5000 }).toBeDefined();
      const token = new URL(smtp.lastLink('listed@example.com', '/reset-password')!).searchParams.get('token')!;
      expect((await api.post('/v1/auth/reset-password', { token, newPassword: PASSWORD })).status).toBe(200);
      const owner = await api.post('/v1/auth/sign-in/email', { email: 'listed@example.com', password: PASSWORD });
      expect((await api.get('/v1/user/me', owner.body.token)).body.data.user.isAdmin).toBe(true);
      // The operator's key survives: the address was proven before (by the operator).
      expect((await api.get('/v1/user/credits', key)).status).toBe(200);
    });

    it('lists and revokes keys', async () => {
      const session = (await api.post('/v1/auth/sign-in/email', { email: alice.email, password })).body.token;
      const { id, key } = await api.createKey(session, 'laptop');
      const listed = await admin(['list-keys', '--email', alice.email]);
      expect(listed.stdout.split('\n')[0]).toMatch(/^id\s+name\s+start\s+created\s+lastUsed\s+requests\s+expires$/);
      expect(listed.stdout).toContain(id);
      expect(listed.stdout).toContain(key.slice(0, 10));
      expect(listed.stdout).not.toContain(key);
      const revoked = await admin(['revoke-key', '--id', id]);
      expect(revoked.code, revoked.stderr).toBe(0);
      expect(revoked.stdout).toContain(`Revoked key ${id} (laptop`);
      expect((await api.get('/v1/user/credits', key)).status).toBe(401);
    });
  });
}
