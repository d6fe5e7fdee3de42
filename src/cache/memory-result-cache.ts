import { type CacheClearCounts, type ResultCache, versionOf } from './result-cache.js';

interface Entry {
  userId: string;
  key: string;
  value: unknown;
  storedAt: number;
  expiresAt: number;
}

/**
 * In-process cache for one instance, bounded in entries. A Map keeps insertion order, so the
 * oldest entry is evicted first in constant time; a per-user index serves clear-cache.
 */
export class MemoryResultCache implements ResultCache {
  private readonly entries = new Map<string, Entry>();
  private readonly byUser = new Map<string, Set<string>>();

  constructor(
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  async get(userId: string, key: string, maxAgeSeconds: number): Promise<unknown> {
    const id = entryId(userId, key);
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    const now = this.now();
    if (entry.expiresAt <= now) {
      this.remove(id);
      return undefined;
    }
    // Copies in and out, as Redis would: a caller changing its result cannot change the cache.
    return now - entry.storedAt <= maxAgeSeconds * 1000 ? structuredClone(entry.value) : undefined;
  }

  async set(userId: string, key: string, value: unknown, ttlSeconds: number): Promise<void> {
    if (ttlSeconds <= 0) return;
    const id = entryId(userId, key);
    this.remove(id);
    while (this.entries.size >= this.maxEntries) this.remove(this.entries.keys().next().value!);
    const now = this.now();
    this.entries.set(id, { userId, key, value: structuredClone(value), storedAt: now, expiresAt: now + ttlSeconds * 1000 });
    let ids = this.byUser.get(userId);
    if (!ids) this.byUser.set(userId, (ids = new Set()));
    ids.add(id);
  }

  async clearUser(userId: string): Promise<CacheClearCounts> {
    const counts = { v1: 0, v2: 0 };
    for (const id of [...(this.byUser.get(userId) ?? [])]) {
      const entry = this.entries.get(id);
      if (entry && entry.expiresAt > this.now()) counts[versionOf(entry.key)] += 1;
      this.remove(id);
    }
    return counts;
  }

  async close(): Promise<void> {
    this.entries.clear();
    this.byUser.clear();
  }

  private remove(id: string) {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    const ids = this.byUser.get(entry.userId);
    ids?.delete(id);
    if (ids?.size === 0) this.byUser.delete(entry.userId);
  }
}

function entryId(userId: string, key: string): string {
  return `${userId}\u0000${key}`;
}
