import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryResultCache } from '../../src/cache/memory-result-cache.js';
import { RedisResultCache } from '../../src/cache/redis-result-cache.js';
import { cacheKey, type ResultCache } from '../../src/cache/result-cache.js';
import type { RedisConnection } from '../../src/redis/redis-connection.js';
import { deleteRedisKeys, redisKeysWithTtl, testBackends, testRedisConnection, uniqueRedisPrefix } from '../helpers/redis.js';

const TTL = 3600;
const CACHE_LIMITS = { maxEntryBytes: 1_000_000, maxUserBytes: 4_000_000, maxBytes: 16_000_000 };

for (const backend of await testBackends()) {
  describe(`result cache [${backend}]`, () => {
    const prefix = uniqueRedisPrefix();
    const clock = { now: Date.now() };
    let redis: RedisConnection | undefined;
    let cache: ResultCache;

    beforeAll(async () => {
      if (backend === 'redis') redis = await testRedisConnection(prefix);
      cache = redis ? new RedisResultCache(redis, CACHE_LIMITS, () => clock.now) : new MemoryResultCache(CACHE_LIMITS, () => clock.now);
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

    it('bounds what it holds in bytes: no entry over the entry bound, and per account the oldest go first', async () => {
      const [owner, other] = [user(), user()];
      const text = (kilobytes: number) => 'x'.repeat(kilobytes * 1000);
      await cache.set(owner, key(1), text(1_100), TTL);
      expect(await cache.get(owner, key(1), TTL)).toBeUndefined();
      await cache.set(other, key(1), text(900), TTL);
      for (let n = 1; n <= 6; n++) await cache.set(owner, key(n), text(900), TTL);
      // 4,000,000 bytes per account: four of six 900 kB entries fit, the two oldest went.
      const kept = [];
      for (let n = 1; n <= 6; n++) if ((await cache.get(owner, key(n), TTL)) !== undefined) kept.push(n);
      expect(kept).toEqual([3, 4, 5, 6]);
      expect(await cache.get(other, key(1), TTL)).toBe(text(900));
      // Overwriting an entry replaces its size rather than adding to it.
      for (let round = 0; round < 3; round++) await cache.set(owner, key(6), text(900), TTL);
      kept.length = 0;
      for (let n = 1; n <= 6; n++) if ((await cache.get(owner, key(n), TTL)) !== undefined) kept.push(n);
      expect(kept).toEqual([3, 4, 5, 6]);
      expect(await cache.clearUser(owner)).toEqual({ v1: 4, v2: 0 });
    });

    if (backend === 'memory') {
      it('bounds the whole instance cache in bytes, evicting the oldest entry of anyone', async () => {
        const small = new MemoryResultCache({ maxEntryBytes: 1_000_000, maxUserBytes: 4_000_000, maxBytes: 2_500_000 }, () => clock.now);
        const users = [user(), user(), user()];
        for (const owner of users) await small.set(owner, key(1), 'y'.repeat(900_000), TTL);
        expect(small.bytes).toBeLessThanOrEqual(2_500_000);
        expect(await small.get(users[0]!, key(1), TTL)).toBeUndefined();
        expect(await small.get(users[2]!, key(1), TTL)).toBeDefined();
      });
    }

    if (backend === 'redis') {
      it("keeps each user's keys under the prefix and the user's hash tag, every one with a TTL", async () => {
        const owner = user();
        await cache.set(owner, key(1), 'x', TTL);
        const keys = await redisKeysWithTtl(`${prefix}cache:{${owner}}`);
        expect([...keys.keys()].sort()).toEqual([`${prefix}cache:{${owner}}`, `${prefix}cache:{${owner}}#sizes`, `${prefix}cache:{${owner}}:${key(1)}`]);
        for (const [name, ttl] of keys) {
          expect(ttl, name).toBeGreaterThan(0);
          expect(ttl, name).toBeLessThanOrEqual(TTL * 1000);
        }
      });
    }
  });
}
