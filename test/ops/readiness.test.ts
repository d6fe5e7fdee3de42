import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { createPostgresDatabase, testDialects } from '../helpers/databases.js';
import { deleteRedisKeys, TEST_REDIS_URL, testBackends, uniqueRedisPrefix } from '../helpers/redis.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const READY_CHECK_TIMEOUT_MS = 500;
const DATABASE_TIMEOUT_MS = 1000;

// In CI both are required: these helpers throw there instead of skipping.
const postgresAvailable = (await testDialects()).includes('postgres');
const redisAvailable = (await testBackends()).includes('redis');

/** Polls /ready until `done`; reconnect backoffs are a few seconds at most. */
async function readyUntil(api: ReturnType<typeof apiClient>, done: (status: number) => boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.get('/ready');
    if (done(res.status) || Date.now() > deadline) return res;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.runIf(postgresAvailable && redisAvailable)('/ready with PostgreSQL and Redis behind links the test can cut', () => {
  const prefix = uniqueRedisPrefix();
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let postgresProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    const databaseUrl = new URL(database.url);
    postgresProxy = await startTcpProxy(Number(databaseUrl.port || 5432), databaseUrl.hostname);
    databaseUrl.host = `127.0.0.1:${postgresProxy.port}`;
    const redisUrl = new URL(TEST_REDIS_URL);
    redisProxy = await startTcpProxy(Number(redisUrl.port || 6379), redisUrl.hostname);
    server = await startTestServer('sqlite', {
      DATABASE_URL: databaseUrl.toString(),
      REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`,
      REDIS_KEY_PREFIX: prefix,
      REDIS_CONNECT_TIMEOUT_MS: '500',
      REDIS_COMMAND_TIMEOUT_MS: '300',
      READY_CHECK_TIMEOUT_MS: String(READY_CHECK_TIMEOUT_MS),
      DATABASE_TIMEOUT_MS: String(DATABASE_TIMEOUT_MS),
    });
    api = apiClient(server.baseUrl);
  });
  afterAll(async () => {
    await server?.close();
    await postgresProxy?.close();
    await redisProxy?.close();
    await database?.drop();
    await deleteRedisKeys(prefix);
  });

  it('is ready while every dependency answers', async () => {
    const res = await api.get('/ready');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: 'ok', storage: 'ok', browser: 'ok', redis: 'ok' } });
    expect(server.ctx.database.dialect).toBe('postgres');
  });

  it('answers 503 while PostgreSQL refuses connections, and recovers when it is back', async () => {
    postgresProxy.setMode('refuse');
    const down = await api.get('/ready');
    expect(down.status, down.text).toBe(503);
    expect(down.body).toMatchObject({ status: 'unavailable', checks: { database: 'unavailable', redis: 'ok' } });
    expect((await api.get('/health')).status).toBe(200);

    postgresProxy.setMode('pass');
    const back = await readyUntil(api, (status) => status === 200);
    expect(back.status, back.text).toBe(200);
  });

  it('answers 503 within the check timeout when PostgreSQL stops answering, instead of hanging', async () => {
    postgresProxy.setMode('stall');
    const started = performance.now();
    const stalled = await api.get('/ready');
    const elapsedMs = performance.now() - started;
    expect(stalled.status, stalled.text).toBe(503);
    expect(stalled.body.checks).toMatchObject({ database: 'unavailable', redis: 'ok' });
    expect(elapsedMs).toBeLessThan(READY_CHECK_TIMEOUT_MS + 1500);
    process.stderr.write(`measured: /ready 503 on a stalled PostgreSQL link after ${Math.round(elapsedMs)} ms (check timeout ${READY_CHECK_TIMEOUT_MS} ms)\n`);

    // A restart drops the stuck connections; the pool then connects afresh.
    postgresProxy.setMode('refuse');
    postgresProxy.setMode('pass');
    const back = await readyUntil(api, (status) => status === 200);
    expect(back.status, back.text).toBe(200);
  });

  it('answers API requests with 503, not 500 or a hang, while PostgreSQL is refused or stalled', async () => {
    const { key } = await api.signUpWithKey();
    expect((await api.get('/v1/user/credits', key)).status).toBe(200);
    for (const mode of ['refuse', 'stall'] as const) {
      postgresProxy.setMode(mode);
      const started = performance.now();
      const res = await api.get('/v1/user/credits', key);
      const elapsedMs = performance.now() - started;
      expect(res.status, `${mode}: ${res.text}`).toBe(503);
      expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
      expect(res.text).not.toContain('127.0.0.1');
      expect(elapsedMs, mode).toBeLessThan(DATABASE_TIMEOUT_MS + 3000);
      process.stderr.write(`measured: API 503 with PostgreSQL ${mode === "stall" ? "stalled" : "refusing"} after ${Math.round(elapsedMs)} ms\n`);
      postgresProxy.setMode('refuse');
      postgresProxy.setMode('pass');
      expect((await readyUntil(api, (status) => status === 200)).status).toBe(200);
    }
    expect((await api.get('/v1/user/credits', key)).status).toBe(200);
  });

  it('answers 503 while Redis is unreachable, and recovers when it is back', async () => {
    redisProxy.setMode('refuse');
    const down = await api.get('/ready');
    expect(down.status, down.text).toBe(503);
    expect(down.body).toMatchObject({ status: 'unavailable', checks: { redis: 'unavailable', database: 'ok' } });

    redisProxy.setMode('pass');
    const back = await readyUntil(api, (status) => status === 200);
    expect(back.status, back.text).toBe(200);
    expect(back.body.checks.redis).toBe('ok');
  });

  it('answers 503 once the instance is draining for shutdown', async () => {
    server.ctx.lifecycle.startDraining();
    const res = await api.get('/ready');
    expect(res.status, res.text).toBe(503);
    expect(res.body).toMatchObject({ status: 'unavailable', checks: { shutdown: 'draining', database: 'ok', redis: 'ok' } });
  });
});
