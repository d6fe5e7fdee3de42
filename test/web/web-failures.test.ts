import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { closedPort, type RecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { startFixtureSite } from './fixtures.js';

describe('page operation failures', () => {
  let site: RecordingServer;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let key: string;
  let userId: string;

  beforeAll(async () => {
    site = await startFixtureSite();
    server = await startTestServer('sqlite', { ALLOW_PRIVATE_HOSTS: site.hostPort, FREE_CONCURRENCY: '1' });
    api = apiClient(server.baseUrl);
    ({ userId, key } = await api.signUpWithKey());
  });
  afterAll(async () => {
    await server?.close();
    await site?.close();
  });

  const balance = async () => (await api.get('/v1/user/credits', key)).body.data.balance as number;

  it('refuses private and non-http targets with 400 URL_NOT_ALLOWED, charging nothing', async () => {
    const before = await balance();
    for (const url of ['http://127.0.0.1:9/', 'http://[::1]:9/', 'file:///etc/passwd', 'http://169.254.169.254/latest/meta-data/', 'http://localhost./']) {
      const res = await api.post('/v1/web/content', { url }, key);
      expect(res.status, `${url}: ${res.text}`).toBe(400);
      expect(res.body.error.code).toBe('URL_NOT_ALLOWED');
    }
    expect(await balance()).toBe(before);
  });

  it('answers 502 for an unreachable target (refunded) and 504 for a slow one (charged: it held a page until its timeout)', async () => {
    const before = await balance();
    const port = await closedPort();
    const local = await startTestServer('sqlite', { ALLOW_PRIVATE_HOSTS: `127.0.0.1:${port},${site.hostPort}` });
    try {
      const localApi = apiClient(local.baseUrl);
      const localKey = (await localApi.createKey((await localApi.signUp()).token)).key;
      const unreachable = await localApi.post('/v1/web/content', { url: `http://127.0.0.1:${port}/` }, localKey);
      expect(unreachable.status, unreachable.text).toBe(502);
      expect(unreachable.body.error.code).toBe('TARGET_UNREACHABLE');
      const slow = await localApi.post('/v1/web/content', { url: `${site.origin}/slow`, timeout: 1000 }, localKey);
      expect(slow.status, slow.text).toBe(504);
      expect(slow.body.error.code).toBe('TARGET_TIMEOUT');
      expect(slow.headers.get('x-credits-cost')).toBe('1');
      expect((await localApi.get('/v1/user/credits', localKey)).body.data.balance).toBe(999);
    } finally {
      await local.close();
    }
    expect(await balance()).toBe(before);
  });

  it('answers 402 when the balance cannot cover the operation, without loading the page', async () => {
    await server.ctx.database.db.updateTable('credit_balance').set({ balance: 0 }).where('user_id', '=', userId).execute();
    const hits = site.hits.length;
    const res = await api.post('/v1/web/content', { url: `${site.origin}/article`, maxAge: 0 }, key);
    expect(res.status, res.text).toBe(402);
    expect(res.body.error.code).toBe('INSUFFICIENT_CREDITS');
    expect(site.hits.length).toBe(hits);
    await server.ctx.database.db.updateTable('credit_balance').set({ balance: 100 }).where('user_id', '=', userId).execute();
  });

  it('limits requests in flight per account with 429 CONCURRENCY_LIMIT_EXCEEDED', async () => {
    const slow = api.post('/v1/web/content', { url: `${site.origin}/article`, waitTime: 1500, maxAge: 0 }, key);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const blocked = await api.post('/v1/web/content', { url: `${site.origin}/article`, maxAge: 0 }, key);
    expect(blocked.status, blocked.text).toBe(429);
    expect(blocked.body.error.code).toBe('CONCURRENCY_LIMIT_EXCEEDED');
    expect(blocked.headers.get('retry-after')).toBe('1');
    expect((await slow).status).toBe(200);
    const after = await api.post('/v1/web/content', { url: `${site.origin}/article`, maxAge: 0 }, key);
    expect(after.status).toBe(200);
  });
});
