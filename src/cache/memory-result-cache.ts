import type { CacheLimits } from '../config.js';
import { type CacheClearCounts, encodeEntry, type ResultCache, versionOf } from './result-cache.js';

interface Entry {
  userId: string;
  key: string;
  /** The value as JSON: stored once, parsed per read, so the cache's size is known and callers get copies. */
  json: string;
  bytes: number;
  storedAt: number;
  expiresAt: number;
}

interface UserEntries {
  /** In insertion order: the first is the oldest. */
  ids: Set<string>;
  bytes: number;
}

/**
 * In-process cache for one instance, bounded in bytes of stored JSON (CACHE_MAX_BYTES), per
 * account (CACHE_MAX_USER_BYTES) and per entry (CACHE_MAX_ENTRY_BYTES), and in entries. A Map
 * keeps insertion order, so the oldest entry is evicted first in constant time; a per-user index
 * serves clear-cache and the per-account bound.
 */
export class MemoryResultCache implements ResultCache {
  private readonly entries = new Map<string, Entry>();
  private readonly byUser = new Map<string, UserEntries>();
  private totalBytes = 0;

  constructor(
    private readonly limits: CacheLimits & { maxEntries?: number },
    private readonly now: () => number = Date.now,
  ) {}

  /** Bytes of JSON held now: for tests and diagnostics. */
  get bytes(): number {
    return this.totalBytes;
  }

  async get(userId: string, key: string, maxAgeSeconds: number): Promise<unknown> {
    const id = entryId(userId, key);
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    const now = this.now();
    if (entry.expiresAt <= now) {
      this.remove(id);
      return undefined;
    }
    return now - entry.storedAt <= maxAgeSeconds * 1000 ? JSON.parse(entry.json) : undefined;
  }

  async set(userId: string, key: string, value: unknown, ttlSeconds: number): Promise<void> {
    if (ttlSeconds <= 0) return;
    const id = entryId(userId, key);
    this.remove(id);
    const encoded = encodeEntry(value, this.limits.maxEntryBytes);
    if (!encoded) return;
    const user = this.byUser.get(userId);
    while (user && user.ids.size > 0 && user.bytes + encoded.bytes > this.limits.maxUserBytes) this.remove(user.ids.values().next().value!);
    const maxEntries = this.limits.maxEntries ?? 10_000;
    while (this.entries.size > 0 && (this.entries.size >= maxEntries || this.totalBytes + encoded.bytes > this.limits.maxBytes)) {
      this.remove(this.entries.keys().next().value!);
    }
    const now = this.now();
    this.entries.set(id, { userId, key, ...encoded, storedAt: now, expiresAt: now + ttlSeconds * 1000 });
    this.totalBytes += encoded.bytes;
    const entries = this.byUser.get(userId) ?? { ids: new Set<string>(), bytes: 0 };
    entries.ids.add(id);
    entries.bytes += encoded.bytes;
    this.byUser.set(userId, entries);
  }

  async clearUser(userId: string): Promise<CacheClearCounts> {
    const counts = { v1: 0, v2: 0 };
    for (const id of [...(this.byUser.get(userId)?.ids ?? [])]) {
      const entry = this.entries.get(id);
      if (entry && entry.expiresAt > this.now()) counts[versionOf(entry.key)] += 1;
      this.remove(id);
    }
    return counts;
  }

  async close(): Promise<void> {
    this.entries.clear();
    this.byUser.clear();
    this.totalBytes = 0;
  }

  private remove(id: string) {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.totalBytes -= entry.bytes;
    const user = this.byUser.get(entry.userId);
    if (!user) return;
    user.ids.delete(id);
    user.bytes -= entry.bytes;
    if (user.ids.size === 0) this.byUser.delete(entry.userId);
  }
}

function entryId(userId: string, key: string): string {
  return `${userId}\u0000${key}`;
}
