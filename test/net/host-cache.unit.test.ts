import { describe, expect, it } from 'vitest';
import { createHostCache } from '../../src/net/host-cache.js';

/** A resolver standing in for DNS: answers from a table after `delayMs`, counting lookups per name. */
function tableDns(table: Record<string, string[]>, delayMs = 10) {
  const lookups: string[] = [];
  const resolve = async (hostname: string) => {
    lookups.push(hostname);
    await new Promise((done) => setTimeout(done, delayMs));
    const answer = table[hostname];
    if (!answer) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answer;
  };
  return { resolve, lookups };
}

describe('host cache', () => {
  it('looks a name up once for concurrent requests, answers and failures alike', async () => {
    const dns = tableDns({ 'a.test': ['93.184.215.14'] });
    const cached = createHostCache(dns.resolve);
    const answers = await Promise.all(Array.from({ length: 20 }, () => cached('a.test')));
    expect(answers.every((answer) => answer[0] === '93.184.215.14')).toBe(true);
    const failures = await Promise.allSettled(Array.from({ length: 20 }, () => cached('dead.test')));
    expect(failures.every((failure) => failure.status === 'rejected' && /ENOTFOUND/.test(String(failure.reason)))).toBe(true);
    expect(dns.lookups).toEqual(['a.test', 'dead.test']);
  });

  it('reuses an answer for its time to live, a failure for a shorter one, then asks again', async () => {
    let now = 1_000;
    const dns = tableDns({ 'a.test': ['93.184.215.14'] }, 0);
    const cached = createHostCache(dns.resolve, { ttlMs: 30_000, failureTtlMs: 5_000, now: () => now });
    await cached('a.test');
    await cached('dead.test').catch(() => undefined);
    now += 4_000;
    await cached('a.test');
    await cached('dead.test').catch(() => undefined);
    expect(dns.lookups).toEqual(['a.test', 'dead.test']);
    now += 2_000;
    await cached('dead.test').catch(() => undefined);
    await cached('a.test');
    expect(dns.lookups).toEqual(['a.test', 'dead.test', 'dead.test']);
    now += 30_000;
    await cached('a.test');
    expect(dns.lookups).toEqual(['a.test', 'dead.test', 'dead.test', 'a.test']);
  });

  it('treats names case-insensitively and keeps at most maxEntries names', async () => {
    const table = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`h${i}.test`, [`93.184.215.${i + 1}`]]));
    const dns = tableDns(table, 0);
    const cached = createHostCache(dns.resolve, { maxEntries: 3 });
    expect(await cached('H0.Test')).toEqual(['93.184.215.1']);
    for (let i = 1; i < 5; i++) await cached(`h${i}.test`);
    await cached('h4.test');
    expect(dns.lookups.filter((name) => name === 'h4.test')).toHaveLength(1);
    await cached('h0.test'); // evicted as the oldest: asked again
    expect(dns.lookups).toEqual(['h0.test', 'h1.test', 'h2.test', 'h3.test', 'h4.test', 'h0.test']);
  });
});
