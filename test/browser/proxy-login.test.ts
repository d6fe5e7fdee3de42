import pino from 'pino';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BASELINE_CHROMIUM_ARGS } from '../../scripts/baseline-chromium.js';
import type { BrowserPool } from '../../src/browser/browser-pool.js';
import { contextProxy, logInToProxy } from '../../src/browser/proxy-login.js';
import { BrowserCrashed } from '../../src/browser/types.js';
import { loadConfig } from '../../src/config.js';
import { AddressPolicy } from '../../src/net/address-policy.js';
import { EgressProxy } from '../../src/net/egress-proxy.js';
import { htmlPage, type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { createTestPool } from './test-pool.js';

/**
 * A context logs in to the egress proxy once and Chromium sends the credentials itself from then
 * on (src/browser/proxy-login.ts), instead of Playwright pausing every request to answer the
 * proxy, which also turned the HTTP cache off.
 */
describe.each([
  { made: 'on the request path', preparedContexts: 0 },
  { made: 'ahead of the request', preparedContexts: 1 },
])('a context made $made, logged in to the egress proxy', ({ preparedContexts }) => {
  let site: RecordingServer;
  let pool: BrowserPool;

  beforeAll(async () => {
    site = await startRecordingServer({
      '/twice': htmlPage(`<script>
        window.done = (async () => {
          const first = await (await fetch('/data.json')).text();
          const second = await (await fetch('/data.json')).text();
          const socket = await new Promise((ok) => { const s = new WebSocket('ws://' + location.host + '/socket'); s.onopen = () => { s.close(); ok('open'); }; s.onerror = () => ok('error'); });
          window.open('/popup', 'popup');
          return { first, second, socket };
        })();
      </script>`),
      '/data.json': (_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=3600' }).end('{"n":1}'),
      '/popup': htmlPage('<p>popup</p>'),
    });
    pool = createTestPool({ allowPrivateHosts: [site.hostPort], preparedContexts });
    if (preparedContexts > 0) {
      // Another account's request starts the browser, and a context is made ahead for the next one.
      await pool.withLoadedPage({}, { url: `${site.origin}/popup` }, async () => undefined, { account: 'someone else' });
      await vi.waitFor(() => expect(pool.stats().preparedContexts).toBe(preparedContexts), { timeout: 10_000 });
    }
  });
  afterAll(async () => {
    await pool.close();
    await site.close();
  });

  it('sends page requests, tunnels and popups through the proxy with the context’s own credentials, the HTTP cache on', async () => {
    const popupsBefore = site.hitsTo('/popup').length;
    const seen = await pool.withLoadedPage({}, { url: `${site.origin}/twice` }, async ({ page }) => {
      const result = await page.evaluate(() => (window as unknown as { done: Promise<Record<string, string>> }).done);
      await vi.waitFor(() => expect(site.hitsTo('/popup')).toHaveLength(popupsBefore + 1));
      return result;
    });
    expect(seen).toEqual({ first: '{"n":1}', second: '{"n":1}', socket: 'open' });
    // The second fetch came from the context's cache: with Playwright answering the proxy, both reached the site.
    expect(site.hitsTo('/data.json')).toHaveLength(1);
    expect(site.hits.filter((hit) => hit.upgrade)).toHaveLength(1);
  });
});

describe('the proxy login itself', () => {
  let proxy: EgressProxy;
  let browser: Browser;
  beforeAll(async () => {
    proxy = new EgressProxy({ policy: new AddressPolicy(), logger: pino({ level: 'silent' }) });
    await proxy.start();
    browser = await chromium.launch({ executablePath: loadConfig({}).browser.chromiumPath, args: [...BASELINE_CHROMIUM_ARGS, `--proxy-server=${proxy.url}`] });
  });
  afterAll(async () => {
    await browser.close();
    await proxy.close();
  });

  it('fails as a retryable browser failure when the proxy does not take the credentials, and leaves no request paused', async () => {
    const wrong = { ...proxy.browserSettings, password: 'not-the-password' };
    const context = await browser.newContext({ proxy: contextProxy(wrong) });
    const page = await context.newPage();
    const failure = await logInToProxy(page, wrong).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(BrowserCrashed);
    expect((failure as Error).message).toContain('could not log in to the egress proxy');
    // The same page logs in with the right credentials afterwards: the failed attempt left nothing intercepted.
    await logInToProxy(page, proxy.browserSettings);
    await context.close();
  });
});
