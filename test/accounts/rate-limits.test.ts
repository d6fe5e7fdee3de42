import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../../src/limits/memory-rate-limiter.js';
import { apiClient } from '../helpers/client.js';
import { clearOfWindowEnd } from '../helpers/limit-window.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe('rate limits per account', () => {
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    server = await startTestServer('sqlite', { FREE_REQUESTS_PER_HOUR: '3' });
    api = apiClient(server.baseUrl);
  });
  afterAll(() => server?.close());
  beforeEach(() => clearOfWindowEnd(3600), 20_000);

  it('reports the window on every answer and refuses the request over the limit', async () => {
    const { token } = await api.signUp();
    const { key } = await api.createKey(token);
    const hourEnd = Math.ceil((Math.floor(Date.now() / 3_600_000) + 1) * 3600);
    // Creating the key was the account's first request of the three.
    for (const remaining of [1, 0]) {
      const res = await api.get('/v1/user/credits', key);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('3');
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(remaining));
      expect(Number(res.headers.get('x-ratelimit-reset'))).toBe(hourEnd);
    }
    const over = await api.get('/v1/user/credits', key);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ success: false, error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Rate limit exceeded' } });
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('counts every key and session of an account together: more keys do not buy more requests', async () => {
    const { token, email } = await api.signUp();
    const first = await api.createKey(token, 'one');
    const second = await api.createKey(token, 'two');
    // The two key creations used two of the three requests.
    expect((await api.get('/v1/user/credits', first.key)).status).toBe(200);
    for (const credential of [first.key, second.key, token]) {
      const res = await api.get('/v1/user/credits', credential);
      expect(res.status, res.text).toBe(429);
      expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    }
    const signIn = await api.post('/v1/auth/sign-in/email', { email, password: 'correct horse battery' });
    expect((await api.get('/v1/user/credits', signIn.body.token)).status).toBe(429);
    // Another account has its own budget.
    const other = await api.signUpWithKey();
    expect((await api.get('/v1/user/credits', other.key)).status).toBe(200);
  });

  it('counts a request once even where several routers guard the same path', async () => {
    const { token } = await api.signUp();
    const first = await api.post('/v1/api-keys', { name: 'a' }, token);
    expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
    const second = await api.get('/v1/api-keys', token);
    expect(second.headers.get('x-ratelimit-remaining')).toBe('1');
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
