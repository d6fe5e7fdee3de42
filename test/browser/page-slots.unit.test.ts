import { describe, expect, it } from 'vitest';
import { PageSlots } from '../../src/browser/page-slots.js';
import { PoolOverloaded, RequestAborted } from '../../src/browser/types.js';

const slots = (overrides: Partial<ConstructorParameters<typeof PageSlots>[0]> = {}) =>
  new PageSlots({ maxActive: 4, maxActivePerAccount: 3, maxQueued: 100, queueTimeoutMs: 10_000, ...overrides });

/** Records the order in which waiting requests get their page. */
function track(pool: PageSlots, account: string, granted: string[], signal?: AbortSignal) {
  const request = pool.acquire(account, signal).then((release) => {
    granted.push(account);
    return release;
  });
  request.catch(() => undefined);
  return request;
}

describe('page slots: a fair share of the browser between accounts', () => {
  it('never lets one account hold more than its cap, even with pages free', async () => {
    const pool = slots();
    const granted: string[] = [];
    const held = await Promise.all([0, 1, 2].map(() => pool.acquire('attacker')));
    const fourth = track(pool, 'attacker', granted);
    await Promise.resolve();
    expect(granted).toEqual([]);
    expect(pool.activeCount).toBe(3);
    // Another account gets the page that is left, at once.
    const other = await pool.acquire('victim');
    expect(pool.activeCount).toBe(4);
    other();
    // The attacker's fourth waits for one of its own pages to free.
    await Promise.resolve();
    expect(granted).toEqual([]);
    held[0]!();
    await fourth;
    expect(granted).toEqual(['attacker']);
  });

  it('gives a freed page to the waiting account that holds the fewest, not to the longest queue', async () => {
    const pool = slots({ maxActive: 2, maxActivePerAccount: 2 });
    const granted: string[] = [];
    const [a1, a2] = await Promise.all([pool.acquire('a'), pool.acquire('a')]);
    const waiting = [track(pool, 'a', granted), track(pool, 'a', granted), track(pool, 'b', granted), track(pool, 'c', granted)];
    a1!();
    await waiting[2];
    expect(granted).toEqual(['b']);
    // a and c now hold none: the longest waiter among them goes first, then c before a's second.
    a2!();
    await waiting[0];
    expect(granted).toEqual(['b', 'a']);
    (await waiting[2]!)();
    await waiting[3];
    expect(granted).toEqual(['b', 'a', 'c']);
  });

  it('takes a request whose caller has gone out of the queue at once, and refuses one already gone', async () => {
    const pool = slots({ maxActive: 1, maxActivePerAccount: 1 });
    const release = await pool.acquire('a');
    const controller = new AbortController();
    const waiting = pool.acquire('b', controller.signal);
    expect(pool.queuedCount).toBe(1);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(RequestAborted);
    expect(pool.queuedCount).toBe(0);
    await expect(pool.acquire('c', controller.signal)).rejects.toBeInstanceOf(RequestAborted);
    release();
    expect(pool.activeCount).toBe(0);
  });

  it('turns requests away when the queue is full or the wait too long', async () => {
    const pool = slots({ maxActive: 1, maxActivePerAccount: 1, maxQueued: 1, queueTimeoutMs: 50 });
    await pool.acquire('a');
    const waiting = pool.acquire('b');
    await expect(pool.acquire('c')).rejects.toBeInstanceOf(PoolOverloaded);
    await expect(waiting).rejects.toBeInstanceOf(PoolOverloaded);
  });
});
