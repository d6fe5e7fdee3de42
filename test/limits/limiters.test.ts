import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConcurrencyLimiter } from '../../src/limits/concurrency-limiter.js';
import { MemoryConcurrencyLimiter } from '../../src/limits/memory-concurrency-limiter.js';
import { MemoryRateLimiter } from '../../src/limits/memory-rate-limiter.js';
import type { RateLimiter } from '../../src/limits/rate-limiter.js';
import { RedisConcurrencyLimiter } from '../../src/limits/redis-concurrency-limiter.js';
import { RedisRateLimiter } from '../../src/limits/redis-rate-limiter.js';
import type { RedisConnection } from '../../src/redis/redis-connection.js';
import { deleteRedisKeys, redisKeysWithTtl, testBackends, testRedisConnection, uniqueRedisPrefix } from '../helpers/redis.js';

const HOUR_MS = 3_600_000;
const LEASE_MS = 60_000;

/** A clock the test moves by hand. */
function manualClock(start = Date.UTC(2026, 10, 22, 10, 30)) {
  const clock = { now: start, read: () => clock.now };
  return clock;
}

for (const backend of await testBackends()) {
  describe(`rate and concurrency limiters [${backend}]`, () => {
    const prefix = uniqueRedisPrefix();
    let redis: RedisConnection | undefined;

    beforeAll(async () => {
      if (backend === 'redis') redis = await testRedisConnection(prefix);
    });
    afterAll(async () => {
      await redis?.close();
      if (backend === 'redis') await deleteRedisKeys(prefix);
    });

    const rateLimiter = (now: () => number): RateLimiter =>
      redis ? new RedisRateLimiter(redis, now) : new MemoryRateLimiter(now);
    const concurrencyLimiter = (now: () => number = Date.now): ConcurrencyLimiter =>
      redis ? new RedisConcurrencyLimiter(redis, LEASE_MS, pino({ level: 'silent' }), now) : new MemoryConcurrencyLimiter();

    it('counts up to the limit, refuses after it without counting, and reports the window end', async () => {
      const clock = manualClock();
      const limiter = rateLimiter(clock.read);
      const hourEnd = Date.UTC(2026, 10, 22, 11) / 1000;
      const decisions = [];
      for (let i = 0; i < 5; i += 1) decisions.push(await limiter.hit('rl-basic', 3, HOUR_MS));
      expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
        [true, 2],
        [true, 1],
        [true, 0],
        [false, 0],
        [false, 0],
      ]);
      expect(decisions.every((d) => d.limit === 3 && d.resetAt === hourEnd)).toBe(true);
      // A raised limit sees exactly the three counted requests: refusals were not counted.
      expect((await limiter.hit('rl-basic', 5, HOUR_MS)).remaining).toBe(1);
    });

    it('keeps separate counts per key and starts a new window when the hour turns', async () => {
      const clock = manualClock(Date.UTC(2026, 10, 22, 10, 59, 59));
      const limiter = rateLimiter(clock.read);
      expect((await limiter.hit('rl-a', 1, HOUR_MS)).allowed).toBe(true);
      expect((await limiter.hit('rl-a', 1, HOUR_MS)).allowed).toBe(false);
      expect((await limiter.hit('rl-b', 1, HOUR_MS)).allowed).toBe(true);
      clock.now += 1000;
      expect(await limiter.hit('rl-a', 1, HOUR_MS)).toEqual({
        allowed: true,
        limit: 1,
        remaining: 0,
        resetAt: Date.UTC(2026, 10, 22, 12) / 1000,
      });
    });

    it('admits exactly the limit out of many parallel hits', async () => {
      const limiter = rateLimiter(manualClock().read);
      const decisions = await Promise.all(Array.from({ length: 40 }, () => limiter.hit('rl-parallel', 15, HOUR_MS)));
      expect(decisions.filter((d) => d.allowed)).toHaveLength(15);
    });

    it('hands out at most `limit` slots per key; a release frees exactly one', async () => {
      const limiter = concurrencyLimiter();
      const first = await limiter.acquire('slots-basic', 2);
      const second = await limiter.acquire('slots-basic', 2);
      expect(first).toBeTypeOf('function');
      expect(second).toBeTypeOf('function');
      expect(await limiter.acquire('slots-basic', 2)).toBeUndefined();
      expect(await limiter.acquire('slots-other', 2)).toBeTypeOf('function');
      await first!();
      await first!();
      const third = await limiter.acquire('slots-basic', 2);
      expect(third).toBeTypeOf('function');
      expect(await limiter.acquire('slots-basic', 2)).toBeUndefined();
      await second!();
      await third!();
    });

    it('admits exactly the limit out of many parallel acquisitions', async () => {
      const limiter = concurrencyLimiter();
      const releases = await Promise.all(Array.from({ length: 30 }, () => limiter.acquire('slots-parallel', 7)));
      const taken = releases.filter((release) => release !== undefined);
      expect(taken).toHaveLength(7);
      await Promise.all(taken.map((release) => release!()));
      expect(await limiter.acquire('slots-parallel', 7)).toBeTypeOf('function');
    });

    if (backend === 'redis') {
      it('gives every key a lifetime, so nothing outlives its window or lease', async () => {
        const limiter = rateLimiter(Date.now);
        await limiter.hit('rl-ttl', 10, HOUR_MS);
        await concurrencyLimiter().acquire('slots-ttl', 3);
        const keys = await redisKeysWithTtl(prefix);
        const windowKey = [...keys].find(([key]) => key.startsWith(`${prefix}rl:rl-ttl:`));
        const slotKey = keys.get(`${prefix}slots:slots-ttl`);
        expect(windowKey?.[1]).toBeGreaterThan(0);
        expect(windowKey?.[1]).toBeLessThanOrEqual(HOUR_MS + 60_000);
        expect(slotKey).toBeGreaterThan(0);
        expect(slotKey).toBeLessThanOrEqual(LEASE_MS);
        for (const [key, ttl] of keys) expect(ttl, key).toBeGreaterThan(0);
      });

      it('shares counts and slots between instances (separate connections, one Redis)', async () => {
        const otherInstance = await testRedisConnection(prefix);
        try {
          const [here, there] = [new RedisRateLimiter(redis!), new RedisRateLimiter(otherInstance)];
          expect((await here.hit('rl-shared', 2, HOUR_MS)).remaining).toBe(1);
          expect((await there.hit('rl-shared', 2, HOUR_MS)).remaining).toBe(0);
          expect((await here.hit('rl-shared', 2, HOUR_MS)).allowed).toBe(false);
          const silent = pino({ level: 'silent' });
          const release = await new RedisConcurrencyLimiter(redis!, LEASE_MS, silent).acquire('slots-shared', 1);
          expect(await new RedisConcurrencyLimiter(otherInstance, LEASE_MS, silent).acquire('slots-shared', 1)).toBeUndefined();
          await release!();
          expect(await new RedisConcurrencyLimiter(otherInstance, LEASE_MS, silent).acquire('slots-shared', 1)).toBeTypeOf('function');
        } finally {
          await otherInstance.close();
        }
      });

      it('frees a slot its holder never gave back (a crashed instance) once the lease ends', async () => {
        const clock = manualClock(Date.now());
        const limiter = concurrencyLimiter(clock.read);
        expect(await limiter.acquire('slots-crashed', 1)).toBeTypeOf('function');
        expect(await limiter.acquire('slots-crashed', 1)).toBeUndefined();
        clock.now += LEASE_MS - 1;
        expect(await limiter.acquire('slots-crashed', 1)).toBeUndefined();
        clock.now += 2;
        expect(await limiter.acquire('slots-crashed', 1)).toBeTypeOf('function');
      });
    }
  });
}
