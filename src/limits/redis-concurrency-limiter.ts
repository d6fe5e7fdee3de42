import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { LuaScript, type RedisConnection } from '../redis/redis-connection.js';
import type { ConcurrencyLimiter, ReleaseSlot } from './concurrency-limiter.js';

/**
 * Slots are members of a sorted set scored by their expiry. Expired slots (their instance
 * crashed before giving them back) are pruned first, then a slot is taken if one is free.
 * The set itself expires with its newest slot. KEYS[1] slot set; ARGV[1] now (ms),
 * ARGV[2] lease (ms), ARGV[3] limit, ARGV[4] slot id. Returns 1 when a slot was taken.
 */
const ACQUIRE = new LuaScript(`
local now = tonumber(ARGV[1])
local lease = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], now + lease, ARGV[4])
if redis.call('PTTL', KEYS[1]) < lease then redis.call('PEXPIRE', KEYS[1], lease) end
return 1
`);

/** Requests in flight per account, counted across every instance sharing the Redis. */
export class RedisConcurrencyLimiter implements ConcurrencyLimiter {
  constructor(
    private readonly redis: RedisConnection,
    private readonly leaseMs: number,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  async acquire(key: string, limit: number): Promise<ReleaseSlot | undefined> {
    const slots = this.redis.key('slots', key);
    const slotId = randomUUID();
    const taken = await this.redis.run((client) => ACQUIRE.run(client, [slots], [this.now(), this.leaseMs, limit, slotId]));
    if (taken !== 1) return undefined;
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      // A release lost to an outage is not the caller's problem: the lease frees the slot.
      await this.redis.run((client) => client.zrem(slots, slotId)).catch((error: unknown) => {
        this.logger.warn({ err: error, key }, 'concurrency slot not released; it frees itself when its lease ends');
      });
    };
  }

  /** The connection is shared and closed by its owner. */
  async close(): Promise<void> {}
}
