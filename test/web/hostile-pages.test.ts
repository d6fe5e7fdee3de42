import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostResolver } from '../../src/net/address-policy.js';
import { apiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { type HostilePageSite, startHostilePageSite } from './hostile-pages.js';

/**
 * The product path on pages that broke it: real HTTP, real Chromium with the pages' scripts on,
 * the default wait. Each page is one failure seen on stored real pages (see hostile-pages.ts).
 */
describe('real-world pages through the API', () => {
  let fixtures: HostilePageSite;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let key: string;
  let userId: string;
  const slowLookups: string[] = [];
  const trackerHost = 'tracker.test';

  const resolver: HostResolver = async (hostname) => {
    if (hostname === trackerHost) return ['127.0.0.1'];
    if (hostname === 'intranet.test') return ['10.1.2.3'];
    if (hostname === 'slow-dns.test') {
      // A resolver that times out, as one does for a dead host behind a broken name server.
      slowLookups.push(hostname);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    }
    throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  };

  beforeAll(async () => {
    fixtures = await startHostilePageSite({ trackerHost: (port) => `${trackerHost}:${port}`, deadScriptHost: 'dead-cdn.test', slowDnsHost: 'slow-dns.test', internalHost: 'intranet.test' });
    server = await startTestServer(
      'sqlite',
      { ALLOW_PRIVATE_HOSTS: `${fixtures.site.hostPort},${trackerHost}:${fixtures.blackHole.port}`, LOG_LEVEL: 'debug' },
      { hostResolver: resolver },
    );
    api = apiClient(server.baseUrl);
    ({ key, userId } = await api.signUpWithKey());
  });
  afterAll(async () => {
    await server?.close();
    await fixtures?.close();
  });

  const url = (path: string) => `${fixtures.site.origin}${path}`;
  // These pages' scripts are what is tested: the scripted browser is asked for by name (`auto`
  // would read the pages that show their text without scripts without running them: engines.test.ts).
  const markdown = (path: string, extra: Record<string, unknown> = {}) => api.post('/v1/web/markdown', { url: url(path), engine: 'browser', ...extra }, key);
  /** The service's logged errors: put in failure messages, so a 500 says what broke. */
  const loggedErrors = () => server.logs.filter((line) => JSON.parse(line).level >= 50).join('\n');
  const codes = (metadata: { warnings?: Array<{ code: string }> }) => (metadata.warnings ?? []).map((warning) => warning.code);
  const balance = async () => (await api.get('/v1/user/credits', key)).body.data.balance as number;

  it('reads a page whose scripts remove the whole document, from its document as served', async () => {
    const res = await markdown('/removes-document');
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.markdown).toContain('Removed sentence 12 carries');
    expect(res.body.data.metadata.wordCount).toBeGreaterThan(100);
    expect(codes(res.body.data.metadata)).toEqual(['RENDERED_WITHOUT_SCRIPTS']);
    expect(res.body.creditsCost).toBe(1);
    // The other operations answer too: the page facts and links of a document that is gone.
    for (const operation of ['content', 'links']) {
      const other = await api.post(`/v1/web/${operation}`, { engine: 'browser', url: url('/removes-document'), maxAge: 0 }, key);
      expect(other.status, `${operation}: ${other.text}`).toBe(200);
    }
  });

  it('reads a Discourse-like thread whose app script never loads from its <noscript> posts', async () => {
    const res = await markdown('/discourse', { onlyMainContent: false });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.markdown).toContain('Discourse first post sentence 1 carries');
    expect(res.body.data.markdown).toContain('Discourse reply sentence 12 carries');
    expect(codes(res.body.data.metadata)).toContain('RENDERED_WITHOUT_SCRIPTS');
    const main = await markdown('/discourse');
    expect(main.body.data.markdown).toContain('Discourse reply sentence 12 carries');
  });

  it('waits, by default, for a page that says "Loading..." until its script fills it', async () => {
    const res = await markdown('/late-fill');
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.markdown).toContain('Late second sentence 12 carries');
    expect(res.body.data.markdown).not.toContain('Loading');
    expect(codes(res.body.data.metadata)).toEqual([]);
    const content = await api.post('/v1/web/content', { engine: 'browser', url: url('/late-fill'), maxAge: 0 }, key);
    expect(content.body.data.content).toContain('Late sentence 1 carries');
  });

  it('does not wait for a third-party host that accepts connections and never answers', async () => {
    const started = Date.now();
    const res = await markdown('/dead-tracker');
    const elapsed = Date.now() - started;
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.markdown).toContain('Tracked second sentence 12 carries');
    expect(fixtures.blackHole.connections).toBeGreaterThan(0);
    // The host never answers: waiting for it (as `load` does) would end in the 30 s timeout.
    expect(elapsed).toBeLessThan(15_000);
    // Asked for explicitly, `load` keeps its meaning.
    const load = await api.post('/v1/web/content', { engine: 'browser', url: url('/dead-tracker'), waitUntil: 'load', timeout: 2_000, maxAge: 0 }, key);
    expect(load.status, load.text).toBe(504);
  });

  it('looks a slow, dead host up once for all of a page\'s requests to it', async () => {
    const res = await markdown('/slow-dns');
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.markdown).toContain('Slow DNS second sentence 12 carries');
    expect(slowLookups).toEqual(['slow-dns.test']);
  });

  it('converts a page of 300,000 elements with the plain conversion, and says so', async () => {
    const res = await markdown('/huge');
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.markdown).toContain('# Huge page');
    expect(res.body.data.markdown).toContain('row 0 of the huge table');
    // On a loaded machine the page's own script may outlast the settling wait (PAGE_NOT_SETTLED
    // beside it), and the plain conversion its 5 s (then it says "cut short"); neither is a failure.
    const simplified = res.body.data.metadata.warnings.find((warning: { code: string }) => warning.code === 'SIMPLIFIED_EXTRACTION');
    expect(simplified?.message, JSON.stringify(res.body.data.metadata.warnings)).toMatch(/too many elements/);
    if (!/cut short/.test(simplified.message)) expect(res.body.data.markdown).toContain('row 99999 of the huge table');
  });

  it('converts a page nested 5,000 elements deep with the plain conversion', async () => {
    const res = await markdown('/deep-inline');
    expect(res.status, `${res.text}\n${loggedErrors()}`).toBe(200);
    expect(res.body.data.markdown).toContain('The deepest paragraph holds the treasure');
    expect(res.body.data.markdown).toContain('Deep static sentence 12 carries');
    expect(codes(res.body.data.metadata)).toEqual(['SIMPLIFIED_EXTRACTION']);
    expect(res.body.data.metadata.warnings[0].message).toMatch(/nests its elements too deep/);
  });

  it('answers every operation on a page nested 10,000 blocks deep, which crashes the browser tab', async () => {
    const res = await markdown('/deep-blocks');
    expect(res.status, `${res.text}\n${loggedErrors()}`).toBe(200);
    expect(res.body.data.markdown).toContain('Deep static sentence 12 carries');
    expect(codes(res.body.data.metadata)).toEqual(['RENDERED_WITHOUT_SCRIPTS']);
    expect(res.body.data.metadata.warnings[0].message).toMatch(/crashed the browser tab/);
    for (const operation of ['content', 'links', 'screenshot']) {
      const other = await api.post(`/v1/web/${operation}`, { engine: 'browser', url: url('/deep-blocks'), maxAge: 0 }, key);
      expect(other.status, `${operation}: ${other.text}\n${loggedErrors()}`).toBe(200);
    }
  });

  it('reads a page that replaces the DOM methods the extractor calls as if it had not: the extractor runs in a world of its own', async () => {
    const res = await markdown('/hostile-prototypes');
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.markdown).toContain('# Hostile headline');
    expect(res.body.data.markdown).toContain('Hostile second sentence 12 carries');
    expect(res.body.data.metadata.warnings).toBeUndefined();
  });

  it('answers a page that never settles with what it has, and says so', async () => {
    const res = await markdown('/never-settles', { timeout: 3_000 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.markdown).toContain('Busy second sentence 12 carries');
    expect(codes(res.body.data.metadata)).toEqual(['PAGE_NOT_SETTLED']);
  });

  it('answers a document that stops arriving halfway with the half that arrived', async () => {
    const res = await markdown('/half-arrived', { timeout: 2_000 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.markdown).toContain('Half second sentence 12 carries');
    expect(codes(res.body.data.metadata)).toEqual(['PAGE_INCOMPLETE']);
  });

  it('under engine auto, reads these pages from their documents: the half that arrived, a document its scripts remove, 10,000 nested blocks', async () => {
    const half = await markdown('/half-arrived', { engine: 'auto', timeout: 2_000, maxAge: 0 });
    expect(half.status, half.text).toBe(200);
    expect(half.body.data.metadata.engine).toBe('static');
    expect(half.body.data.markdown).toContain('Half second sentence 12 carries');
    expect(codes(half.body.data.metadata)).toEqual(['PAGE_INCOMPLETE']);
    for (const path of ['/removes-document', '/deep-blocks']) {
      const res = await markdown(path, { engine: 'auto', maxAge: 0 });
      expect(res.status, `${path}: ${res.text}\n${loggedErrors()}`).toBe(200);
      expect(res.body.data.metadata.engine, path).toBe('static');
      expect(res.body.data.wordCount ?? res.body.data.metadata.wordCount, path).toBeGreaterThan(50);
    }
  });

  it('answers from the document that loaded when its script goes on to an address that fails, and refuses a private one', async () => {
    for (const path of ['/goes-on-to-dead-https', '/goes-on-to-dead-http']) {
      const res = await markdown(path, { waitTime: 1_000 });
      expect(res.status, `${path}: ${res.text}`).toBe(200);
      expect(res.body.data.markdown, path).toContain('Going on second sentence 12 carries');
      expect(res.body.data.metadata.finalUrl, path).toBe(url(path));
      expect(codes(res.body.data.metadata), path).toEqual(['RENDERED_WITHOUT_SCRIPTS']);
      expect(res.body.data.metadata.warnings[0].message, path).toContain('dead-cdn.test/next');
    }
    // Gone while the page settles: Chromium's error page is not waited on until the wait runs out.
    const atOnce = await markdown('/goes-on-at-once');
    expect(atOnce.status, atOnce.text).toBe(200);
    expect(atOnce.body.data.markdown).toContain('Going on second sentence 12 carries');
    expect(codes(atOnce.body.data.metadata)).toEqual(['RENDERED_WITHOUT_SCRIPTS']);
    const refused = await markdown('/goes-on-to-loopback', { waitTime: 1_000 });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.error.code).toBe('URL_NOT_ALLOWED');
    // A name resolving to a private address is answered like a dead name, so a page cannot tell them apart.
    const dead = await markdown('/goes-on-to-dead-http', { waitTime: 1_000 });
    const internal = await markdown('/goes-on-to-internal', { waitTime: 1_000 });
    expect(internal.status, internal.text).toBe(200);
    expect(internal.body.data.metadata.warnings[0].message.replace('intranet.test', 'NAME')).toBe(
      dead.body.data.metadata.warnings[0].message.replace('dead-cdn.test', 'NAME'),
    );
  });

  it('answers a page with nothing to read with a NO_CONTENT warning, free and not cached', async () => {
    const before = await balance();
    const res = await markdown('/blank');
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.markdown).toBe('');
    expect(codes(res.body.data.metadata)).toEqual(['NO_CONTENT']);
    expect(res.body.creditsCost).toBe(0);
    expect(await balance()).toBe(before);
    const ledger = (await server.ctx.credits.ledger(userId)).filter((entry) => entry.reason.endsWith('web:markdown'));
    expect(ledger.slice(-2).map((entry) => entry.delta)).toEqual([-1, 1]);
    const again = await markdown('/blank');
    expect(again.headers.get('x-cache')).toBe('MISS');
  });

  it('every page operation waits for late content by default; a screenshot carries warnings in a header', async () => {
    const scraped = await api.post('/v1/web/scrape', { engine: 'browser', url: url('/late-fill'), elements: [{ selector: 'article h1' }] }, key);
    expect(scraped.status, scraped.text).toBe(200);
    expect(scraped.body.data.elements[0].data.results[0].text).toBe('Late headline');
    const busy = await api.request('POST', '/v1/web/screenshot', { token: key, body: { url: url('/never-settles'), timeout: 2_000 } });
    expect(busy.status).toBe(200);
    expect(busy.headers.get('x-warnings')).toBe('PAGE_NOT_SETTLED');
  });
});
