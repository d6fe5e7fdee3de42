import { LuaScript, type RedisConnection } from '../redis/redis-connection.js';
import { type JointRateLimitDecision, onlyWindow, type RateLimitCounter, type RateLimitDecision, type RateLimiter, windowBounds } from './rate-limiter.js';

/**
 * Counts `cost` requests in every window, or in none when one has no room for them (a refused
 * request is not counted, as in the memory limiter): one script, so no other request counts in
 * between, on any instance. Every counted key carries a TTL, so windows never outlive their hour.
 * KEYS window counters; ARGV[1] cost, ARGV[2] TTL in ms, ARGV[2 + i] the limit of KEYS[i].
 * Returns {refusedBy (0: allowed), count of KEYS[1], count of KEYS[2], ...}.
 */
const HIT_ALL = new LuaScript(`
local cost = tonumber(ARGV[1])
local counts = {}
local refused = 0
for i, key in ipairs(KEYS) do
  counts[i] = tonumber(redis.call('GET', key) or '0')
  if refused == 0 and counts[i] + cost > tonumber(ARGV[2 + i]) then refused = i end
end
if refused == 0 then
  for i, key in ipairs(KEYS) do
    counts[i] = redis.call('INCRBY', key, cost)
    if redis.call('PTTL', key) < 0 then redis.call('PEXPIRE', key, ARGV[2]) end
  end
end
table.insert(counts, 1, refused)
return counts
`);

/** Slack past the window end before the counter goes, for clocks that differ a little. */
const EXPIRY_SLACK_MS = 60_000;

/**
 * Fixed windows shared by every instance: one counter per key and window start. Counters
 * counted together must share a Redis Cluster slot: give their keys the same `{hash tag}`.
 */
export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: RedisConnection,
    private readonly now: () => number = Date.now,
  ) {}

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    return onlyWindow(await this.hitAll([{ key, limit }], windowMs));
  }

  async hitAll(counters: readonly RateLimitCounter[], windowMs: number, cost = 1): Promise<JointRateLimitDecision> {
    const nowMs = this.now();
    const { start, end } = windowBounds(nowMs, windowMs);
    const keys = counters.map(({ key }) => this.redis.key('rl', key, String(start)));
    const ttlMs = end - nowMs + EXPIRY_SLACK_MS;
    const args = [cost, ttlMs, ...counters.map(({ limit }) => limit)];
    const [refused, ...counts] = (await this.redis.run((client) => HIT_ALL.run(client, keys, args))) as number[];
    const allowed = refused === 0;
    return {
      allowed,
      refusedBy: allowed ? undefined : refused! - 1,
      windows: counters.map(({ limit }, i) => {
        const count = counts[i]!;
        return { allowed: allowed || count + cost <= limit, limit, remaining: Math.max(0, limit - count), resetAt: Math.ceil(end / 1000) };
      }),
    };
  }

  /** The connection is shared and closed by its owner. */
  async close(): Promise<void> {}
}
