import { request } from 'node:http';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowserEngine } from '../../src/browser/browser-engine.js';
import { processesUsingProfile } from '../../src/browser/chromium-process.js';
import { BrowserCrashed } from '../../src/browser/types.js';
import { describeEndpoint, missingUdpFlags } from '../../src/browser/remote-chromium.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { AddressNotAllowed } from '../../src/net/errors.js';
import { apiClient } from '../helpers/client.js';
import { closedPort, type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { ARTICLE } from '../web/fixtures.js';
import { ALLOWED_PROBES, type EgressCanary, REFUSED_PROBES, refusedTargets, startEgressCanary } from './egress-canary.js';
import { BROWSER_HOST_FLAGS, type RemoteChromiumHost, startRemoteChromiumHost } from './remote-chromium-host.js';
import { createTestPool, rejectionOf } from './test-pool.js';

/** Status and Proxy-Authenticate of a request sent straight to the egress proxy. */
function askProxy(port: number, options: { method: string; path: string; authorization?: string }): Promise<{ status: number; challenge: string | undefined }> {
  return new Promise((resolve, reject) => {
    const headers = options.authorization ? { 'proxy-authorization': options.authorization } : {};
    const req = request({ host: '127.0.0.1', port, method: options.method, path: options.path, headers });
    const settle = (status: number | undefined, challenge: string | string[] | undefined, done: () => void) => {
      done();
      resolve({ status: status ?? 0, challenge: typeof challenge === 'string' ? challenge : undefined });
    };
    req.on('connect', (res, socket) => settle(res.statusCode, res.headers['proxy-authenticate'], () => socket.destroy()));
    req.on('response', (res) => settle(res.statusCode, res.headers['proxy-authenticate'], () => res.resume()));
    req.on('error', reject);
    req.end();
  });
}

describe('remote browser over CDP (BROWSER_WS_ENDPOINT)', () => {
  let remote: RemoteChromiumHost;
  const remoteProfiles: string[] = [];
  let fixtures: EgressCanary;
  let site: RecordingServer;
  /** Stands in for NAT between the browser host and Pluck: the proxy's advertised address. */
  let advertised: TcpProxy;
  let proxyPort: number;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let key: string;
  const logged = (msg: string) => server.logs.filter((line) => line.includes(`"msg":"${msg}"`));

  beforeAll(async () => {
    fixtures = await startEgressCanary();
    site = await startRecordingServer({
      '/article': (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE),
      '/hang': () => undefined, // never answers: a request is in flight when the browser dies
    });
    remote = await startRemoteChromiumHost();
    remoteProfiles.push(remote.userDataDir);
    proxyPort = await closedPort();
    advertised = await startTcpProxy(proxyPort);
    server = await startTestServer(
      'sqlite',
      {
        // Chromium's own per-process form; after a restart the browser now on the port is found.
        BROWSER_WS_ENDPOINT: remote.wsEndpoint,
        EGRESS_PROXY_HOST: '127.0.0.1',
        EGRESS_PROXY_PORT: String(proxyPort),
        EGRESS_PROXY_PUBLIC_URL: `http://127.0.0.1:${advertised.port}`,
        ALLOW_PRIVATE_HOSTS: `${site.hostPort},${fixtures.site.hostPort}`,
        CACHE_TTL_SECONDS: '0',
      },
      { hostResolver: fixtures.resolver },
    );
    api = apiClient(server.baseUrl);
    ({ key } = await api.signUpWithKey());
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await remote?.kill();
    await advertised?.close();
    await Promise.all([fixtures?.close(), site?.close()]);
    for (const profile of remoteProfiles) expect(await processesUsingProfile(profile), profile).toEqual([]);
    expect(fixtures.canary.connections, `canary reached: ${JSON.stringify(fixtures.canary.hits)}`).toBe(0);
  });

  it('renders markdown and screenshots in the remote browser, launching no local one, after checking it on connect', { timeout: 60_000 }, async () => {
    const markdown = await api.post('/v1/web/markdown', { url: `${site.origin}/article` }, key);
    expect(markdown.status, markdown.text).toBe(200);
    expect(markdown.body.data.markdown).toMatch(/^## Lists$/m);
    expect(markdown.body.data.markdown).toContain(`[the introduction](${site.origin}/docs/intro#part)`);

    const screenshot = await api.post('/v1/web/screenshot', { url: `${site.origin}/article`, base64: true, viewport: { width: 640, height: 480 } }, key);
    expect(screenshot.status, screenshot.text.slice(0, 500)).toBe(200);
    const png = Buffer.from(screenshot.body.data.base64 as string, 'base64');
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([640, 480]);

    expect(server.ctx.browser.stats()).toMatchObject({ browserPid: undefined, remoteEndpoint: remote.wsEndpoint });
    // The pages' traffic came through the advertised address, not the listen address.
    expect(advertised.connections).toBeGreaterThan(0);
    const connected = logged('remote browser connected');
    expect(connected, server.logs.join('\n')).toHaveLength(1);
    expect(connected[0]).toMatch(/"product":"(Headless)?Chrome\/\d+/);
    expect(logged('remote browser lacks flags the egress guard relies on')).toEqual([]);
    expect(logged('remote browser flags cannot be read')).toEqual([]);

    // The http:// form works too (a pool of its own, with its own proxy and credentials).
    const viaHttp = createTestPool({ remoteEndpoint: remote.httpEndpoint, allowPrivateHosts: [site.hostPort] });
    try {
      expect(await viaHttp.withLoadedPage({}, { url: `${site.origin}/article` }, async ({ page }) => page.title())).toBe('Fixture Article');
      expect(viaHttp.stats().remoteEndpoint).toBe(remote.httpEndpoint);
    } finally {
      await viaHttp.close();
    }
  });

  it('accepts ws(s):// and http(s):// endpoints, and wants a fixed proxy port behind a public proxy address', () => {
    for (const endpoint of ['ws://b:9222/devtools/browser/x', 'wss://b/chromium?token=t', 'http://b:9222', 'https://b']) {
      expect(loadConfig({ BROWSER_WS_ENDPOINT: endpoint }).browser.wsEndpoint).toBe(endpoint);
    }
    expect(() => loadConfig({ BROWSER_WS_ENDPOINT: 'ftp://b:9222' })).toThrow(ConfigError);
    expect(() => loadConfig({ EGRESS_PROXY_PUBLIC_URL: 'http://pluck-1.lan:3128' })).toThrow(/EGRESS_PROXY_PORT/);
    expect(loadConfig({ EGRESS_PROXY_HOST: '10.0.0.5', EGRESS_PROXY_PORT: '3128', EGRESS_PROXY_PUBLIC_URL: 'http://pluck-1.lan:3128/' }).egress).toMatchObject({
      proxyHost: '10.0.0.5',
      proxyPort: 3128,
      proxyPublicUrl: 'http://pluck-1.lan:3128',
    });
    expect(describeEndpoint('wss://user:secret@b.example/chromium?token=secret')).toBe('wss://b.example/chromium');
  });

  it('warns at startup when a browser on another host is given a proxy on loopback', async () => {
    const warnings = async (env: Record<string, string>) => {
      const lines: string[] = [];
      const engine = createBrowserEngine(loadConfig(env), pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) }));
      await engine.browser.close();
      return lines.filter((line) => line.includes('egress proxy listens on loopback'));
    };
    expect(await warnings({ BROWSER_WS_ENDPOINT: 'http://10.0.0.20:9222' })).toHaveLength(1);
    expect(await warnings({ BROWSER_WS_ENDPOINT: 'http://10.0.0.20:9222', EGRESS_PROXY_HOST: '10.0.0.5' })).toEqual([]);
    expect(await warnings({ BROWSER_WS_ENDPOINT: 'http://127.0.0.1:9222' })).toEqual([]);
  });

  it('names the flags a remote browser lacks', () => {
    expect(missingUdpFlags(BROWSER_HOST_FLAGS)).toEqual([]);
    expect(missingUdpFlags(['--headless', '--webrtc-ip-handling-policy=disable_non_proxied_udp'])).toEqual(['--disable-quic']);
    expect(missingUdpFlags(['--disable-quic'])).toEqual(['--force-webrtc-ip-handling-policy=disable_non_proxied_udp']);
  });

  it('keeps the egress guard on every connection of the remote browser', async () => {
    const { canary } = fixtures;
    const results = await server.ctx.browser.withLoadedPage({}, { url: `${fixtures.site.origin}/subresources`, waitForSelector: '#done' }, async (loaded) =>
      JSON.parse((await loaded.page.textContent('#done')) ?? '{}'),
    );
    expect(results).toMatchObject(ALLOWED_PROBES);
    for (const probe of REFUSED_PROBES) expect(results[probe], `${probe}: ${JSON.stringify(results)}`).toBe('error');
    expect(results['service-worker']).toBe('ok:0');
    expect(fixtures.udpPackets(), 'a STUN or QUIC packet reached the UDP canary').toBe(0);

    for (const path of ['/redirect', '/to-name']) {
      const error = await rejectionOf(server.ctx.browser.withLoadedPage({}, { url: `${fixtures.site.origin}${path}` }, async () => 'loaded'));
      expect(error, path).toBeInstanceOf(AddressNotAllowed);
    }
    const refused = refusedTargets(server.logs);
    for (const target of [`${canary.origin}/img`, `${canary.origin}/fetch`, `${canary.origin}/redirect-hit`, `http://loopback.test:${canary.port}/name-hit`]) {
      expect(refused, target).toContain(target);
    }
    expect(refused).toContain(`127.0.0.1:${canary.port}`); // a CONNECT: https or a WebSocket
    expect(canary.connections, JSON.stringify(canary.hits)).toBe(0);
  });

  it('refuses to relay for anyone without the per-process credentials', async () => {
    const wrong = `Basic ${Buffer.from('pluck:guessed').toString('base64')}`;
    for (const port of [proxyPort, advertised.port]) {
      expect(await askProxy(port, { method: 'GET', path: `${site.origin}/open-relay` })).toEqual({ status: 407, challenge: 'Basic realm="Pluck egress guard"' });
      expect((await askProxy(port, { method: 'CONNECT', path: site.hostPort })).status).toBe(407);
      expect((await askProxy(port, { method: 'GET', path: `${site.origin}/open-relay`, authorization: wrong })).status).toBe(407);
      expect((await askProxy(port, { method: 'CONNECT', path: site.hostPort, authorization: wrong })).status).toBe(407);
    }
    expect(site.hitsTo('/open-relay')).toEqual([]);
    expect(logged('egress proxy: wrong credentials refused')).toHaveLength(4);
    expect(server.logs.join('\n')).not.toContain('guessed');
  });

  it('does not use a remote browser that cannot reach the advertised egress proxy', async () => {
    const lines: string[] = [];
    const unreachable = `http://127.0.0.1:${await closedPort()}`;
    const pool = createTestPool({
      remoteEndpoint: remote.httpEndpoint,
      egressProxy: { publicUrl: unreachable },
      allowPrivateHosts: [site.hostPort],
      logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }),
    });
    const articlesBefore = site.hitsTo('/article').length;
    try {
      const error = await rejectionOf(pool.withLoadedPage({}, { url: `${site.origin}/article` }, async () => 'loaded'));
      expect(error).toBeInstanceOf(BrowserCrashed);
      expect(error.message).toBe('The remote browser could not be used');
    } finally {
      await pool.close();
    }
    expect(lines.join('\n')).toContain(`The remote browser cannot use the egress proxy at ${unreachable}`);
    expect(site.hitsTo('/article')).toHaveLength(articlesBefore);
  });

  it('treats a remote browser that stops answering (a dead link, no disconnect) as crashed, and reconnects once it answers', { timeout: 60_000 }, async () => {
    const link = await startTcpProxy(remote.port);
    const pool = createTestPool({ remoteEndpoint: `http://127.0.0.1:${link.port}`, remoteHeartbeatMs: 2_000, allowPrivateHosts: [site.hostPort], preparedContexts: 0 });
    try {
      const hangsBefore = site.hitsTo('/hang').length;
      const inFlight = rejectionOf(pool.withLoadedPage({}, { url: `${site.origin}/hang` }, async () => 'loaded'));
      await expect.poll(() => site.hitsTo('/hang').length, { timeout: 20_000 }).toBe(hangsBefore + 1);
      const started = Date.now();
      link.setMode('stall');
      const error = await inFlight;
      const silentMs = Date.now() - started;
      // Without the heartbeat this would be a NavigationTimeout after 20 s (the test pool's cap).
      expect(error).toBeInstanceOf(BrowserCrashed);
      expect(silentMs).toBeLessThan(10_000);
      console.info(`remote browser: a stalled link failed the in-flight request after ${silentMs} ms (heartbeat 2000 ms)`);
      link.setMode('pass'); // new connections pass; the stalled one stays dead
      expect(await pool.withLoadedPage({}, { url: `${site.origin}/article` }, async ({ page }) => page.title())).toBe('Fixture Article');
    } finally {
      await pool.close();
      await link.close();
    }
  });

  it('fails requests with a 503 when the remote browser dies, and uses a browser restarted on the same port', { timeout: 60_000 }, async () => {
    // In the browser: under engine auto the hanging target would be waited for by the server's own fetch.
    const inFlight = api.post('/v1/web/markdown', { url: `${site.origin}/hang`, engine: 'browser' }, key);
    await expect.poll(() => site.hitsTo('/hang').length, { timeout: 10_000 }).toBe(1);
    let started = Date.now();
    await remote.kill();
    const crashed = await inFlight;
    const crashMs = Date.now() - started;
    expect(crashed.status, crashed.text).toBe(503);
    // Usually the crash itself ("... retrying is safe"); once in CI the request instead ended on
    // the failed reconnect ("could not be used"), not yet explained. Either is the 503 callers need.
    expect(crashed.body).toMatchObject({ success: false, error: { code: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(/^The browser is unavailable: /) } });
    expect(crashMs).toBeLessThan(10_000); // includes killing and reaping Chromium; the navigation limit is 30 s

    started = Date.now();
    const whileDown = await api.post('/v1/web/markdown', { url: `${site.origin}/article` }, key);
    const downMs = Date.now() - started;
    expect(whileDown.status, whileDown.text).toBe(503);
    expect(whileDown.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'The browser is unavailable: The remote browser could not be used' });
    expect(whileDown.text).not.toContain(String(remote.port)); // no internal address for callers
    expect(downMs).toBeLessThan(5_000);
    expect(await server.ctx.browser.readiness()).toMatchObject({ status: 'unavailable' });

    remote = await startRemoteChromiumHost({ port: remote.port });
    remoteProfiles.push(remote.userDataDir);
    expect(await server.ctx.browser.readiness()).toMatchObject({ status: 'ok' });
    const again = await api.post('/v1/web/markdown', { url: `${site.origin}/article` }, key);
    expect(again.status, again.text).toBe(200);
    expect(again.body.data.markdown).toMatch(/^## Lists$/m);
    expect(logged('remote browser connected')).toHaveLength(2);
    // Measured numbers for the README; the assertions above are what the test proves.
    console.info(`remote browser: in-flight request failed ${crashMs} ms after the kill; a request while it was down failed in ${downMs} ms`);
  });
});
