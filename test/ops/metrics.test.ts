import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const METRICS_TOKEN = 'metrics-token-for-the-tests-0123456789';
const SLOW_PAGE_MS = 2000;

/** One sample's value from the text exposition format, matched by name and a subset of labels. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => present[key] === value)) return Number(match[3]);
  }
  return undefined;
}

async function poll(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('/metrics', () => {
  let site: RecordingServer;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let key: string;

  const scrape = async () => {
    const res = await api.request('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status, res.text).toBe(200);
    return res.text;
  };

  beforeAll(async () => {
    site = await startRecordingServer({
      '/slow': (_req, res) => {
        setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<title>slow</title><p>late</p>'), SLOW_PAGE_MS);
      },
    });
    server = await startTestServer('sqlite', {
      METRICS_TOKEN,
      ALLOW_PRIVATE_HOSTS: site.hostPort,
      BROWSER_MAX_PAGES: '1',
      FREE_CONCURRENCY: '1',
      FREE_REQUESTS_PER_HOUR: '15',
    });
    api = apiClient(server.baseUrl);
    ({ key } = await api.signUpWithKey());
  });
  afterAll(async () => {
    await server?.close();
    await site?.close();
  });

  it('refuses callers without the metrics token, including valid API keys', async () => {
    const missing = await api.get('/metrics');
    expect(missing.status, missing.text).toBe(401);
    expect(missing.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
    const wrong = await api.request('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}x` } });
    expect(wrong.status).toBe(401);
    const apiKey = await api.get('/metrics', key);
    expect(apiKey.status).toBe(401);
    expect(apiKey.text).not.toContain('pluck_http_requests_total');
  });

  it('serves the text format with default process metrics to the token holder', async () => {
    const res = await api.request('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(sample(res.text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(res.text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(res.text).toContain('# TYPE pluck_http_request_duration_seconds histogram');
  });

  it('labels requests by route template and status, never by raw path', async () => {
    const tokens = [0, 1, 2].map(() => 'A'.repeat(20) + crypto.randomUUID().replace(/-/g, '').slice(0, 23));
    for (const token of tokens) expect((await api.get(`/files/${token}/shot.png`)).status).toBe(404);
    await api.request('POST', `/no-such-route-${crypto.randomUUID()}`);
    expect((await api.get('/v1/user/credits', key)).status).toBe(200);

    const text = await scrape();
    for (const token of tokens) expect(text).not.toContain(token);
    expect(text).not.toContain('no-such-route');
    expect(sample(text, 'pluck_http_requests_total', { route: '/files/:token/:filename', status: '404' })).toBe(3);
    expect(sample(text, 'pluck_http_requests_total', { method: 'POST', route: 'unmatched', status: '404' })).toBe(1);
    expect(sample(text, 'pluck_http_requests_total', { route: '/v1/user/credits', status: '200' })).toBe(1);
    expect(sample(text, 'pluck_http_request_duration_seconds_count', { route: '/v1/user/credits' })).toBe(1);
    expect(sample(text, 'pluck_http_request_duration_seconds_bucket', { route: '/v1/user/credits', le: '+Inf' })).toBe(1);
  });

  it('counts credits spent and cache hits per operation, not refunded failures', async () => {
    const body = { url: `${site.origin}/article` };
    expect((await api.post('/v1/web/content', body, key)).headers.get('x-cache')).toBe('MISS');
    expect((await api.post('/v1/web/content', body, key)).headers.get('x-cache')).toBe('HIT');
    const refused = await api.post('/v1/web/content', { url: 'http://169.254.169.254/' }, key);
    expect(refused.status).toBe(400);

    const text = await scrape();
    expect(sample(text, 'pluck_credits_spent_total', { operation: 'web:content' })).toBe(2);
    expect(sample(text, 'pluck_cache_lookups_total', { operation: 'web:content', result: 'miss' })).toBe(1);
    expect(sample(text, 'pluck_cache_lookups_total', { operation: 'web:content', result: 'hit' })).toBe(1);
    expect(sample(text, 'pluck_http_requests_total', { route: '/v1/web/content', status: '400' })).toBe(1);
    expect(sample(text, 'pluck_browser_instances')).toBe(1);
  });

  it('shows busy contexts, queue depth and concurrency refusals while pages render', async () => {
    const other = await api.signUpWithKey();
    // The browser's contexts are what is counted: the scripted browser is asked for by name.
    const slow = (apiKey: string) => api.post('/v1/web/content', { url: `${site.origin}/slow`, engine: 'browser', maxAge: 0 }, apiKey);
    const first = slow(key);
    await poll(async () => sample(await scrape(), 'pluck_browser_contexts', { state: 'busy' }) === 1);
    const queued = slow(other.key); // the only page is taken: this one waits
    const refused = await slow(key); // FREE_CONCURRENCY=1 for this account
    expect(refused.status, refused.text).toBe(429);
    expect(refused.body.error.code).toBe('CONCURRENCY_LIMIT_EXCEEDED');
    await poll(async () => sample(await scrape(), 'pluck_browser_queue_depth') === 1);
    // Both renders and the scrape itself.
    expect(sample(await scrape(), 'pluck_http_requests_in_flight')).toBe(3);

    expect((await first).status).toBe(200);
    expect((await queued).status).toBe(200);
    // A used context is closed just after its answer went out, then its page slot is free.
    await poll(async () => sample(await scrape(), 'pluck_browser_contexts', { state: 'busy' }) === 0);
    const text = await scrape();
    expect(sample(text, 'pluck_browser_queue_depth')).toBe(0);
    expect(sample(text, 'pluck_rate_limit_rejections_total', { reason: 'concurrency' })).toBe(1);
  });

  it('counts hourly rate-limit refusals', async () => {
    const limited = await api.signUpWithKey();
    let status = 0;
    // Windows are fixed hours: if one ends mid-loop, the next fills up within another 15.
    for (let i = 0; i < 31 && status !== 429; i += 1) status = (await api.get('/v1/user/credits', limited.key)).status;
    expect(status).toBe(429);
    expect(sample(await scrape(), 'pluck_rate_limit_rejections_total', { reason: 'rate_limit' })).toBe(1);
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(() => server?.close());

  it('does not exist, so a default install exposes nothing', async () => {
    const res = await apiClient(server.baseUrl).request('GET', '/metrics', { headers: { authorization: 'Bearer anything-at-all-here' } });
    expect(res.status, res.text).toBe(404);
    expect(res.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
  });

  it('keeps each app context in its own registry', async () => {
    // This server was built after the first suite's: a global registry would have refused the names.
    const own = await server.ctx.metrics.expose();
    expect(sample(own.body, 'pluck_http_requests_total', { route: '/v1/user/credits' })).toBeUndefined();
    expect(sample(own.body, 'pluck_http_requests_total', { route: '/metrics', status: '404' })).toBe(1);
  });
});
