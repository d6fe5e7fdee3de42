import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryResultCache } from '../../src/cache/memory-result-cache.js';
import { RedisResultCache } from '../../src/cache/redis-result-cache.js';
import { cacheKey, type ResultCache } from '../../src/cache/result-cache.js';
import type { RedisConnection } from '../../src/redis/redis-connection.js';
import { deleteRedisKeys, redisKeysWithTtl, testBackends, testRedisConnection, uniqueRedisPrefix } from '../helpers/redis.js';

const TTL = 3600;

for (const backend of await testBackends()) {
  describe(`result cache [${backend}]`, () => {
    const prefix = uniqueRedisPrefix();
    const clock = { now: Date.now() };
    let redis: RedisConnection | undefined;
    let cache: ResultCache;

    beforeAll(async () => {
      if (backend === 'redis') redis = await testRedisConnection(prefix);
      cache = redis ? new RedisResultCache(redis, () => clock.now) : new MemoryResultCache(10_000, () => clock.now);
    });
    afterAll(async () => {
      await cache?.close();
      await redis?.close();
      if (backend === 'redis') await deleteRedisKeys(prefix);
    });

    const user = () => `user${Math.random().toString(36).slice(2, 10)}`;
    const key = (n: number, version: 'v1' | 'v2' = 'v1') => cacheKey(version, 'markdown', `hash${n}`);

    it('returns what was stored, to its owner only', async () => {
      const [alice, bob] = [user(), user()];
      await cache.set(alice, key(1), { markdown: 'alice', nested: [1, 2] }, TTL);
      expect(await cache.get(alice, key(1), TTL)).toEqual({ markdown: 'alice', nested: [1, 2] });
      expect(await cache.get(bob, key(1), TTL)).toBeUndefined();
      await cache.set(bob, key(1), { markdown: 'bob' }, TTL);
      expect(await cache.get(alice, key(1), TTL)).toEqual({ markdown: 'alice', nested: [1, 2] });
      expect(await cache.get(bob, key(1), TTL)).toEqual({ markdown: 'bob' });
    });

    it('serves an entry only while it is younger than maxAge and the TTL', async () => {
      const owner = user();
      await cache.set(owner, key(2), 'value', 100);
      clock.now += 30_000;
      expect(await cache.get(owner, key(2), 60)).toBe('value');
      expect(await cache.get(owner, key(2), 20)).toBeUndefined();
      clock.now += 71_000;
      expect(await cache.get(owner, key(2), TTL)).toBeUndefined();
    });

    it('stores nothing with a TTL of 0', async () => {
      const owner = user();
      await cache.set(owner, key(3), 'value', 0);
      expect(await cache.get(owner, key(3), TTL)).toBeUndefined();
      expect(await cache.clearUser(owner)).toEqual({ v1: 0, v2: 0 });
    });

    it("clears one user's entries, counting live v1 and v2 entries apart", async () => {
      const [owner, other] = [user(), user()];
      await cache.set(owner, key(1), 'a', TTL);
      await cache.set(owner, key(2), 'b', TTL);
      await cache.set(owner, key(1, 'v2'), 'c', TTL);
      await cache.set(owner, key(9), 'short-lived', 10);
      await cache.set(other, key(1), 'other', TTL);
      clock.now += 11_000;
      expect(await cache.clearUser(owner)).toEqual({ v1: 2, v2: 1 });
      expect(await cache.get(owner, key(1), TTL)).toBeUndefined();
      expect(await cache.get(owner, key(1, 'v2'), TTL)).toBeUndefined();
      expect(await cache.get(other, key(1), TTL)).toBe('other');
      expect(await cache.clearUser(owner)).toEqual({ v1: 0, v2: 0 });
    });

    if (backend === 'redis') {
      it("keeps each user's keys under the prefix and the user's hash tag, every one with a TTL", async () => {
        const owner = user();
        await cache.set(owner, key(1), 'x', TTL);
        const keys = await redisKeysWithTtl(`${prefix}cache:{${owner}}`);
        expect([...keys.keys()].sort()).toEqual([`${prefix}cache:{${owner}}`, `${prefix}cache:{${owner}}:${key(1)}`]);
        for (const [name, ttl] of keys) {
          expect(ttl, name).toBeGreaterThan(0);
          expect(ttl, name).toBeLessThanOrEqual(TTL * 1000);
        }
      });
    }
  });
}
