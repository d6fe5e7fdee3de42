import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserPool } from '../../src/browser/browser-pool.js';
import { InvalidPageOption, NavigationTimeout, TargetUnreachable } from '../../src/browser/types.js';
import { AddressNotAllowed, HostUnresolvable } from '../../src/net/errors.js';
import { closedPort, type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { createTestPool, rejectionOf } from './test-pool.js';

const html = (body: string, status = 200) => (_req: unknown, res: ServerResponse) =>
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><body>${body}</body></html>`);

describe('page loading', () => {
  let pool: BrowserPool;
  let site: RecordingServer;
  let canary: RecordingServer;
  let deadPort: number;
  const hanging: ServerResponse[] = [];

  beforeAll(async () => {
    canary = await startRecordingServer();
    site = await startRecordingServer({
      '/page': html('<title>A page</title><h1>Hello</h1>'),
      '/not-found': html('<h1>Nothing here</h1>', 404),
      '/broken': html('<h1>It broke</h1>', 500),
      '/redirect': (_req, res) => res.writeHead(302, { location: '/final' }).end(),
      '/final': html('<h1>Final</h1>'),
      '/hang': (_req, res) => void hanging.push(res),
      '/late-element': html(`<script>setTimeout(() => { const d = document.createElement('div'); d.id = 'late'; d.textContent = 'arrived'; document.body.append(d); }, 150)</script>`),
      '/echo': html('<p>echo</p>'),
      '/to-canary': (_req, res) => res.writeHead(302, { location: `${canary.origin}/hit` }).end(),
      '/to-https-canary': (_req, res) => res.writeHead(302, { location: `https://127.0.0.1:${canary.port}/hit` }).end(),
    });
    deadPort = await closedPort();
    pool = createTestPool({
      allowPrivateHosts: [site.hostPort, `127.0.0.1:${deadPort}`],
      resolver: async (hostname) => {
        throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      },
    });
  });
  afterAll(async () => {
    for (const res of hanging) res.destroy();
    await pool?.close();
    await Promise.all([site?.close(), canary?.close()]);
  });

  it('loads a page and reports its final URL, status and content type', async () => {
    const result = await pool.withLoadedPage({}, { url: `${site.origin}/page` }, async (loaded) => ({
      finalUrl: loaded.finalUrl,
      statusCode: loaded.statusCode,
      contentType: loaded.contentType,
      heading: await loaded.page.textContent('h1'),
    }));
    expect(result).toEqual({ finalUrl: `${site.origin}/page`, statusCode: 200, contentType: 'text/html; charset=utf-8', heading: 'Hello' });
  });

  it('still loads a target answering 404 or 500, and says so', async () => {
    const missing = await pool.withLoadedPage({}, { url: `${site.origin}/not-found` }, async (loaded) => [loaded.statusCode, await loaded.page.textContent('h1')]);
    expect(missing).toEqual([404, 'Nothing here']);
    const broken = await pool.withLoadedPage({}, { url: `${site.origin}/broken` }, async (loaded) => loaded.statusCode);
    expect(broken).toBe(500);
  });

  it('follows redirects and records where the page ended up', async () => {
    const result = await pool.withLoadedPage({}, { url: `${site.origin}/redirect` }, async (loaded) => [loaded.finalUrl, loaded.statusCode]);
    expect(result).toEqual([`${site.origin}/final`, 200]);
  });

  it('gives up on a target that never answers with NavigationTimeout', async () => {
    const error = await rejectionOf(pool.withLoadedPage({}, { url: `${site.origin}/hang`, timeoutMs: 400 }, async () => 'loaded'));
    expect(error).toBeInstanceOf(NavigationTimeout);
    expect(error.message).toContain('within 400 ms');
  });

  it('reports a closed port as TargetUnreachable and an unknown host as HostUnresolvable', async () => {
    const refused = await rejectionOf(pool.withLoadedPage({}, { url: `http://127.0.0.1:${deadPort}/` }, async () => 'loaded'));
    expect(refused).toBeInstanceOf(TargetUnreachable);
    const unknown = await rejectionOf(pool.withLoadedPage({}, { url: 'http://no-such-host.test/' }, async () => 'loaded'));
    expect(unknown).toBeInstanceOf(HostUnresolvable);
  });

  it('waits for a selector, times out on one that never appears, and rejects an invalid one', async () => {
    const text = await pool.withLoadedPage({}, { url: `${site.origin}/late-element`, waitForSelector: '#late' }, (loaded) => loaded.page.textContent('#late'));
    expect(text).toBe('arrived');
    const missing = await rejectionOf(
      pool.withLoadedPage({}, { url: `${site.origin}/page`, waitForSelector: '#never', timeoutMs: 500 }, async () => 'found'),
    );
    expect(missing).toBeInstanceOf(NavigationTimeout);
    const invalid = await rejectionOf(pool.withLoadedPage({}, { url: `${site.origin}/page`, waitForSelector: 'div[' }, async () => 'found'));
    expect(invalid).toBeInstanceOf(InvalidPageOption);
    expect((invalid as InvalidPageOption).field).toBe('waitForSelector');
  });

  it('sends the caller’s headers, cookies and user agent to the target', async () => {
    await pool.withLoadedPage(
      { userAgent: 'PluckTest/1.0', extraHeaders: { 'x-pluck-test': 'custom' }, cookies: [{ name: 'session', value: 'abc123' }] },
      { url: `${site.origin}/echo?with-agent` },
      async () => undefined,
    );
    await pool.withLoadedPage(
      { extraHeaders: { 'x-pluck-test': 'prepared' }, cookies: [{ name: 'theme', value: 'dark', domain: '127.0.0.1' }] },
      { url: `${site.origin}/echo?prepared` },
      async () => undefined,
    );
    const [withAgent, prepared] = site.hitsTo('/echo').map((hit) => hit.headers);
    expect(withAgent).toMatchObject({ 'user-agent': 'PluckTest/1.0', 'x-pluck-test': 'custom', cookie: 'session=abc123' });
    expect(prepared).toMatchObject({ 'x-pluck-test': 'prepared', cookie: 'theme=dark' });
    expect(prepared?.['user-agent']).toContain('Chrome/');
  });

  it('applies the viewport and accepts every waitUntil', async () => {
    for (const waitUntil of ['load', 'domcontentloaded', 'networkidle'] as const) {
      const width = await pool.withLoadedPage({ viewport: { width: 800, height: 600 } }, { url: `${site.origin}/page`, waitUntil }, (loaded) =>
        loaded.page.evaluate(() => window.innerWidth),
      );
      expect(width, waitUntil).toBe(800);
    }
  });

  it('refuses a refused target before navigating, and a redirect to one over http or https', async () => {
    const direct = await rejectionOf(pool.withLoadedPage({}, { url: `${canary.origin}/direct` }, async () => 'loaded'));
    expect(direct).toBeInstanceOf(AddressNotAllowed);
    const viaHttp = await rejectionOf(pool.withLoadedPage({}, { url: `${site.origin}/to-canary` }, async () => 'loaded'));
    expect(viaHttp).toBeInstanceOf(AddressNotAllowed);
    expect(viaHttp.message).toBe(`${site.origin}/to-canary led to ${canary.origin}/hit: 127.0.0.1 is a loopback address, which cannot be loaded`);
    const viaHttps = await rejectionOf(pool.withLoadedPage({}, { url: `${site.origin}/to-https-canary` }, async () => 'loaded'));
    expect(viaHttps).toBeInstanceOf(AddressNotAllowed);
    expect(viaHttps.message).toContain(`redirected to https://127.0.0.1:${canary.port}/hit`);
    expect(site.hitsTo('/to-https-canary')).toHaveLength(1);
    expect(canary.connections, JSON.stringify(canary.hits)).toBe(0);
  });
});
