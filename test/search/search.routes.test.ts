import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { testDialects } from '../helpers/databases.js';
import type { StandIn } from '../helpers/loopback-stand-in.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { BRAVE_TEST_KEY, startBraveStandIn, startSearxngStandIn } from './search-stand-ins.js';

const SEARCH_TIMEOUT_MS = 1500;

function providerEnv(searxng: StandIn, brave: StandIn): Record<string, string> {
  return {
    SEARXNG_URL: searxng.url,
    BRAVE_API_KEY: BRAVE_TEST_KEY,
    BRAVE_BASE_URL: brave.url,
    SEARCH_TIMEOUT_MS: String(SEARCH_TIMEOUT_MS),
  };
}

async function balance(api: ReturnType<typeof apiClient>, token: string): Promise<number> {
  const res = await api.get('/v1/user/credits', token);
  expect(res.status, res.text).toBe(200);
  return res.body.data.balance as number;
}

describe('web search against SearXNG and Brave stand-ins (sqlite)', () => {
  let searxng: StandIn;
  let brave: StandIn;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let token: string;

  beforeAll(async () => {
    [searxng, brave] = await Promise.all([startSearxngStandIn(), startBraveStandIn()]);
    server = await startTestServer('sqlite', providerEnv(searxng, brave));
    api = apiClient(server.baseUrl);
    token = (await api.createKey((await api.signUp()).token)).key;
  });

  afterAll(async () => {
    await server?.close();
    await Promise.all([searxng?.close(), brave?.close()]);
  });

  it('v1 merges both providers, deduplicates by normalised URL and names each source', async () => {
    const res = await api.post('/v1/web/search', { query: 'pluck merge' }, token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.creditsCost).toBe(1);
    expect(res.body.data.results).toEqual([
      { title: 'Alpha page', url: 'https://example.com/alpha', snippet: 'Alpha from SearXNG', source: 'google' },
      { title: 'Beta page', url: 'https://www.example.org/beta/', snippet: 'Beta from Brave', source: 'duckduckgo' },
      { title: 'Delta page', url: 'https://delta.example/d', snippet: 'Delta & friends', source: 'brave' },
      { title: 'Gamma page', url: 'https://example.net/gamma', snippet: 'Gamma from SearXNG', source: 'bing' },
    ]);
    const { metadata } = res.body.data;
    expect(metadata).toMatchObject({ query: 'pluck merge', totalResults: 4, sources: ['searxng', 'brave'], failedSources: [] });
    expect(typeof metadata.searchTime).toBe('number');
    expect(Number.isNaN(Date.parse(metadata.timestamp))).toBe(false);
  });

  it('sends each provider its wire format: SearXNG format=json, Brave count and subscription token', async () => {
    const res = await api.post('/v1/web/search', { query: 'wire check', limit: 3 }, token);
    expect(res.status, res.text).toBe(200);
    const searxngCall = searxng.requests.findLast((r) => r.url.searchParams.get('q') === 'wire check');
    expect(searxngCall?.url.pathname).toBe('/search');
    expect(searxngCall?.url.searchParams.get('format')).toBe('json');
    const braveCall = brave.requests.findLast((r) => r.url.searchParams.get('q') === 'wire check');
    expect(braveCall?.headers['x-subscription-token']).toBe(BRAVE_TEST_KEY);
    expect(braveCall?.url.searchParams.get('count')).toBe('3');
    expect(res.body.data.results).toHaveLength(3);
  });

  it('v2 answers ids stable per URL, favicons and dates, every field a string', async () => {
    const first = await api.post('/v2/web/search', { query: 'pluck v2' }, token);
    expect(first.status, first.text).toBe(200);
    const second = await api.post('/v2/web/search', { query: 'pluck v2 again' }, token);
    const results = first.body.data.results as Record<string, unknown>[];
    expect(results.map((r) => r.url)).toEqual([
      'https://example.com/alpha',
      'https://www.example.org/beta/',
      'https://delta.example/d',
      'https://example.net/gamma',
    ]);
    for (const result of results) {
      expect(Object.keys(result).sort()).toEqual(['favicon', 'id', 'publishedDate', 'snippet', 'title', 'url']);
      for (const value of Object.values(result)) expect(typeof value).toBe('string');
    }
    expect(second.body.data.results.map((r: { id: string }) => r.id)).toEqual(results.map((r) => r.id));
    expect(new Set(results.map((r) => r.id)).size).toBe(4);
    const [alpha, beta, delta, gamma] = results;
    expect(alpha).toMatchObject({ publishedDate: '2024-03-01T10:00:00.000Z', favicon: 'https://imgs.search.brave.test/example.com/favicon.png' });
    expect(beta?.favicon).toBe('https://imgs.search.brave.test/example.org/favicon.png');
    expect(delta?.publishedDate).toBe('2024-02-11T08:12:00.000Z');
    expect(gamma).toMatchObject({ favicon: '', publishedDate: '' });
    expect(first.body.data.metadata).toMatchObject({
      query: 'pluck v2',
      totalResults: 4,
      requestId: first.body.requestId,
      failedSources: [],
    });
  });

  it('uses limit defaults of 5 (v1) and 10 (v2) and honours an explicit limit', async () => {
    await api.post('/v1/web/search', { query: 'default v1' }, token);
    await api.post('/v2/web/search', { query: 'default v2' }, token);
    const limited = await api.post('/v2/web/search', { query: 'limit two', limit: 2 }, token);
    const countFor = (q: string) => brave.requests.findLast((r) => r.url.searchParams.get('q') === q)?.url.searchParams.get('count');
    expect(countFor('default v1')).toBe('5');
    expect(countFor('default v2')).toBe('10');
    expect(limited.status, limited.text).toBe(200);
    expect(limited.body.data.results).toHaveLength(2);
    expect(limited.body.data.metadata.totalResults).toBe(2);
  });

  it('answers an empty list when no provider found anything', async () => {
    const res = await api.post('/v1/web/search', { query: 'nothing at all' }, token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.results).toEqual([]);
    expect(res.body.data.metadata).toMatchObject({ totalResults: 0, sources: ['searxng', 'brave'] });
  });

  it('keeps the answering provider when the other fails, and says which failed', async () => {
    const before = await balance(api, token);
    const res = await api.post('/v1/web/search', { query: 'brave-down please' }, token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.results.map((r: { source: string }) => r.source)).toEqual(['google', 'duckduckgo', 'bing']);
    expect(res.body.data.metadata).toMatchObject({ sources: ['searxng'], failedSources: ['brave'] });
    expect(await balance(api, token)).toBe(before - 1);

    const v2 = await api.post('/v2/web/search', { query: 'searxng-down please' }, token);
    expect(v2.status, v2.text).toBe(200);
    expect(v2.body.data.results.map((r: { url: string }) => r.url)).toEqual([
      'http://example.com/alpha?utm_source=brave#top',
      'https://delta.example/d',
      'https://example.org/beta',
    ]);
    expect(v2.body.data.metadata.failedSources).toEqual(['searxng']);
  });

  it('treats a provider that does not answer in SEARCH_TIMEOUT_MS as failed', async () => {
    const res = await api.post('/v1/web/search', { query: 'searxng-slow' }, token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.metadata).toMatchObject({ sources: ['brave'], failedSources: ['searxng'] });
    expect(res.body.data.results).toHaveLength(3);
  });

  it('treats a provider answering more than the size cap as failed', async () => {
    const res = await api.post('/v1/web/search', { query: 'searxng-huge' }, token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.metadata).toMatchObject({ sources: ['brave'], failedSources: ['searxng'] });
  });

  it('answers 502 PROVIDER_ERROR naming every provider when all fail, and refunds the credit', async () => {
    const before = await balance(api, token);
    const res = await api.post('/v2/web/search', { query: 'all-down' }, token);
    expect(res.status, res.text).toBe(502);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe('PROVIDER_ERROR');
    expect(res.body.error.message).toContain('searxng');
    expect(res.body.error.message).toContain('brave');
    expect(res.body.error.failedSources).toEqual(['searxng', 'brave']);
    expect(res.body.error.message).not.toContain('127.0.0.1');
    expect(await balance(api, token)).toBe(before);
  });

  it('answers 503 PROVIDER_RATE_LIMITED with Retry-After when a provider rationed us and none answered, and refunds', async () => {
    const before = await balance(api, token);
    const res = await api.post('/v1/web/search', { query: 'searxng-limited brave-limited' }, token);
    expect(res.status, res.text).toBe(503);
    expect(res.body.error.code).toBe('PROVIDER_RATE_LIMITED');
    // Neither sends Retry-After (SearXNG's limiter, Brave's X-RateLimit-Reset): the default wait.
    expect(res.headers.get('retry-after')).toBe('30');
    expect(res.body.error.retryAfterSeconds).toBe(30);
    expect(await balance(api, token)).toBe(before);

    // One rationed, one broken: the search works once the limit passes, so still 503.
    const mixed = await api.post('/v2/web/search', { query: 'searxng-down brave-limited' }, token);
    expect(mixed.status, mixed.text).toBe(503);
    expect(mixed.body.error.code).toBe('PROVIDER_RATE_LIMITED');

    // A rationed provider beside one that answers is a partial success, as with any failure.
    const partial = await api.post('/v1/web/search', { query: 'brave-limited' }, token);
    expect(partial.status, partial.text).toBe(200);
    expect(partial.body.data.metadata).toMatchObject({ sources: ['searxng'], failedSources: ['brave'] });
  });

  it('charges one credit per successful search', async () => {
    const before = await balance(api, token);
    const res = await api.post('/v2/web/search', { query: 'charged' }, token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.creditsCost).toBe(1);
    expect(await balance(api, token)).toBe(before - 1);
  });

  it.each([
    ['missing query', { limit: 3 }, ['query'], 'Required'],
    ['blank query', { query: '   ' }, ['query'], undefined],
    ['query too long', { query: 'x'.repeat(501) }, ['query'], undefined],
    ['query not a string', { query: 42 }, ['query'], undefined],
    ['limit 0', { query: 'q', limit: 0 }, ['limit'], undefined],
    ['limit 51', { query: 'q', limit: 51 }, ['limit'], undefined],
    ['fractional limit', { query: 'q', limit: 2.5 }, ['limit'], undefined],
    ['limit as a string', { query: 'q', limit: '5' }, ['limit'], undefined],
  ])('answers 422 for %s, on v1 and v2', async (_name, body, path, message) => {
    for (const route of ['/v1/web/search', '/v2/web/search']) {
      const res = await api.post(route, body, token);
      expect(res.status, `${route}: ${res.text}`).toBe(422);
      expect(res.body.error.name).toBe('ZodError');
      const issue = res.body.error.issues.find((i: { path: unknown[] }) => JSON.stringify(i.path) === JSON.stringify(path));
      expect(issue, res.text).toBeDefined();
      if (message) expect(issue.message).toBe(message);
    }
  });

  it('refuses callers without credentials', async () => {
    const res = await api.post('/v1/web/search', { query: 'anonymous' });
    expect(res.status, res.text).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });
});

describe('web search with no provider configured', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers 503 PROVIDER_NOT_CONFIGURED naming the variables, without charging', async () => {
    const api = apiClient(server.baseUrl);
    const { token } = await api.signUp();
    const before = await balance(api, token);
    for (const route of ['/v1/web/search', '/v2/web/search']) {
      const res = await api.post(route, { query: 'anything' }, token);
      expect(res.status, res.text).toBe(503);
      expect(res.body.error.code).toBe('PROVIDER_NOT_CONFIGURED');
      expect(res.body.error.message).toContain('SEARXNG_URL');
      expect(res.body.error.message).toContain('BRAVE_API_KEY');
      expect(res.body.error.variables).toEqual(['SEARXNG_URL', 'BRAVE_API_KEY']);
    }
    expect(await balance(api, token)).toBe(before);
  });
});

const serverDialects = (await testDialects()).filter((dialect) => dialect !== 'sqlite');

for (const dialect of serverDialects) describe(`web search smoke (${dialect})`, () => {
  let searxng: StandIn;
  let brave: StandIn;
  let server: TestServer;

  beforeAll(async () => {
    [searxng, brave] = await Promise.all([startSearxngStandIn(), startBraveStandIn()]);
    server = await startTestServer(dialect, providerEnv(searxng, brave));
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all([searxng?.close(), brave?.close()]);
  });

  it('charges on success and refunds when every provider fails', async () => {
    const api = apiClient(server.baseUrl);
    const { token } = await api.signUp();
    const start = await balance(api, token);
    const ok = await api.post('/v2/web/search', { query: 'smoke' }, token);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.data.results).toHaveLength(4);
    expect(await balance(api, token)).toBe(start - 1);
    const failed = await api.post('/v1/web/search', { query: 'all-down' }, token);
    expect(failed.status, failed.text).toBe(502);
    expect(await balance(api, token)).toBe(start - 1);
  });
});
