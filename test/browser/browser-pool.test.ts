import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BrowserPool } from '../../src/browser/browser-pool.js';
import { processesUsingProfile } from '../../src/browser/chromium-process.js';
import { BrowserCrashed, PoolOverloaded } from '../../src/browser/types.js';
import { htmlPage, type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { createTestPool, rejectionOf, type TestPoolOptions } from './test-pool.js';

/** Resolves `release` when called: lets a test hold a page open as long as it likes. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('browser pool', () => {
  let site: RecordingServer;
  const pools: BrowserPool[] = [];
  const pool = (options: TestPoolOptions = {}) => {
    const created = createTestPool({ allowPrivateHosts: [site.hostPort], ...options });
    pools.push(created);
    return created;
  };

  beforeAll(async () => {
    site = await startRecordingServer({
      '/set': htmlPage(`<script>localStorage.setItem('secret', 'from-first-caller'); sessionStorage.setItem('s', '1');</script>`, {
        'set-cookie': 'session=first-caller; Path=/; Max-Age=3600',
      }),
      '/read': htmlPage('<p>read</p>'),
      '/cached': htmlPage('<p>cached</p>', { 'cache-control': 'public, max-age=3600' }),
    });
  });
  afterAll(async () => {
    await Promise.all(pools.map((created) => created.close()));
    await site.close();
  });

  it('turns a request away at once when every page is busy and the queue is full', async () => {
    const busy = pool({ maxPages: 1, maxQueue: 0, queueTimeoutMs: 3_000 });
    const held = gate();
    const entered = gate();
    const first = busy.withLoadedPage({}, { url: `${site.origin}/read` }, async () => {
      entered.open();
      await held.opened;
      return 'first';
    });
    await entered.opened;
    const error = await rejectionOf(busy.withLoadedPage({}, { url: `${site.origin}/read` }, async () => 'second'));
    expect(error).toBeInstanceOf(PoolOverloaded);
    expect((error as PoolOverloaded).retryAfterSeconds).toBe(3);
    held.open();
    expect(await first).toBe('first');
  });

  it('turns a request away when it waited in the queue too long, and serves the queue in order otherwise', async () => {
    const busy = pool({ maxPages: 1, maxQueue: 2, queueTimeoutMs: 300 });
    const held = gate();
    const entered = gate();
    const first = busy.withLoadedPage({}, { url: `${site.origin}/read` }, async () => {
      entered.open();
      await held.opened;
      return 'first';
    });
    await entered.opened;
    const waited = await rejectionOf(busy.withLoadedPage({}, { url: `${site.origin}/read` }, async () => 'second'));
    expect(waited).toBeInstanceOf(PoolOverloaded);
    expect(waited.message).toContain('within 300 ms');
    expect(busy.stats().queued).toBe(0);
    held.open();
    expect(await first).toBe('first');
    expect(await busy.withLoadedPage({}, { url: `${site.origin}/read` }, async () => 'after')).toBe('after');
  });

  it('gives every request a fresh context: no cookie, storage or cache crosses between callers', async () => {
    const isolated = pool({ maxPages: 2, preparedContexts: 2 });
    const first = await isolated.withLoadedPage({}, { url: `${site.origin}/set` }, async ({ page }) => ({
      cookie: await page.evaluate(() => document.cookie),
      stored: await page.evaluate(() => localStorage.getItem('secret')),
    }));
    expect(first).toEqual({ cookie: 'session=first-caller', stored: 'from-first-caller' });
    await isolated.withLoadedPage({}, { url: `${site.origin}/cached` }, async () => undefined);
    const second = await isolated.withLoadedPage({}, { url: `${site.origin}/read` }, async ({ page, context }) => ({
      cookie: await page.evaluate(() => document.cookie),
      stored: await page.evaluate(() => localStorage.getItem('secret')),
      session: await page.evaluate(() => sessionStorage.getItem('s')),
      jarSize: (await context.cookies()).length,
    }));
    expect(second).toEqual({ cookie: '', stored: null, session: null, jarSize: 0 });
    expect(site.hitsTo('/read').at(-1)?.headers.cookie).toBeUndefined();
    await isolated.withLoadedPage({}, { url: `${site.origin}/cached` }, async () => undefined);
    expect(site.hitsTo('/cached'), 'the second caller was served from the first caller’s cache').toHaveLength(2);
  });

  it('answers BrowserCrashed when Chromium is killed mid-request, serves the next requests, and leaves no process behind', async () => {
    const crashy = pool({ maxPages: 1, maxQueue: 5 });
    await crashy.withLoadedPage({}, { url: `${site.origin}/read` }, async () => undefined);
    const before = crashy.stats();
    expect(before.browserPid).toBeTypeOf('number');
    expect(before.userDataDir).toBeTypeOf('string');
    expect(await processesUsingProfile(before.userDataDir as string)).not.toHaveLength(0);

    const inFlight = crashy.withLoadedPage({}, { url: `${site.origin}/read` }, async ({ page }) => {
      process.kill(before.browserPid as number, 'SIGKILL');
      await page.waitForTimeout(20_000);
      return 'survived';
    });
    const queued = crashy.withLoadedPage({}, { url: `${site.origin}/read` }, async ({ page }) => page.textContent('p'));
    const crash = await rejectionOf(inFlight);
    expect(crash).toBeInstanceOf(BrowserCrashed);
    expect(await queued).toBe('read');

    const after = crashy.stats();
    expect(after.browserPid).toBeTypeOf('number');
    expect(after.browserPid).not.toBe(before.browserPid);
    await vi.waitFor(async () => expect(await processesUsingProfile(before.userDataDir as string)).toEqual([]), { timeout: 5_000 });
    await crashy.close();
    expect(await processesUsingProfile(after.userDataDir as string)).toEqual([]);
    await expect(crashy.withLoadedPage({}, { url: `${site.origin}/read` }, async () => 'closed')).rejects.toBeInstanceOf(BrowserCrashed);
  });

  it('recycles the browser after its page budget, draining it first', async () => {
    const recycling = pool({ maxPages: 2, recycleAfter: 2 });
    const first = await recycling.withLoadedPage({}, { url: `${site.origin}/read` }, async () => recycling.stats());
    const second = await recycling.withLoadedPage({}, { url: `${site.origin}/read` }, async ({ page }) => {
      await page.waitForTimeout(50);
      return page.textContent('p');
    });
    expect(second).toBe('read');
    const third = await recycling.withLoadedPage({}, { url: `${site.origin}/read` }, async () => recycling.stats());
    expect(third.browserPid).not.toBe(first.browserPid);
    await vi.waitFor(async () => expect(await processesUsingProfile(first.userDataDir as string)).toEqual([]), { timeout: 5_000 });
  });

  it('does not start Chromium until the first page is asked for, and reports readiness without it', async () => {
    const lazy = pool();
    expect(await lazy.readiness()).toEqual({ status: 'ok', detail: 'not started' });
    expect(lazy.stats().browserPid).toBeUndefined();
    const missing = pool({ executablePath: '/nonexistent/chromium' });
    expect((await missing.readiness()).status).toBe('unavailable');
    await expect(missing.withLoadedPage({}, { url: `${site.origin}/read` }, async () => 'never')).rejects.toBeInstanceOf(BrowserCrashed);
  });
});
