import { LuaScript, type RedisConnection } from '../redis/redis-connection.js';
import { type RateLimitDecision, type RateLimiter, windowBounds } from './rate-limiter.js';

/**
 * Counts one request unless the window is full (a refused request is not counted, as in the
 * memory limiter). The key always carries a TTL, so windows never outlive their hour.
 * KEYS[1] window counter; ARGV[1] limit, ARGV[2] TTL in ms. Returns {allowed, count}.
 */
const HIT = new LuaScript(`
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local allowed = 0
if count < tonumber(ARGV[1]) then
  count = redis.call('INCR', KEYS[1])
  allowed = 1
end
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return {allowed, count}
`);

/** Slack past the window end before the counter goes, for clocks that differ a little. */
const EXPIRY_SLACK_MS = 60_000;

/** Fixed windows shared by every instance: one counter per key and window start. */
export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: RedisConnection,
    private readonly now: () => number = Date.now,
  ) {}

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const nowMs = this.now();
    const { start, end } = windowBounds(nowMs, windowMs);
    const counter = this.redis.key('rl', key, String(start));
    const ttlMs = end - nowMs + EXPIRY_SLACK_MS;
    const [allowed, count] = (await this.redis.run((client) => HIT.run(client, [counter], [limit, ttlMs]))) as [number, number];
    return { allowed: allowed === 1, limit, remaining: Math.max(0, limit - count), resetAt: Math.ceil(end / 1000) };
  }

  /** The connection is shared and closed by its owner. */
  async close(): Promise<void> {}
}
