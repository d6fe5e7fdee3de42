import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startYouTubeStandIn, VIDEOS } from '../captions/youtube-stand-in.js';
import { signUpAdmin } from '../helpers/accounts.js';
import { type ApiResponse, apiClient } from '../helpers/client.js';
import { clearOfWindowEnd } from '../helpers/limit-window.js';
import { sendJson, sendText, type StandIn, startStandIn } from '../helpers/loopback-stand-in.js';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { backendEnv, deleteRedisKeys, testBackends, uniqueRedisPrefix } from '../helpers/redis.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const ADMIN_EMAIL = 'limits-admin@example.com';
const FREE_REQUESTS_PER_HOUR = 12;

/**
 * SearXNG's JSON API, except that queries starting with `hold` are answered only when the test
 * releases them (so a request stays in flight as long as needed) and `fail` gets a 500.
 */
async function startHoldingSearxng() {
  const held = new Map<string, () => void>();
  const standIn = await startStandIn((request, response) => {
    const query = request.url.searchParams.get('q') ?? '';
    const answer = () =>
      sendJson(response, 200, { query, results: [{ url: `https://example.com/${encodeURIComponent(query)}`, title: query, content: '', engine: 'stand-in' }] });
    if (query === 'fail') return sendText(response, 500, 'text/html', 'Internal Server Error');
    if (query.startsWith('hold')) return void held.set(query, answer);
    answer();
  });
  return { standIn, held };
}

for (const backend of await testBackends()) {
  describe(`plan limits through HTTP: concurrency across billable operations, hourly rate [${backend}]`, () => {
    const prefix = uniqueRedisPrefix();
    let searxng: Awaited<ReturnType<typeof startHoldingSearxng>>;
    let youtube: StandIn;
    let site: RecordingServer;
    let server: TestServer;
    let api: ReturnType<typeof apiClient>;
    let adminToken: string;

    beforeAll(async () => {
      [searxng, youtube, site] = await Promise.all([startHoldingSearxng(), startYouTubeStandIn(() => 'http://127.0.0.1:9'), startRecordingServer()]);
      server = await startTestServer('sqlite', {
        ...backendEnv(backend, prefix),
        FREE_CONCURRENCY: '1',
        FREE_REQUESTS_PER_HOUR: String(FREE_REQUESTS_PER_HOUR),
        PRO_CONCURRENCY: '2',
        SEARXNG_URL: searxng.standIn.url,
        SEARCH_TIMEOUT_MS: '20000',
        YOUTUBE_BASE_URL: youtube.url,
        ALLOW_PRIVATE_HOSTS: site.hostPort,
        ADMIN_EMAILS: ADMIN_EMAIL,
      });
      api = apiClient(server.baseUrl);
      adminToken = (await signUpAdmin(server, api, ADMIN_EMAIL)).token;
    });
    afterAll(async () => {
      await server?.close();
      await Promise.all([searxng?.standIn.close(), youtube?.close(), site?.close()]);
      if (backend === 'redis') await deleteRedisKeys(prefix);
    });

    const newUser = async () => {
      const { token, userId } = await api.signUp();
      return { userId, key: (await api.createKey(token, 'one')).key, secondKey: (await api.createKey(token, 'two')).key };
    };
    const search = (key: string, query: string) => api.post('/v1/web/search', { query }, key);

    /** Starts a search that stays in flight (holding a slot) until `release` is called. */
    async function holdSearch(key: string, query: string) {
      const response = search(key, query);
      for (let i = 0; i < 200 && !searxng.held.has(query); i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
      if (!searxng.held.has(query)) throw new Error(`search ${query} never reached the provider: ${(await response).text}`);
      return {
        release: async () => {
          searxng.held.get(query)!();
          searxng.held.delete(query);
          return response;
        },
      };
    }

    function expectConcurrencyRefusal(res: ApiResponse) {
      expect(res.status, res.text).toBe(429);
      expect(res.body).toMatchObject({ success: false, error: { code: 'CONCURRENCY_LIMIT_EXCEEDED' } });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }

    it('free plan: one request in flight per account; search, captions and page operations share it, refusals are not charged', async () => {
      const [user, neighbour] = await Promise.all([newUser(), newUser()]);
      const first = await holdSearch(user.key, 'hold-free');

      expectConcurrencyRefusal(await search(user.secondKey, 'second'));
      expectConcurrencyRefusal(await api.post('/v2/web/yt-captions', { videoId: VIDEOS.multi }, user.key));
      expectConcurrencyRefusal(await api.post('/v1/web/content', { url: `${site.origin}/page` }, user.secondKey));
      expectConcurrencyRefusal(await api.post('/v2/web/search', { query: 'v2' }, user.key));
      expect((await search(neighbour.key, 'neighbour')).status).toBe(200);

      const held = await first.release();
      expect(held.status, held.text).toBe(200);
      const next = await search(user.secondKey, 'after release');
      expect(next.status, next.text).toBe(200);

      const ledger = await server.ctx.credits.ledger(user.userId);
      const charges = ledger.filter((entry) => entry.reason.startsWith('web:')).map((entry) => [entry.reason, entry.delta]);
      expect(charges).toEqual([
        ['web:search', -1],
        ['web:search', -1],
      ]);
    });

    it('gives the slot and the credits back when the operation fails', async () => {
      const user = await newUser();
      const failed = await search(user.key, 'fail');
      expect(failed.status, failed.text).toBe(502);
      const next = await search(user.key, 'works');
      expect(next.status, next.text).toBe(200);
      const ledger = await server.ctx.credits.ledger(user.userId);
      expect(ledger.filter((entry) => entry.reason.includes('web:search')).map((entry) => [entry.reason, entry.delta])).toEqual([
        ['web:search', -1],
        ['refund:web:search', 1],
        ['web:search', -1],
      ]);
    });

    it("counts each key's requests against its own hourly limit", async () => {
      await clearOfWindowEnd(3600);
      const user = await newUser();
      // The two keys were created with the session: their own windows are whole.
      for (let remaining = FREE_REQUESTS_PER_HOUR - 1; remaining >= 0; remaining -= 1) {
        const res = await api.get('/v1/files/list', user.key);
        expect(res.status, res.text).toBe(200);
        expect(res.headers.get('x-ratelimit-remaining')).toBe(String(remaining));
      }
      const over = await api.get('/v1/files/list', user.key);
      expect(over.status).toBe(429);
      expect(over.body).toMatchObject({ success: false, error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Rate limit exceeded', limit: 'key' } });
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      const second = await api.get('/v1/files/list', user.secondKey);
      expect(second.status, second.text).toBe(200);
      expect(second.headers.get('x-ratelimit-remaining')).toBe(String(FREE_REQUESTS_PER_HOUR - 1));
    });

    it('pro plan: PRO_CONCURRENCY requests in flight', async () => {
      const user = await newUser();
      const upgraded = await api.post('/v1/system/update-user-plan', { userId: user.userId, plan: 'pro' }, adminToken);
      expect(upgraded.status, upgraded.text).toBe(200);
      const first = await holdSearch(user.key, 'hold-pro-1');
      const second = await holdSearch(user.secondKey, 'hold-pro-2');
      const third = await api.post('/v1/web/content', { url: `${site.origin}/pro` }, user.key);
      expectConcurrencyRefusal(third);
      expect(third.body.error.message).toContain('2');
      expect((await first.release()).status).toBe(200);
      expect((await second.release()).status).toBe(200);
    });
  });
}
