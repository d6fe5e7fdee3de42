import { LuaScript, type RedisConnection } from '../redis/redis-connection.js';
import type { CacheLimits } from '../config.js';
import { type CacheClearCounts, encodeEntry, type ResultCache } from './result-cache.js';

/**
 * Stores an entry, records it in the user's index (a sorted set scored by expiry) and its size in
 * the user's sizes (a hash, whose '' field is the user's total), then drops the user's oldest
 * entries while the total is over the user's bound. Expired index members are pruned first. All
 * three keys expire. KEYS[1] entry, KEYS[2] index, KEYS[3] sizes; ARGV[1] entry JSON, ARGV[2] TTL
 * (ms), ARGV[3] member (the cache key), ARGV[4] now (ms), ARGV[5] expiry (ms), ARGV[6] size
 * (bytes), ARGV[7] the user's bound (bytes), ARGV[8] entry key prefix.
 */
const SET = new LuaScript(`
local function forget(member)
  local size = redis.call('HGET', KEYS[3], member)
  if size then
    redis.call('HDEL', KEYS[3], member)
    redis.call('HINCRBY', KEYS[3], '', 0 - tonumber(size))
  end
  redis.call('ZREM', KEYS[2], member)
end
for _, member in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[4])) do forget(member) end
forget(ARGV[3])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[5], ARGV[3])
redis.call('HSET', KEYS[3], ARGV[3], ARGV[6])
local total = redis.call('HINCRBY', KEYS[3], '', ARGV[6])
while total > tonumber(ARGV[7]) do
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0)[1]
  if not oldest or oldest == ARGV[3] then break end
  forget(oldest)
  redis.call('DEL', ARGV[8] .. oldest)
  total = tonumber(redis.call('HGET', KEYS[3], ''))
end
for i = 2, 3 do
  if redis.call('PTTL', KEYS[i]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
end
return 1
`);

/**
 * Deletes every entry in the user's index and the index, counting the unexpired ones by the
 * version prefix of their key. KEYS[1] index, KEYS[2] sizes; ARGV[1] entry key prefix, ARGV[2] now (ms).
 * Entry keys are built from the index key's hash tag, so all of a user's keys share a slot.
 */
const CLEAR = new LuaScript(`
local members = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local v1, v2 = 0, 0
for i = 1, #members, 2 do
  local member = members[i]
  local removed = redis.call('DEL', ARGV[1] .. member)
  if removed == 1 and tonumber(members[i + 1]) > tonumber(ARGV[2]) then
    if string.sub(member, 1, 3) == 'v2:' then v2 = v2 + 1 else v1 = v1 + 1 end
  end
end
redis.call('DEL', KEYS[1], KEYS[2])
return {v1, v2}
`);

interface StoredEntry {
  storedAt: number;
  expiresAt: number;
  value: unknown;
}

/**
 * The result cache shared by every instance. A user's entries live under
 * `<prefix>cache:{<userId>}:`; nothing reads across that boundary, so one user's cached
 * result can never be served to another.
 */
export class RedisResultCache implements ResultCache {
  constructor(
    private readonly redis: RedisConnection,
    private readonly limits: Pick<CacheLimits, 'maxEntryBytes' | 'maxUserBytes'>,
    private readonly now: () => number = Date.now,
  ) {}

  async get(userId: string, key: string, maxAgeSeconds: number): Promise<unknown> {
    const raw = await this.redis.run((client) => client.get(this.entryKey(userId, key)));
    if (raw === null) return undefined;
    const entry = JSON.parse(raw) as StoredEntry;
    const now = this.now();
    if (entry.expiresAt <= now || now - entry.storedAt > maxAgeSeconds * 1000) return undefined;
    return entry.value;
  }

  async set(userId: string, key: string, value: unknown, ttlSeconds: number): Promise<void> {
    if (ttlSeconds <= 0) return;
    const now = this.now();
    const ttlMs = ttlSeconds * 1000;
    const encoded = encodeEntry({ storedAt: now, expiresAt: now + ttlMs, value } satisfies StoredEntry, this.limits.maxEntryBytes);
    if (!encoded) return;
    const keys = [this.entryKey(userId, key), this.indexKey(userId), this.sizesKey(userId)];
    const args = [encoded.json, ttlMs, key, now, now + ttlMs, encoded.bytes, this.limits.maxUserBytes, this.entryKey(userId, '')];
    await this.redis.run((client) => SET.run(client, keys, args));
  }

  async clearUser(userId: string): Promise<CacheClearCounts> {
    const result = await this.redis.run((client) =>
      CLEAR.run(client, [this.indexKey(userId), this.sizesKey(userId)], [this.entryKey(userId, ''), this.now()]),
    );
    const [v1, v2] = result as [number, number];
    return { v1, v2 };
  }

  /** The connection is shared and closed by its owner. */
  async close(): Promise<void> {}

  private indexKey(userId: string): string {
    return this.redis.key('cache', `{${userId}}`);
  }

  private sizesKey(userId: string): string {
    return `${this.indexKey(userId)}#sizes`;
  }

  private entryKey(userId: string, key: string): string {
    return `${this.indexKey(userId)}:${key}`;
  }
}
