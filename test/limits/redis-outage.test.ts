import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { sendJson, type StandIn, startStandIn } from '../helpers/loopback-stand-in.js';
import { deleteRedisKeys, TEST_REDIS_URL, testBackends, uniqueRedisPrefix } from '../helpers/redis.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const COMMAND_TIMEOUT_MS = 300;

/** Polls until `check` passes; the reconnect backoff is capped at 2 s, so 15 s is ample. */
async function eventually<T>(attempt: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await attempt();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const redisAvailable = (await testBackends()).includes('redis');

describe.runIf(redisAvailable)('Redis going away mid-run (through a proxy the test controls)', () => {
  const prefix = uniqueRedisPrefix();
  let proxy: TcpProxy;
  let searxng: StandIn;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let key: string;
  let userId: string;

  beforeAll(async () => {
    proxy = await startTcpProxy(Number(new URL(TEST_REDIS_URL).port || 6379), new URL(TEST_REDIS_URL).hostname);
    searxng = await startStandIn((request, response) =>
      sendJson(response, 200, { query: request.url.searchParams.get('q'), results: [{ url: 'https://example.com/', title: 'Example', content: 'x', engine: 'e' }] }),
    );
    server = await startTestServer('sqlite', {
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      REDIS_KEY_PREFIX: prefix,
      REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS),
      REDIS_CONNECT_TIMEOUT_MS: '500',
      SEARXNG_URL: searxng.url,
    });
    api = apiClient(server.baseUrl);
    ({ userId, key } = await api.signUpWithKey());
  });
  afterAll(async () => {
    await server?.close();
    await proxy?.close();
    await searxng?.close();
    await deleteRedisKeys(prefix);
  });

  const search = (query: string) => api.post('/v1/web/search', { query }, key);
  const searchDebits = async () => (await server.ctx.credits.ledger(userId)).filter((entry) => entry.reason === 'web:search');

  function expectUnavailable(res: Awaited<ReturnType<typeof search>>) {
    expect(res.status, res.text).toBe(503);
    expect(res.body).toMatchObject({ success: false, error: { code: 'SERVICE_UNAVAILABLE' } });
    expect(res.body.error.message).toMatch(/redis/i);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  }

  it('answers 503 while Redis refuses connections, reports it in /ready, and resumes when it is back', async () => {
    expect((await search('before')).status).toBe(200);
    expect((await api.get('/ready')).body.checks.redis).toBe('ok');

    proxy.setMode('refuse');
    expectUnavailable(await search('during'));
    expectUnavailable(await api.get('/v1/user/credits', key));
    const ready = await api.get('/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.checks).toMatchObject({ redis: 'unavailable', database: 'ok' });
    expect((await api.get('/health')).status).toBe(200);

    proxy.setMode('pass');
    const after = await eventually(() => search('after'), (res) => res.status === 200);
    expect(after.status, after.text).toBe(200);
    expect((await api.get('/ready')).body.checks.redis).toBe('ok');
    // The refused requests were never charged; the two that ran were.
    expect((await searchDebits()).map((entry) => entry.delta)).toEqual([-1, -1]);
  });

  it('answers 503 after the command timeout on a stalled link instead of hanging, then recovers', async () => {
    proxy.setMode('stall');
    const started = performance.now();
    expectUnavailable(await search('stalled'));
    const elapsedMs = performance.now() - started;
    process.stderr.write(`measured: 503 on a stalled Redis link after ${Math.round(elapsedMs)} ms (command timeout ${COMMAND_TIMEOUT_MS} ms)\n`);

    proxy.setMode('pass');
    const after = await eventually(() => search('recovered'), (res) => res.status === 200);
    expect(after.status, after.text).toBe(200);
  });
});
