import { LuaScript, type RedisConnection } from '../redis/redis-connection.js';
import type { CacheClearCounts, ResultCache } from './result-cache.js';

/**
 * Stores an entry and records it in the user's index (a sorted set scored by expiry), pruning
 * expired index members; both keys expire. KEYS[1] entry, KEYS[2] index; ARGV[1] value,
 * ARGV[2] TTL (ms), ARGV[3] member (the cache key), ARGV[4] now (ms), ARGV[5] expiry (ms).
 */
const SET = new LuaScript(`
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[5], ARGV[3])
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
return 1
`);

/**
 * Deletes every entry in the user's index and the index, counting the unexpired ones by the
 * version prefix of their key. KEYS[1] index; ARGV[1] entry key prefix, ARGV[2] now (ms).
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
redis.call('DEL', KEYS[1])
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
    const entry: StoredEntry = { storedAt: now, expiresAt: now + ttlMs, value };
    const keys = [this.entryKey(userId, key), this.indexKey(userId)];
    await this.redis.run((client) => SET.run(client, keys, [JSON.stringify(entry), ttlMs, key, now, now + ttlMs]));
  }

  async clearUser(userId: string): Promise<CacheClearCounts> {
    const result = await this.redis.run((client) =>
      CLEAR.run(client, [this.indexKey(userId)], [this.entryKey(userId, ''), this.now()]),
    );
    const [v1, v2] = result as [number, number];
    return { v1, v2 };
  }

  /** The connection is shared and closed by its owner. */
  async close(): Promise<void> {}

  private indexKey(userId: string): string {
    return this.redis.key('cache', `{${userId}}`);
  }

  private entryKey(userId: string, key: string): string {
    return `${this.indexKey(userId)}:${key}`;
  }
}
