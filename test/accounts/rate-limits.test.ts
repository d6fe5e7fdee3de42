import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { MemoryRateLimiter } from '../../src/limits/memory-rate-limiter.js';
import { type ApiResponse, apiClient } from '../helpers/client.js';
import { clearOfWindowEnd } from '../helpers/limit-window.js';
import { backendEnv, deleteRedisKeys, testBackends, uniqueRedisPrefix } from '../helpers/redis.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const PER_KEY = 3;
/** Three callers' worth (the default's factor): a session and two keys spend it, a third key finds it spent. */
const PER_ACCOUNT = 9;

const hourEnd = () => Math.ceil((Math.floor(Date.now() / 3_600_000) + 1) * 3600);

function expectRefusal(res: ApiResponse, limit: 'key' | 'session' | 'account', requestsPerHour: number) {
  expect(res.status, res.text).toBe(429);
  expect(res.body).toMatchObject({
    success: false,
    error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Rate limit exceeded', limit, requestsPerHour, resetAt: hourEnd() },
  });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(3600);
  expect(res.body.error.retryAfter).toBe(retryAfter);
}

for (const backend of await testBackends()) {
  describe(`rate limits per API key, under an account ceiling [${backend}]`, () => {
    const prefix = uniqueRedisPrefix();
    let server: TestServer;
    let api: ReturnType<typeof apiClient>;

    beforeAll(async () => {
      server = await startTestServer('sqlite', {
        ...backendEnv(backend, prefix),
        FREE_REQUESTS_PER_HOUR: String(PER_KEY),
        FREE_ACCOUNT_REQUESTS_PER_HOUR: String(PER_ACCOUNT),
      });
      api = apiClient(server.baseUrl);
    });
    afterAll(async () => {
      await server?.close();
      if (backend === 'redis') await deleteRedisKeys(prefix);
    });
    beforeEach(() => clearOfWindowEnd(3600), 20_000);

    const credits = (credential: string) => api.get('/v1/user/credits', credential);

    it("reports the key's own window on every answer and refuses the request over it, naming the key", async () => {
      const { token } = await api.signUp();
      // Created with the session: the key's own budget is untouched.
      const { key } = await api.createKey(token);
      for (const remaining of [2, 1, 0]) {
        const res = await credits(key);
        expect(res.status, res.text).toBe(200);
        expect(res.headers.get('x-ratelimit-limit')).toBe(String(PER_KEY));
        expect(res.headers.get('x-ratelimit-remaining')).toBe(String(remaining));
        expect(Number(res.headers.get('x-ratelimit-reset'))).toBe(hourEnd());
      }
      const over = await credits(key);
      expectRefusal(over, 'key', PER_KEY);
      expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
    });

    it("gives two keys of one account each its own full budget; the account's ceiling refuses a third, naming the account", async () => {
      const { token } = await api.signUp();
      // Three key creations: the sessions' whole budget, and a third of the account's.
      const [first, second, third] = [await api.createKey(token, 'production'), await api.createKey(token, 'development'), await api.createKey(token, 'third')];
      for (const { key } of [first, second]) {
        const remaining = [];
        for (let i = 0; i < PER_KEY; i += 1) {
          const res = await credits(key);
          expect(res.status, res.text).toBe(200);
          remaining.push(res.headers.get('x-ratelimit-remaining'));
        }
        expect(remaining).toEqual(['2', '1', '0']);
      }
      expectRefusal(await credits(first.key), 'key', PER_KEY);
      const refused = await credits(third.key);
      expectRefusal(refused, 'account', PER_ACCOUNT);
      // The headers say the key's window, which the ceiling's refusal did not spend.
      expect(refused.headers.get('x-ratelimit-limit')).toBe(String(PER_KEY));
      expect(refused.headers.get('x-ratelimit-remaining')).toBe(String(PER_KEY));
      expect(Number(refused.headers.get('x-ratelimit-reset'))).toBe(hourEnd());
      // Another account has budgets of its own.
      expect((await credits((await api.signUpWithKey()).key)).status).toBe(200);
    });

    it('counts the sessions of an account as one caller of their own, apart from its keys', async () => {
      const { token, email } = await api.signUp();
      const { key } = await api.createKey(token);
      for (let i = 0; i < PER_KEY; i += 1) expect((await credits(key)).status).toBe(200);
      expectRefusal(await credits(key), 'key', PER_KEY);
      // The key creation was the sessions' first request.
      for (const remaining of [1, 0]) {
        const res = await credits(token);
        expect(res.status, res.text).toBe(200);
        expect(res.headers.get('x-ratelimit-remaining')).toBe(String(remaining));
        expect(res.body.data.limits).toMatchObject({ requestsPerHour: PER_KEY, accountRequestsPerHour: PER_ACCOUNT });
      }
      // Signing in again gives a new session, not a new budget.
      const signIn = await api.post('/v1/auth/sign-in/email', { email, password: 'correct horse battery' });
      expect(signIn.status, signIn.text).toBe(200);
      for (const session of [signIn.body.token, token]) {
        const res = await credits(session);
        expectRefusal(res, 'session', PER_KEY);
        expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
      }
    });

    it('counts a request once even where several routers guard the same path', async () => {
      const { token } = await api.signUp();
      const first = await api.post('/v1/api-keys', { name: 'a' }, token);
      expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
      const second = await api.get('/v1/api-keys', token);
      expect(second.headers.get('x-ratelimit-remaining')).toBe('1');
    });

    it("counts the reader (/r/) and the Firecrawl routes on the key's window, refusals included", async () => {
      const { key } = await api.signUpWithKey();
      // Both refuse their input after counting: the limit comes before validation.
      const reader = await api.get('/r/', key);
      expect(reader.status, reader.text).toBe(422);
      expect(reader.headers.get('x-ratelimit-remaining')).toBe('2');
      const firecrawl = await api.post('/v2/scrape', {}, key);
      expect(firecrawl.status, firecrawl.text).toBe(400);
      expect(firecrawl.headers.get('x-ratelimit-remaining')).toBe('1');
      expect((await credits(key)).headers.get('x-ratelimit-remaining')).toBe('0');
      expectRefusal(await api.get('/r/example.com', key), 'key', PER_KEY);
      const firecrawlRefused = await api.post('/v2/scrape', { url: 'https://example.com/' }, key);
      expect(firecrawlRefused.status).toBe(429);
      expect(firecrawlRefused.body).toMatchObject({ success: false, error: 'Rate limit exceeded', code: 'RATE_LIMIT_EXCEEDED', details: { limit: 'key' } });
    });

    it('admits no more than the ceiling out of parallel requests from several keys, and no key past its own limit', async () => {
      const { token } = await api.signUp();
      const keys = [await api.createKey(token, 'a'), await api.createKey(token, 'b'), await api.createKey(token, 'c')];
      // The three creations left the account PER_ACCOUNT - 3 requests; the keys together could take 9.
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => credits(keys[i % 3]!.key)));
      const admitted = answers.filter((res) => res.status === 200);
      expect(admitted).toHaveLength(PER_ACCOUNT - 3);
      for (let k = 0; k < 3; k += 1) expect(answers.filter((res, i) => res.status === 200 && i % 3 === k).length).toBeLessThanOrEqual(PER_KEY);
      for (const res of answers.filter((each) => each.status !== 200)) {
        expect(res.status, res.text).toBe(429);
        expect(['key', 'account']).toContain(res.body.error.limit);
      }
    });
  });
}

describe('rate limit settings and windows', () => {
  it('sets the account ceiling to three keys of the plan unless configured, and never below one key', () => {
    const base = { AUTH_SECRET: 'a-secret-that-is-long-enough-for-better-auth' };
    const plans = loadConfig({ ...base, FREE_REQUESTS_PER_HOUR: '40' }).plans;
    expect(plans.free).toMatchObject({ requestsPerHour: 40, accountRequestsPerHour: 120 });
    expect(plans.pro).toMatchObject({ requestsPerHour: 10_000, accountRequestsPerHour: 30_000 });
    expect(loadConfig({ ...base, PRO_ACCOUNT_REQUESTS_PER_HOUR: '10000' }).plans.pro.accountRequestsPerHour).toBe(10_000);
    expect(() => loadConfig({ ...base, FREE_ACCOUNT_REQUESTS_PER_HOUR: '999' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, FREE_ACCOUNT_REQUESTS_PER_HOUR: '999' })).toThrow(/FREE_ACCOUNT_REQUESTS_PER_HOUR: must be at least FREE_REQUESTS_PER_HOUR \(1000\)/);
  });

  it('starts a new window when the hour turns', async () => {
    let now = Date.UTC(2026, 10, 22, 10, 59, 59);
    const limiter = new MemoryRateLimiter(() => now);
    expect((await limiter.hit('k', 1, 3_600_000)).allowed).toBe(true);
    expect((await limiter.hit('k', 1, 3_600_000)).allowed).toBe(false);
    now += 1000;
    const next = await limiter.hit('k', 1, 3_600_000);
    expect(next).toEqual({ allowed: true, limit: 1, remaining: 0, resetAt: Date.UTC(2026, 10, 22, 12) / 1000 });
  });
});
