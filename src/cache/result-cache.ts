/** Web operations cached per API version; clear-cache reports the two separately. */
export type CacheVersion = 'v1' | 'v2';

export interface CacheClearCounts {
  v1: number;
  v2: number;
}

/**
 * Per-user cache of web operation results, keyed on the normalised request. Entries of one
 * user are never visible to another: every call names the user, and implementations keep each
 * user's entries under that user's own key space.
 */
export interface ResultCache {
  /** The entry if it exists and is at most `maxAgeSeconds` old. */
  get(userId: string, key: string, maxAgeSeconds: number): Promise<unknown>;
  set(userId: string, key: string, value: unknown, ttlSeconds: number): Promise<void>;
  /** Deletes every entry of the user, counting v1 and v2 entries. */
  clearUser(userId: string): Promise<CacheClearCounts>;
  close(): Promise<void>;
}

/** `v1:markdown:<hash>`: the version prefix is how clear-cache tells v1 from v2 entries. */
export function cacheKey(version: CacheVersion, operation: string, hash: string): string {
  return `${version}:${operation}:${hash}`;
}

export function versionOf(key: string): CacheVersion {
  return key.startsWith('v2:') ? 'v2' : 'v1';
}

/** The JSON of a value and its size in bytes, or undefined when it is over `maxBytes` (not cached). */
export function encodeEntry(value: unknown, maxBytes: number): { json: string; bytes: number } | undefined {
  const json = JSON.stringify(value);
  const bytes = Buffer.byteLength(json);
  return bytes <= maxBytes ? { json, bytes } : undefined;
}
