import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { addressLimitKey } from '../../src/net/address-range.js';
import { PASSWORD } from '../helpers/accounts.js';
import { apiClient } from '../helpers/client.js';
import { clearOfWindowEnd } from '../helpers/limit-window.js';
import { backendEnv, deleteRedisKeys, testBackends, uniqueRedisPrefix } from '../helpers/redis.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** The auth limits a default instance runs with (the test harness relaxes them otherwise). */
const DEFAULTS = loadConfig({}).authLimits;
const DEFAULT_LIMITS: Record<string, string> = {
  AUTH_SIGN_IN_PER_ADDRESS: String(DEFAULTS.signInPerAddress),
  AUTH_SIGN_IN_PER_EMAIL: String(DEFAULTS.signInPerEmail),
  AUTH_SIGN_UP_PER_ADDRESS: String(DEFAULTS.signUpPerAddress),
  AUTH_MAIL_PER_ADDRESS: String(DEFAULTS.mailPerAddress),
  AUTH_MAIL_PER_EMAIL: String(DEFAULTS.mailPerEmail),
};

let nextAddress = 1;
/** A client address of its own (TEST-NET-3), so one test's attempts never spend another's budget. */
const freshAddress = () => `203.0.113.${nextAddress++}`;

function expectRateLimited(res: { status: number; body: any; headers: Headers; text: string }) {
  expect(res.status, res.text).toBe(429);
  expect(res.body).toMatchObject({ success: false, error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Rate limit exceeded' } });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(DEFAULTS.windowSeconds);
}

const statuses = (answers: Array<{ status: number }>) => answers.map((answer) => answer.status);
const count = (answers: Array<{ status: number }>, status: number) => answers.filter((answer) => answer.status === status).length;

// The counters live in the limiter, not the database: the suite runs once per limiter backend
// (the auth routes themselves run on both databases in the other auth suites).
for (const backend of await testBackends()) {
  describe(`attempt limits of the auth routes [${backend}]`, () => {
    const prefix = uniqueRedisPrefix();
    let server: TestServer;

    beforeAll(async () => {
      // Behind a proxy on loopback: each test speaks from its own address through X-Forwarded-For.
      server = await startTestServer('sqlite', { ...DEFAULT_LIMITS, TRUSTED_PROXIES: '127.0.0.1', ...backendEnv(backend, prefix) });
    });
    afterAll(async () => {
      await server?.close();
      if (backend === 'redis') await deleteRedisKeys(prefix);
    });

    const from = (address: string) => apiClient(server.baseUrl, null, { 'x-forwarded-for': address });
    beforeEach(() => clearOfWindowEnd(DEFAULTS.windowSeconds), 20_000);

    it('40 wrong passwords and then the right one: refused from the eleventh on, whatever the address', async () => {
      const { email } = await from(freshAddress()).signUp();
      const attempts = [];
      // A careful attacker spreads the guesses over many addresses: the e-mail's budget still ends.
      for (let i = 0; i < 40; i += 1) {
        attempts.push(await from(freshAddress()).post('/v1/auth/sign-in/email', { email, password: `guess number ${i}` }));
      }
      expect(statuses(attempts.slice(0, DEFAULTS.signInPerEmail))).toEqual(Array(DEFAULTS.signInPerEmail).fill(401));
      expect(count(attempts, 429)).toBe(40 - DEFAULTS.signInPerEmail);
      const right = await from(freshAddress()).post('/v1/auth/sign-in/email', { email, password: PASSWORD });
      expectRateLimited(right);
      // Other accounts are not locked by it.
      const other = await from(freshAddress()).signUp();
      expect((await from(freshAddress()).post('/v1/auth/sign-in/email', { email: other.email, password: PASSWORD })).status).toBe(200);
    });

    it('one address guessing across many accounts is refused after its own budget', async () => {
      const address = freshAddress();
      const attempts = [];
      for (let i = 0; i < DEFAULTS.signInPerAddress + 3; i += 1) {
        attempts.push(await from(address).post('/v1/auth/sign-in/email', { email: `victim-${i}@example.com`, password: 'guess' }));
      }
      expect(count(attempts, 401)).toBe(DEFAULTS.signInPerAddress);
      expectRateLimited(attempts.at(-1)!);
    });

    it('20 sign-ups in a burst from one address: only the budget gets accounts and credits', async () => {
      const address = freshAddress();
      const started = Date.now();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          from(address).post('/v1/auth/sign-up/email', { email: `burst-${i}-${crypto.randomUUID()}@example.com`, password: PASSWORD, name: 'Burst' }),
        ),
      );
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(count(answers, 200)).toBe(DEFAULTS.signUpPerAddress);
      expect(count(answers, 429)).toBe(20 - DEFAULTS.signUpPerAddress);
      expectRateLimited(answers.find((answer) => answer.status === 429)!);
      const granted = await server.ctx.database.db
        .selectFrom('credit_ledger')
        .innerJoin('user', 'user.id', 'credit_ledger.user_id')
        .select((eb) => eb.fn.sum<number>('delta').as('total'))
        .where('user.email', 'like', 'burst-%')
        .executeTakeFirstOrThrow();
      expect(Number(granted.total)).toBe(DEFAULTS.signUpPerAddress * 1000);
    });

    it('15 verification e-mails in a row for one address: the mailbox gets its budget, counting the sign-up', async () => {
      const { email } = await from(freshAddress()).signUp();
      const answers = [];
      for (let i = 0; i < 15; i += 1) answers.push(await from(freshAddress()).post('/v1/auth/send-verification-email', { email }));
      expect(count(answers, 200)).toBe(DEFAULTS.mailPerEmail - 1);
      expectRateLimited(answers.at(-1)!);
      expect(server.outbox.filter((mail) => mail.to === email)).toHaveLength(DEFAULTS.mailPerEmail);
      // Password reset mails share the mailbox's budget.
      expectRateLimited(await from(freshAddress()).post('/v1/auth/request-password-reset', { email }));
    });

    it('one address asking mail for many mailboxes is refused after its own budget', async () => {
      const address = freshAddress();
      const answers = [];
      for (let i = 0; i < DEFAULTS.mailPerAddress + 2; i += 1) {
        answers.push(await from(address).post('/v1/auth/request-password-reset', { email: `mailbox-${i}@example.com` }));
      }
      expect(count(answers, 200)).toBe(DEFAULTS.mailPerAddress);
      expectRateLimited(answers.at(-1)!);
    });

    it('believes only what trusted proxies add to X-Forwarded-For, and counts an IPv6 client by its /64', async () => {
      // The client wrote the left entry itself; the proxy on loopback appended the right one.
      const answers = [];
      for (let i = 0; i < DEFAULTS.signUpPerAddress + 1; i += 1) {
        answers.push(
          await from(`198.51.100.${i}, 192.0.2.77`).post('/v1/auth/sign-up/email', { email: `xff-${crypto.randomUUID()}@example.com`, password: PASSWORD, name: 'X' }),
        );
      }
      expect(statuses(answers).at(-1)).toBe(429);
      expect(count(answers, 200)).toBe(DEFAULTS.signUpPerAddress);

      const v6 = [];
      for (let i = 1; i <= DEFAULTS.signUpPerAddress + 1; i += 1) {
        v6.push(await from(`2001:db8:7:9::${i.toString(16)}`).post('/v1/auth/sign-up/email', { email: `v6-${crypto.randomUUID()}@example.com`, password: PASSWORD, name: 'V6' }));
      }
      expect(statuses(v6).at(-1)).toBe(429);
      expect((await from('2001:db8:7:a::1').post('/v1/auth/sign-up/email', { email: `v6b-${crypto.randomUUID()}@example.com`, password: PASSWORD, name: 'V6' })).status).toBe(200);
    });
  });
}

describe('client addresses without TRUSTED_PROXIES', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', DEFAULT_LIMITS);
  });
  afterAll(() => server?.close());

  it('ignores X-Forwarded-For: a client cannot pick a fresh address per attempt', async () => {
    const api = apiClient(server.baseUrl, null);
    const answers = [];
    for (let i = 0; i < DEFAULTS.signUpPerAddress + 2; i += 1) {
      answers.push(
        await api.request('POST', '/v1/auth/sign-up/email', {
          body: { email: `spoof-${crypto.randomUUID()}@example.com`, password: PASSWORD, name: 'Spoof' },
          headers: { 'x-forwarded-for': `198.51.100.${i}` },
        }),
      );
    }
    expect(count(answers, 200)).toBe(DEFAULTS.signUpPerAddress);
    expect(statuses(answers).slice(-2)).toEqual([429, 429]);
  });

  it('keys IPv6 clients by their /64 and IPv4 clients by their address', () => {
    expect(addressLimitKey('2001:db8:7:9::1')).toBe('2001:db8:7:9::/64');
    expect(addressLimitKey('2001:0db8:0007:0009:ffff:1:2:3')).toBe('2001:db8:7:9::/64');
    expect(addressLimitKey('::1')).toBe('0:0:0:0::/64');
    expect(addressLimitKey('203.0.113.9')).toBe('203.0.113.9');
  });
});

if ((await testBackends()).includes('redis')) {
  describe('auth limits shared through Redis', () => {
    const prefix = uniqueRedisPrefix();
    let first: TestServer;
    let second: TestServer;
    beforeAll(async () => {
      const env = { ...DEFAULT_LIMITS, ...backendEnv('redis', prefix) };
      [first, second] = await Promise.all([startTestServer('sqlite', env), startTestServer('sqlite', env)]);
    });
    afterAll(async () => {
      await Promise.all([first?.close(), second?.close()]);
      await deleteRedisKeys(prefix);
    });

    it('counts attempts on one e-mail across instances', async () => {
      const email = `shared-${crypto.randomUUID()}@example.com`;
      const answers = [];
      for (let i = 0; i < DEFAULTS.signInPerEmail + 2; i += 1) {
        const instance = i % 2 === 0 ? first : second;
        answers.push(await apiClient(instance.baseUrl, null).post('/v1/auth/sign-in/email', { email, password: 'guess' }));
      }
      expect(count(answers, 401)).toBe(DEFAULTS.signInPerEmail);
      expect(statuses(answers).slice(-2)).toEqual([429, 429]);
    });
  });
}
