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

    it('counts several windows together, all or none: a refusal by one spends nothing of the others', async () => {
      const limiter = rateLimiter(manualClock().read);
      const key = (name: string) => ({ key: `rl-joint:${name}`, limit: 3 });
      const account = { key: 'rl-joint:account', limit: 5 };
      for (const remaining of [2, 1, 0]) {
        const decision = await limiter.hitAll([key('one'), account], HOUR_MS);
        expect(decision.allowed).toBe(true);
        expect(decision.windows.map((w) => w.remaining)).toEqual([remaining, remaining + 2]);
      }
      const keyFull = await limiter.hitAll([key('one'), account], HOUR_MS);
      expect(keyFull).toMatchObject({ allowed: false, refusedBy: 0 });
      expect(keyFull.windows.map((w) => [w.allowed, w.remaining])).toEqual([[false, 0], [true, 2]]);
      expect((await limiter.hitAll([key('two'), account], HOUR_MS)).windows.map((w) => w.remaining)).toEqual([2, 1]);
      expect((await limiter.hitAll([key('two'), account], HOUR_MS)).windows.map((w) => w.remaining)).toEqual([1, 0]);
      const accountFull = await limiter.hitAll([key('two'), account], HOUR_MS);
      expect(accountFull).toMatchObject({ allowed: false, refusedBy: 1 });
      // The account refused it, so the key's window still has the one request it had left.
      expect(accountFull.windows.map((w) => [w.allowed, w.remaining])).toEqual([[true, 1], [false, 0]]);
      expect((await limiter.hit('rl-joint:two', 3, HOUR_MS)).remaining).toBe(0);
    });

    it('counts a cost of several requests only when every window has room for all of them', async () => {
      const limiter = rateLimiter(manualClock().read);
      const counters = [{ key: 'rl-cost:key', limit: 10 }, { key: 'rl-cost:account', limit: 6 }];
      expect((await limiter.hitAll(counters, HOUR_MS, 4)).windows.map((w) => w.remaining)).toEqual([6, 2]);
      const tooMany = await limiter.hitAll(counters, HOUR_MS, 3);
      expect(tooMany).toMatchObject({ allowed: false, refusedBy: 1 });
      expect(tooMany.windows.map((w) => w.remaining)).toEqual([6, 2]);
      expect((await limiter.hitAll(counters, HOUR_MS, 2)).windows.map((w) => w.remaining)).toEqual([4, 0]);
      expect((await limiter.hitAll([{ key: 'rl-cost:fresh', limit: 3 }], HOUR_MS, 4)).allowed).toBe(false);
    });

    it('admits exactly the ceiling out of many parallel hits spread over several keys, none past its own limit', async () => {
      const limiter = rateLimiter(manualClock().read);
      const account = { key: 'rl-spread:account', limit: 17 };
      const keys = ['a', 'b', 'c', 'd'];
      const decisions = await Promise.all(
        Array.from({ length: 60 }, (_, i) => limiter.hitAll([{ key: `rl-spread:${keys[i % 4]}`, limit: 5 }, account], HOUR_MS)),
      );
      expect(decisions.filter((d) => d.allowed)).toHaveLength(17);
      const admittedPerKey = keys.map((_, k) => decisions.filter((d, i) => d.allowed && i % 4 === k).length);
      expect(Math.max(...admittedPerKey)).toBeLessThanOrEqual(5);
      // Refused hits counted nowhere: the account's window holds exactly what was admitted.
      expect((await limiter.hit('rl-spread:account', 100, HOUR_MS)).remaining).toBe(100 - 17 - 1);
    });

    it('keeps an hourly window while windows of another length come and go (auth attempts share the limiter)', async () => {
      const clock = manualClock(Date.UTC(2026, 10, 22, 10, 1));
      const limiter = rateLimiter(clock.read);
      expect((await limiter.hit('rl-mixed:hourly', 2, HOUR_MS)).remaining).toBe(1);
      clock.now = Date.UTC(2026, 10, 22, 10, 20);
      await limiter.hit('rl-mixed:quarter', 10, 15 * 60_000);
      clock.now = Date.UTC(2026, 10, 22, 10, 40);
      await limiter.hit('rl-mixed:quarter', 10, 15 * 60_000);
      expect((await limiter.hit('rl-mixed:hourly', 2, HOUR_MS)).remaining).toBe(0);
      expect((await limiter.hit('rl-mixed:hourly', 2, HOUR_MS)).allowed).toBe(false);
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

      it('admits exactly the ceiling when two instances count the same account in parallel', async () => {
        const otherInstance = await testRedisConnection(prefix);
        try {
          const instances = [new RedisRateLimiter(redis!), new RedisRateLimiter(otherInstance)];
          const account = { key: '{rl-two}:account', limit: 13 };
          const decisions = await Promise.all(
            Array.from({ length: 40 }, (_, i) => instances[i % 2]!.hitAll([{ key: `{rl-two}:key:${i % 3}`, limit: 6 }, account], HOUR_MS)),
          );
          expect(decisions.filter((d) => d.allowed)).toHaveLength(13);
          for (let k = 0; k < 3; k += 1) expect(decisions.filter((d, i) => d.allowed && i % 3 === k).length).toBeLessThanOrEqual(6);
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
