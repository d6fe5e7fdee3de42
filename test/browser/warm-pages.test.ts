import type { ServerResponse } from 'node:http';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BrowserPool } from '../../src/browser/browser-pool.js';
import type { ContextOptions, LoadedPage, LoadOptions, PageClaim } from '../../src/browser/types.js';
import { htmlPage, type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { createTestPool, rejectionOf, type TestPoolOptions } from './test-pool.js';

/**
 * Leaves every kind of state a page can leave behind, in its own origin and in a framed one;
 * `window.written` settles once the asynchronous stores are done.
 */
const writeEverything = (tag: string) => `<script>
document.cookie = 'script_cookie=${tag}; max-age=3600';
localStorage.setItem('secret', '${tag}');
sessionStorage.setItem('secret', '${tag}');
window.name = '${tag}';
window.written = Promise.all([
  new Promise((done) => {
    const open = indexedDB.open('pluck-${tag}', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('kept');
    open.onsuccess = () => { const tx = open.result.transaction('kept', 'readwrite'); tx.objectStore('kept').put('${tag}', 'secret'); tx.oncomplete = done; };
  }),
  caches.open('pluck-${tag}').then((cache) => cache.put('/kept', new Response('${tag}'))),
  navigator.serviceWorker.register('/sw.js').then(() => 'registered', () => 'refused'),
  fetch('/cacheable').then((answer) => answer.text()),
]);
window.open('/read', 'popup');
</script><p>written</p>`;

/** Everything `writeEverything` could have left, as the next page sees it. */
async function leftovers(loaded: LoadedPage) {
  const seen = await loaded.page.evaluate(async () => ({
    cookie: document.cookie,
    localStorage: localStorage.getItem('secret'),
    sessionStorage: sessionStorage.getItem('secret'),
    windowName: window.name,
    databases: (await indexedDB.databases()).map((database) => database.name),
    caches: await caches.keys(),
    serviceWorkers: (await navigator.serviceWorker.getRegistrations()).length,
    history: history.length,
  }));
  return { ...seen, jar: (await loaded.context.cookies()).length, pages: loaded.context.pages().length };
}

/** One request, returning once its page is back (reset and kept, or closed), as the next request of a caller would find it. */
async function visit<T>(engine: BrowserPool, options: ContextOptions, load: LoadOptions, work: (loaded: LoadedPage) => Promise<T>, claim: PageClaim): Promise<T> {
  const result = await engine.withLoadedPage(options, load, work, claim);
  await vi.waitFor(() => expect(engine.stats().activePages).toBe(0));
  return result;
}

const NOTHING = { cookie: '', localStorage: null, sessionStorage: null, windowName: '', databases: [], caches: [], serviceWorkers: 0, jar: 0, pages: 1 };

describe('warm pages and sessions', () => {
  let site: RecordingServer;
  let framed: RecordingServer;
  const heldBeacons: ServerResponse[] = [];
  const pools: BrowserPool[] = [];
  const pool = (options: TestPoolOptions = {}) => {
    const created = createTestPool({ allowPrivateHosts: [site.hostPort, framed.hostPort], maxPages: 4, ...options });
    pools.push(created);
    return created;
  };

  beforeAll(async () => {
    framed = await startRecordingServer({
      '/frame': htmlPage(`<script>localStorage.setItem('framed', 'yes'); document.cookie = 'framed=yes; max-age=3600';</script>`),
      '/frame-read': htmlPage(`<script>parent.postMessage(localStorage.getItem('framed'), '*');</script>`),
    });
    site = await startRecordingServer({
      '/set-a': htmlPage(`${writeEverything('account-a')}<iframe src="${framed.origin}/frame"></iframe>`, { 'set-cookie': 'header_cookie=a; Path=/; Max-Age=3600' }),
      '/read': htmlPage('<p>read</p>'),
      '/read-frame': htmlPage(
        `<script>window.framed = new Promise((done) => addEventListener('message', (event) => done(event.data)));</script><iframe src="${framed.origin}/frame-read"></iframe>`,
      ),
      '/cacheable': htmlPage('cacheable', { 'cache-control': 'public, max-age=3600' }),
      '/sw.js': (_req, res) => res.writeHead(200, { 'content-type': 'text/javascript' }).end('self.addEventListener("fetch", () => {});'),
      '/beacon-page': htmlPage(`<script>addEventListener('pagehide', () => navigator.sendBeacon('/beacon', 'bye'));</script><p>beacon</p>`),
      // Held until the test answers it, after the page has been reset.
      '/beacon': (req, res) => {
        req.resume();
        heldBeacons.push(res);
      },
    });
  });
  afterAll(async () => {
    await Promise.all(pools.map((created) => created.close()));
    await Promise.all([site.close(), framed.close()]);
  });

  /** Loads `/set-a` for `account` and waits until everything it writes is written. */
  async function leaveState(engine: BrowserPool, account: string, session?: string): Promise<BrowserContext> {
    return visit(
      engine,
      { session },
      { url: `${site.origin}/set-a` },
      async ({ page, context }) => {
        const written = await page.evaluate(() => (window as unknown as { written: Promise<unknown[]> }).written);
        expect(['registered', 'refused']).toContain(written[2]);
        await page.frameLocator('iframe').locator('body').waitFor({ state: 'attached' });
        await vi.waitFor(async () => expect((await context.cookies()).map((cookie) => cookie.name)).toContain('framed'));
        return context;
      },
      { account },
    );
  }

  it("reuses an account's page for its next request with nothing of the previous one left, and never gives it to another account", async () => {
    const engine = pool();
    const used = await leaveState(engine, 'account-a');
    await vi.waitFor(() => expect(engine.stats().warmPages).toBe(1));

    // Another account: never the warm page, and none of its state.
    const other = await visit(engine, {}, { url: `${site.origin}/read` }, async (loaded) => ({ context: loaded.context, seen: await leftovers(loaded) }), {
      account: 'account-b',
    });
    expect(other.context).not.toBe(used);
    expect(other.seen).toMatchObject(NOTHING);
    expect(engine.stats().warmPages).toBeGreaterThanOrEqual(1);

    // The same account: the same page, reset.
    const again = await visit(engine, {}, { url: `${site.origin}/read` }, async (loaded) => ({ context: loaded.context, seen: await leftovers(loaded) }), {
      account: 'account-a',
    });
    expect(again.context, 'the warm page was not reused, so this test proves nothing about its reset').toBe(used);
    expect(again.seen).toMatchObject(NOTHING);
    expect(again.seen.history).toBeLessThanOrEqual(2);
    expect(site.hitsTo('/read').at(-1)?.headers.cookie).toBeUndefined();

    // The framed origin's storage went too.
    const framedValue = await visit(
      engine,
      {},
      { url: `${site.origin}/read-frame` },
      async ({ page, context }) => ({ context, value: await page.evaluate(() => (window as unknown as { framed: Promise<string | null> }).framed) }),
      { account: 'account-a' },
    );
    expect(framedValue.context).toBe(used);
    expect(framedValue.value).toBeNull();

    // And the HTTP cache: the cacheable answer is fetched again rather than served from the first visit's cache.
    const fetchesBefore = site.hitsTo('/cacheable').length;
    await visit(engine, {}, { url: `${site.origin}/read` }, ({ page }) => page.evaluate(() => fetch('/cacheable').then((answer) => answer.text())), {
      account: 'account-a',
    });
    expect(site.hitsTo('/cacheable')).toHaveLength(fetchesBefore + 1);
  });

  it('sends no header or cookie of a previous request with the next one on a reused page', async () => {
    const engine = pool();
    const first = await visit(
      engine,
      { extraHeaders: { 'x-first': 'yes' }, cookies: [{ name: 'asked', value: 'first', url: site.origin }] },
      { url: `${site.origin}/read-first` },
      async ({ context }) => context,
      { account: 'account-h' },
    );
    expect(site.hitsTo('/read-first')[0]?.headers).toMatchObject({ 'x-first': 'yes', cookie: 'asked=first' });
    const second = await visit(engine, {}, { url: `${site.origin}/read-second` }, async ({ context }) => context, { account: 'account-h' });
    expect(second).toBe(first);
    const hit = site.hitsTo('/read-second')[0];
    expect(hit?.headers['x-first']).toBeUndefined();
    expect(hit?.headers.cookie).toBeUndefined();
  });

  it("clears a cookie that the previous document's beacon brings back after the reset, before the next request", async () => {
    const engine = pool();
    const used = await visit(engine, {}, { url: `${site.origin}/beacon-page` }, async ({ context }) => context, { account: 'account-c' });
    // The reset unloaded the page, which sent its beacon; the reset is over, the answer still to come.
    await vi.waitFor(() => expect(heldBeacons).toHaveLength(1), { timeout: 5_000 });
    await vi.waitFor(() => expect(engine.stats().warmPages).toBe(1));
    heldBeacons.shift()?.writeHead(204, { 'set-cookie': 'late=beacon; Path=/; Max-Age=3600' }).end();
    await vi.waitFor(async () => expect((await used.cookies()).map((cookie) => cookie.name)).toContain('late'), { timeout: 5_000 });

    const again = await visit(engine, {}, { url: `${site.origin}/read-after-beacon` }, async (loaded) => ({ context: loaded.context, seen: await leftovers(loaded) }), {
      account: 'account-c',
    });
    expect(again.context, 'the warm page was not reused, so this test proves nothing about its reset').toBe(used);
    expect(again.seen.cookie).toBe('');
    expect(site.hitsTo('/read-after-beacon')[0]?.headers.cookie).toBeUndefined();
  });

  it('keeps state between requests that name the same session of one account, and only those', async () => {
    const engine = pool();
    await leaveState(engine, 'account-s', 'cart');
    const read = (account: string, session?: string) =>
      visit(engine, { session }, { url: `${site.origin}/read` }, async (loaded) => leftovers(loaded), { account });

    const kept = await read('account-s', 'cart');
    expect(kept).toMatchObject({ localStorage: 'account-a', databases: ['pluck-account-a'], caches: ['pluck-account-a'] });
    expect(kept.cookie).toContain('script_cookie=account-a');
    expect(kept.cookie).toContain('header_cookie=a');
    // Per tab, as in a browser: each request has its own page.
    expect(kept.sessionStorage).toBeNull();
    // The HTTP cache is not kept (it would hold memory while the session idles): the cacheable answer is fetched again.
    const fetchedBefore = site.hitsTo('/cacheable').length;
    await visit(engine, { session: 'cart' }, { url: `${site.origin}/read` }, ({ page }) => page.evaluate(() => fetch('/cacheable').then((answer) => answer.text())), {
      account: 'account-s',
    });
    expect(site.hitsTo('/cacheable')).toHaveLength(fetchedBefore + 1);

    // Without the session, another session's name, or another account naming the same session: nothing.
    expect(await read('account-s')).toMatchObject(NOTHING);
    expect(await read('account-s', 'other')).toMatchObject(NOTHING);
    expect(await read('account-t', 'cart')).toMatchObject(NOTHING);
    expect(engine.stats().sessions).toBe(3);
  });

  it("closes a session unused for its idle time, and an account's oldest idle session when it opens one too many", async () => {
    const engine = pool({ sessions: { maxPerAccount: 2, idleMs: 60_000 } });
    const open = (account: string, session: string) =>
      visit(engine, { session, cookies: [{ name: 'n', value: session, url: site.origin }] }, { url: `${site.origin}/read` }, async () => undefined, { account });
    const cookieIn = (account: string, session: string) =>
      visit(engine, { session }, { url: `${site.origin}/read` }, ({ context }) => context.cookies().then((cookies) => cookies.map((c) => c.value)), { account });
    await open('account-l', 'one');
    await open('account-l', 'two');
    await open('account-l', 'three');
    expect(engine.stats().sessions).toBe(2);
    expect(await cookieIn('account-l', 'one'), 'the oldest session was pushed out').toEqual([]);
    expect(await cookieIn('account-l', 'three')).toEqual(['three']);

    const brief = pool({ sessions: { idleMs: 300 } });
    await visit(brief, { session: 'brief' }, { url: `${site.origin}/read` }, async () => undefined, { account: 'account-l' });
    await vi.waitFor(() => expect(brief.stats().sessions).toBe(0), { timeout: 5_000 });
  });

  it('keeps at most BROWSER_SESSIONS_MAX sessions in all, closing the least recently used idle one', async () => {
    const engine = pool({ sessions: { maxTotal: 2, idleMs: 60_000 } });
    const open = (account: string) =>
      visit(engine, { session: 's', cookies: [{ name: 'n', value: account, url: site.origin }] }, { url: `${site.origin}/read` }, async () => undefined, {
        account,
      });
    const cookies = (account: string) =>
      visit(engine, { session: 's' }, { url: `${site.origin}/read` }, ({ context }) => context.cookies().then((all) => all.map((c) => c.value)), {
        account,
      });
    await open('account-x');
    await open('account-y');
    await open('account-z');
    expect(engine.stats().sessions).toBe(2);
    expect(await cookies('account-z')).toEqual(['account-z']);
    expect(await cookies('account-x'), "the oldest session, another account's, was closed").toEqual([]);
  });

  it('closes only the page of a session request whose caller went away, not the session', async () => {
    const engine = pool();
    const read = { url: `${site.origin}/read` };
    await visit(engine, { session: 'kept', cookies: [{ name: 'n', value: 'kept', url: site.origin }] }, read, async () => undefined, { account: 'account-k' });
    const caller = new AbortController();
    const gone = engine.withLoadedPage(
      { session: 'kept' },
      read,
      async ({ page }) => {
        caller.abort();
        await page.waitForTimeout(10_000);
      },
      { account: 'account-k', signal: caller.signal },
    );
    expect((await rejectionOf(gone)).name).toBe('RequestAborted');
    await vi.waitFor(() => expect(engine.stats().activePages).toBe(0));
    const cookies = await visit(engine, { session: 'kept' }, read, ({ context }) => context.cookies().then((all) => all.map((c) => c.value)), {
      account: 'account-k',
    });
    expect(cookies).toEqual(['kept']);
  });

  it('turns a new session away while every session of the account is in use', async () => {
    const engine = pool({ sessions: { maxPerAccount: 1 } });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered: () => void = () => undefined;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const busy = engine.withLoadedPage({ session: 'busy' }, { url: `${site.origin}/read` }, async () => {
      entered();
      await held;
    }, { account: 'account-m' });
    await inside;
    const refused = await rejectionOf(engine.withLoadedPage({ session: 'second' }, { url: `${site.origin}/read` }, async () => undefined, { account: 'account-m' }));
    expect(refused.name).toBe('InvalidPageOption');
    expect(refused.message).toContain('1 sessions in use');
    release();
    await busy;
  });

  it('does not keep a page whose context the request shaped, nor one past its use limit, and closes warm pages left idle', async () => {
    const engine = pool({ warmPages: { maxUses: 2, idleMs: 3_000 } });
    const contextOf = (options = {}) => visit(engine, options, { url: `${site.origin}/read` }, async ({ context }) => context, { account: 'account-u' });
    const shaped = await contextOf({ userAgent: 'Pluck test agent' });
    const plain = await contextOf();
    expect(plain).not.toBe(shaped);
    expect(await contextOf()).toBe(plain);
    expect(await contextOf(), 'a page that served maxUses requests is replaced').not.toBe(plain);
    await vi.waitFor(() => expect(engine.stats().warmPages).toBe(0), { timeout: 10_000 });
  });

  it('leaves nothing of a request listening on a warm page once the request is over', async () => {
    const engine = pool();
    // Playwright's pages and contexts are event emitters; its types leave listenerCount out.
    type Listened = { listenerCount(event: string): number };
    const listeners = ({ page, context }: LoadedPage) => ({
      context,
      page: ['request', 'response', 'requestfinished', 'requestfailed', 'load', 'crash'].map((event) => (page as unknown as Listened).listenerCount(event)),
      contextListeners: (context as unknown as Listened).listenerCount('request'),
    });
    const visitOnce = () => visit(engine, {}, { url: `${site.origin}/read` }, async (loaded) => listeners(loaded), { account: 'account-l' });
    const first = await visitOnce();
    const later = [await visitOnce(), await visitOnce(), await visitOnce()];
    for (const seen of later) {
      expect(seen.context, 'the warm page was not reused, so this test proves nothing').toBe(first.context);
      expect(seen.page).toEqual(first.page);
      expect(seen.contextListeners).toBe(first.contextListeners);
    }
  });

  it('keeps no page with warm pages off', async () => {
    const engine = pool({ warmPages: { maxPages: 0 } });
    const contextOf = () => visit(engine, {}, { url: `${site.origin}/read` }, async ({ context }) => context, { account: 'account-o' });
    expect(await contextOf()).not.toBe(await contextOf());
    expect(engine.stats().warmPages).toBe(0);
  });
});
