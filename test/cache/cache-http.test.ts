import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryResultCache } from '../../src/cache/memory-result-cache.js';
import { RedisResultCache } from '../../src/cache/redis-result-cache.js';
import type { RedisConnection } from '../../src/redis/redis-connection.js';
import { startYouTubeStandIn, VIDEOS } from '../captions/youtube-stand-in.js';
import { apiClient } from '../helpers/client.js';
import type { StandIn } from '../helpers/loopback-stand-in.js';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { backendEnv, deleteRedisKeys, testBackends, testRedisConnection, uniqueRedisPrefix } from '../helpers/redis.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { startSearxngStandIn } from '../search/search-stand-ins.js';

const TTL_SECONDS = 3600;
const CACHE_LIMITS = { maxEntryBytes: 1_000_000, maxUserBytes: 4_000_000, maxBytes: 16_000_000 };

/** Every load of `/visits/...` says how many times that path has been served: a cache hit shows an old count. */
function startCountingSite(): Promise<RecordingServer> {
  return startRecordingServer(
    Object.fromEntries(
      ['a', 'b', 'c', 'd', 'e'].map((name) => [
        `/visits/${name}`,
        (_req, res, site) => {
          const visit = site.hitsTo(`/visits/${name}`).length;
          res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>visits</title><p id="n">visit ${visit}</p>`);
        },
      ]),
    ),
  );
}

for (const backend of await testBackends()) {
  describe(`result cache through HTTP: page operations, search, captions [${backend}]`, () => {
    const prefix = uniqueRedisPrefix();
    const clock = { now: Date.now() };
    let site: RecordingServer;
    let searxng: StandIn;
    let youtube: StandIn;
    let redis: RedisConnection | undefined;
    let server: TestServer;
    let api: ReturnType<typeof apiClient>;

    beforeAll(async () => {
      [site, searxng] = await Promise.all([startCountingSite(), startSearxngStandIn()]);
      youtube = await startYouTubeStandIn(() => 'http://127.0.0.1:9');
      if (backend === 'redis') redis = await testRedisConnection(prefix);
      // The production cache class with a clock the test moves, so expiry needs no sleeping.
      const cache = redis ? new RedisResultCache(redis, CACHE_LIMITS, () => clock.now) : new MemoryResultCache(CACHE_LIMITS, () => clock.now);
      server = await startTestServer(
        'sqlite',
        {
          ...backendEnv(backend, prefix),
          ALLOW_PRIVATE_HOSTS: site.hostPort,
          SEARXNG_URL: searxng.url,
          YOUTUBE_BASE_URL: youtube.url,
          CACHE_TTL_SECONDS: String(TTL_SECONDS),
        },
        { cache },
      );
      api = apiClient(server.baseUrl);
    });
    afterAll(async () => {
      await server?.close();
      await redis?.close();
      await Promise.all([site?.close(), searxng?.close(), youtube?.close()]);
      if (backend === 'redis') await deleteRedisKeys(prefix);
    });

    const newUser = async () => {
      const { token, userId } = await api.signUp();
      return { key: (await api.createKey(token)).key, userId };
    };
    const content = async (key: string, path: string, extra: Record<string, unknown> = {}) => {
      const res = await api.post('/v1/web/content', { url: `${site.origin}${path}`, ...extra }, key);
      expect(res.status, res.text).toBe(200);
      return { cache: res.headers.get('x-cache'), visit: /visit (\d+)/.exec(res.body.data.content)?.[1] };
    };
    const post = async (path: string, body: unknown, key: string) => {
      const res = await api.post(path, body, key);
      expect(res.status, res.text).toBe(200);
      return res.headers.get('x-cache');
    };

    it("never serves one user's cached result to another, for the same URL or query", async () => {
      const [alice, bob] = await Promise.all([newUser(), newUser()]);
      expect(await content(alice.key, '/visits/a')).toEqual({ cache: 'MISS', visit: '1' });
      expect(await content(alice.key, '/visits/a')).toEqual({ cache: 'HIT', visit: '1' });
      expect(await content(bob.key, '/visits/a')).toEqual({ cache: 'MISS', visit: '2' });
      expect(await content(bob.key, '/visits/a')).toEqual({ cache: 'HIT', visit: '2' });
      expect(await content(alice.key, '/visits/a')).toEqual({ cache: 'HIT', visit: '1' });

      const providerCalls = searxng.requests.length;
      expect(await post('/v1/web/search', { query: 'shared query' }, alice.key)).toBe('MISS');
      expect(await post('/v1/web/search', { query: 'shared query' }, bob.key)).toBe('MISS');
      expect(await post('/v1/web/search', { query: 'shared query' }, bob.key)).toBe('HIT');
      expect(searxng.requests.length).toBe(providerCalls + 2);
    });

    it('bypasses the cache with maxAge 0 and still charges a cached answer', async () => {
      const user = await newUser();
      expect(await content(user.key, '/visits/b')).toEqual({ cache: 'MISS', visit: '1' });
      expect(await content(user.key, '/visits/b', { maxAge: 0 })).toEqual({ cache: 'MISS', visit: '2' });
      // The bypassing request stored its fresh result.
      expect(await content(user.key, '/visits/b')).toEqual({ cache: 'HIT', visit: '2' });
      const providerCalls = searxng.requests.length;
      expect(await post('/v2/web/search', { query: 'bypass me' }, user.key)).toBe('MISS');
      expect(await post('/v2/web/search', { query: 'bypass me', maxAge: 0 }, user.key)).toBe('MISS');
      expect(searxng.requests.length).toBe(providerCalls + 2);

      const ledger = await server.ctx.credits.ledger(user.userId);
      expect(ledger.filter((e) => e.reason === 'web:content').map((e) => e.delta)).toEqual([-1, -1, -1]);
      expect(ledger.filter((e) => e.reason === 'web:search').map((e) => e.delta)).toEqual([-1, -1]);
    });

    it('lets entries expire after CACHE_TTL_SECONDS and honours a smaller maxAge', async () => {
      const user = await newUser();
      expect(await content(user.key, '/visits/c')).toEqual({ cache: 'MISS', visit: '1' });
      clock.now += 120_000;
      expect(await content(user.key, '/visits/c', { maxAge: 300 })).toEqual({ cache: 'HIT', visit: '1' });
      expect(await content(user.key, '/visits/c', { maxAge: 60 })).toEqual({ cache: 'MISS', visit: '2' });
      clock.now += TTL_SECONDS * 1000;
      expect(await content(user.key, '/visits/c')).toEqual({ cache: 'MISS', visit: '3' });
      expect(await content(user.key, '/visits/c')).toEqual({ cache: 'HIT', visit: '3' });
    });

    it("caches v1 and v2 search and captions apart; clear-cache deletes only the caller's entries and counts them", async () => {
      const [user, other] = await Promise.all([newUser(), newUser()]);
      const requests = [
        ['/v1/web/content', { url: `${site.origin}/visits/d` }],
        ['/v1/web/search', { query: 'versions' }],
        ['/v2/web/search', { query: 'versions' }],
        ['/v2/web/yt-captions', { videoId: VIDEOS.multi, lang: 'de' }],
      ] as const;
      for (const [path, body] of requests) expect(await post(path, body, user.key), path).toBe('MISS');
      const calls = { search: searxng.requests.length, youtube: youtube.requests.length };
      for (const [path, body] of requests) expect(await post(path, body, user.key), path).toBe('HIT');
      expect({ search: searxng.requests.length, youtube: youtube.requests.length }).toEqual(calls);
      expect(await post('/v1/web/search', { query: 'versions' }, other.key)).toBe('MISS');

      const cleared = await api.get('/v1/user/clear-cache', user.key);
      expect(cleared.status, cleared.text).toBe(200);
      expect(cleared.body).toMatchObject({ success: true, creditsCost: 0 });
      expect(cleared.body.data).toEqual({
        cleared: true,
        message: 'Cleared 4 cached results',
        details: { v1CacheCleared: 2, v2CacheCleared: 2, totalCleared: 4, method: 'global-api', globalPurgeSuccess: true },
      });
      const again = await api.get('/v1/user/clear-cache', user.key);
      expect(again.body.data.details).toMatchObject({ v1CacheCleared: 0, v2CacheCleared: 0, totalCleared: 0 });
      for (const [path, body] of requests) expect(await post(path, body, user.key), path).toBe('MISS');
      expect(await post('/v1/web/search', { query: 'versions' }, other.key)).toBe('HIT');
    });

    it('refuses clear-cache without credentials', async () => {
      const res = await api.get('/v1/user/clear-cache');
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
    });
  });
}
