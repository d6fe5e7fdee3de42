import type { HostResolver } from './address-policy.js';

export interface HostCacheOptions {
  /** How long an answer is reused. The system resolver gives no TTL; Chromium keeps such answers 60 s. */
  ttlMs?: number;
  /** How long a failed lookup is remembered, so a page's many requests to a dead host pay for it once. */
  failureTtlMs?: number;
  /** Names remembered at most; the oldest go first. */
  maxEntries?: number;
  now?: () => number;
}

interface Entry {
  expires: number;
  answer: Promise<string[]>;
}

/**
 * A resolver that looks each name up once at a time and reuses the answer briefly, as a browser's
 * own host cache does. Chromium resolves nothing itself behind the egress proxy, so without this
 * every request to a host cost a lookup of its own: a page with forty requests to a tracker whose
 * DNS does not answer ran forty lookups, six at a time (Chromium's connections per host), each
 * waiting out the system resolver's 5 s timeout.
 *
 * Safe for the address policy: every answer is still checked on each use, and connections go to
 * exactly the checked addresses, so reusing an answer cannot let a refused address through.
 */
export function createHostCache(resolve: HostResolver, options: HostCacheOptions = {}): HostResolver {
  const ttlMs = options.ttlMs ?? 30_000;
  const failureTtlMs = options.failureTtlMs ?? 10_000;
  const maxEntries = options.maxEntries ?? 4_096;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();

  return (hostname) => {
    const key = hostname.toLowerCase();
    const cached = entries.get(key);
    if (cached && cached.expires > now()) return cached.answer;
    entries.delete(key);
    // Until it settles, the lookup itself is the entry: every request for the name waits on it.
    const entry: Entry = { expires: Number.POSITIVE_INFINITY, answer: resolve(key) };
    entries.set(key, entry);
    while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    entry.answer.then(
      () => {
        entry.expires = now() + ttlMs;
      },
      () => {
        entry.expires = now() + failureTtlMs;
      },
    );
    return entry.answer;
  };
}
