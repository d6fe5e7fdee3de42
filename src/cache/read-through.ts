import type { Logger } from 'pino';
import { unlessUnavailable } from '../redis/service-unavailable.js';
import type { ResultCache } from './result-cache.js';

export type CacheOutcome = 'HIT' | 'MISS';

export interface CacheLookup<T> {
  cache: ResultCache;
  userId: string;
  /** From `cacheKey(version, operation, fingerprint(...))`. */
  key: string;
  /** CACHE_TTL_SECONDS: how long a stored result lives; 0 turns caching off. */
  ttlSeconds: number;
  /** The caller's `maxAge`, capped by the TTL; 0 skips the lookup (the fresh result is still stored). */
  maxAgeSeconds: number | undefined;
  log: Logger;
  /** A cached value that can no longer be served (e.g. its stored file is gone) counts as a miss. */
  isUsable?: (cached: T) => Promise<boolean>;
  /** What of the result is stored (default: all of it), e.g. without image bytes. */
  toCacheValue?: (value: T) => T;
  /** False for a result that must not be stored (default: every result is). */
  shouldStore?: (value: T) => boolean;
}

/**
 * The caller's cached result when one is young enough, else a fresh one, which is then
 * stored. A cache that cannot be read answers 503; one that cannot be written only costs the
 * next request a miss, so that is logged and the fresh result still returned.
 */
export async function readThrough<T>(lookup: CacheLookup<T>, produce: () => Promise<T>): Promise<{ value: T; cache: CacheOutcome }> {
  const { cache, userId, key, ttlSeconds, log } = lookup;
  const maxAge = Math.min(lookup.maxAgeSeconds ?? ttlSeconds, ttlSeconds);
  if (maxAge > 0) {
    const cached = (await unlessUnavailable(() => cache.get(userId, key, maxAge))) as T | undefined;
    if (cached !== undefined && (!lookup.isUsable || (await lookup.isUsable(cached)))) return { value: cached, cache: 'HIT' };
  }
  const value = await produce();
  if (ttlSeconds > 0 && (lookup.shouldStore?.(value) ?? true)) {
    const stored = lookup.toCacheValue ? lookup.toCacheValue(value) : value;
    await cache.set(userId, key, stored, ttlSeconds).catch((error: unknown) => {
      log.warn({ err: error, key }, 'result cache write failed');
    });
  }
  return { value, cache: 'MISS' };
}
