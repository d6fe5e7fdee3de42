import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import type { ServerResponse } from 'node:http';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserPool } from '../../src/browser/browser-pool.js';
import { AddressNotAllowed } from '../../src/net/errors.js';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { createTestPool, rejectionOf } from './test-pool.js';

interface LogLine {
  msg: string;
  target?: string;
}

const page = (body: string) => (_req: unknown, res: ServerResponse) =>
  res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><body>${body}</body></html>`);

/** Runs every probe, then writes `{name: 'ok:...' | 'error'}` into #done. */
function probesPage(probes: Record<string, string>): string {
  const entries = Object.entries(probes)
    .map(([name, expression]) => `settle(${JSON.stringify(name)}, () => ${expression})`)
    .join(',\n');
  return `<script>
    const results = {};
    const settle = (name, start) => Promise.resolve().then(start).then((v) => { results[name] = 'ok:' + v; }, () => { results[name] = 'error'; });
    const img = (src) => new Promise((ok, fail) => { const i = new Image(); i.onload = () => ok('load'); i.onerror = fail; i.src = src; });
    const frame = (src) => new Promise((ok) => { const f = document.createElement('iframe'); f.onload = () => ok('load'); f.src = src; document.body.append(f); });
    const socket = (url) => new Promise((ok, fail) => { const s = new WebSocket(url); s.onopen = () => { s.close(); ok('open'); }; s.onerror = fail; });
    const xhr = (url) => new Promise((ok, fail) => { const x = new XMLHttpRequest(); x.open('GET', url); x.onload = () => ok(x.status); x.onerror = fail; x.send(); });
    // Playwright's 'block' turns register() into a no-op: what counts is that nothing got registered.
    const worker = () => navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.getRegistrations()).then((all) => all.length);
    const udp = (port) => new Promise((ok) => {
      const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:' + port }] });
      pc.createDataChannel('probe');
      const finish = () => { ok(pc.iceGatheringState); pc.close(); };
      pc.onicegatheringstatechange = () => { if (pc.iceGatheringState === 'complete') finish(); };
      pc.createOffer().then((offer) => pc.setLocalDescription(offer));
      setTimeout(finish, 4000);
    });
    Promise.all([${entries}]).then(() => {
      const done = document.createElement('pre'); done.id = 'done'; done.textContent = JSON.stringify(results); document.body.append(done);
    });
  </script>`;
}

describe('egress guard in Chromium: the canary on loopback is never reached', () => {
  let pool: BrowserPool;
  let site: RecordingServer;
  let canary: RecordingServer;
  let udpCanary: UdpSocket;
  let udpPackets = 0;
  const logs: LogLine[] = [];
  const refusedTargets = () => logs.filter((line) => line.msg === 'egress refused').map((line) => line.target ?? '');

  beforeAll(async () => {
    canary = await startRecordingServer();
    udpCanary = createSocket('udp4');
    udpCanary.on('message', () => (udpPackets += 1));
    await new Promise<void>((resolve) => udpCanary.bind(0, '127.0.0.1', resolve));
    const udpPort = (udpCanary.address() as AddressInfo).port;
    const c = canary.origin;
    const p = canary.port;
    site = await startRecordingServer({
      '/subresources': (req, res, server) =>
        page(
          probesPage({
            'img-ip': `img('${c}/img')`,
            'img-name': `img('http://loopback.test:${p}/img-name')`,
            'iframe-ip': `frame('${c}/iframe')`,
            'fetch-ip': `fetch('${c}/fetch').then((r) => r.status)`,
            'fetch-mapped-v6': `fetch('http://[::ffff:127.0.0.1]:${p}/fetch-v6').then((r) => r.status)`,
            'fetch-https': `fetch('https://127.0.0.1:${p}/fetch-https', { mode: 'no-cors' }).then((r) => r.type)`,
            'xhr-ip': `xhr('${c}/xhr')`,
            'ws-ip': `socket('ws://127.0.0.1:${p}/ws')`,
            'wss-ip': `socket('wss://127.0.0.1:${p}/wss')`,
            'ws-name': `socket('ws://loopback.test:${p}/ws-name')`,
            'img-allowed': `img('${server.origin}/beacon-img')`,
            'fetch-allowed': `fetch('${server.origin}/beacon-fetch').then((r) => r.status)`,
            'iframe-allowed': `frame('${server.origin}/beacon-iframe')`,
            'ws-allowed': `socket('ws://${server.hostPort}/beacon-ws')`,
            'service-worker': 'worker()',
            'webrtc-udp': `udp(${udpPort})`,
            'webtransport-udp': `new WebTransport('https://127.0.0.1:${udpPort}/wt').ready.then(() => 'open')`,
          }),
        )(req, res),
      '/beacon-img': (_req, res) =>
        res
          .writeHead(200, { 'content-type': 'image/gif' })
          .end(Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')),
      '/sw.js': (_req, res) => res.writeHead(200, { 'content-type': 'text/javascript' }).end('self.addEventListener("fetch", () => {});'),
      '/redirect': (_req, res) => res.writeHead(302, { location: `${c}/redirect-hit` }).end(),
      '/meta-refresh': page(`<meta http-equiv="refresh" content="0;url=${c}/meta-hit"><p>refreshing</p>`),
      '/script-nav': page(`<script>addEventListener('load', () => { location.href = '${c}/script-hit'; });</script>`),
      '/to-name': (_req, res) => res.writeHead(302, { location: `http://loopback.test:${p}/name-hit` }).end(),
    });
    pool = createTestPool({
      allowPrivateHosts: [site.hostPort],
      resolver: async (hostname) => {
        if (hostname === 'loopback.test') return ['127.0.0.1'];
        throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      },
      logger: pino({ level: 'warn' }, { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) }),
    });
  });
  afterAll(async () => {
    await pool?.close();
    udpCanary?.close();
    await Promise.all([site?.close(), canary?.close()]);
    expect(canary.connections, `canary reached: ${JSON.stringify(canary.hits)}`).toBe(0);
  });

  it('blocks images, iframes, fetch, XHR, WebSockets, https, names resolving to loopback, service workers, WebRTC and WebTransport UDP', async () => {
    const results = await pool.withLoadedPage({}, { url: `${site.origin}/subresources`, waitForSelector: '#done' }, async (loaded) =>
      JSON.parse((await loaded.page.textContent('#done')) ?? '{}'),
    );
    // The same mechanisms work against the allowed fixture, so the refusals are the guard's doing.
    expect(results).toMatchObject({ 'img-allowed': 'ok:load', 'fetch-allowed': 'ok:200', 'iframe-allowed': 'ok:load', 'ws-allowed': 'ok:open' });
    expect(site.hitsTo('/beacon-ws')[0]?.upgrade).toBe(true);
    for (const probe of ['img-ip', 'img-name', 'fetch-ip', 'fetch-mapped-v6', 'fetch-https', 'xhr-ip', 'ws-ip', 'wss-ip', 'ws-name', 'webtransport-udp']) {
      expect(results[probe], `${probe}: ${JSON.stringify(results)}`).toBe('error');
    }
    expect(results['service-worker']).toBe('ok:0');
    expect(results['webrtc-udp']).toMatch(/^ok:/);
    expect(udpPackets, 'a STUN or QUIC packet reached the UDP canary').toBe(0);
    // Each attempt reached the proxy and was refused there (Chromium did not skip it on its own).
    const refused = refusedTargets();
    for (const path of ['/img', '/img-name', '/iframe', '/fetch', '/fetch-v6', '/xhr']) {
      expect(refused.some((target) => target.endsWith(`:${canary.port}${path}`)), `${path} in ${JSON.stringify(refused)}`).toBe(true);
    }
    expect(refused.filter((target) => target === `127.0.0.1:${canary.port}`).length, JSON.stringify(refused)).toBeGreaterThanOrEqual(3);
    expect(refused).toContain(`loopback.test:${canary.port}`);
    expect(site.hitsTo('/sw.js')).toHaveLength(0);
    expect(canary.connections, JSON.stringify(canary.hits)).toBe(0);
  });

  it('refuses a redirect to the canary, and one to a name resolving to loopback', async () => {
    for (const path of ['/redirect', '/to-name']) {
      const error = await rejectionOf(pool.withLoadedPage({}, { url: `${site.origin}${path}` }, async () => 'loaded'));
      expect(error, path).toBeInstanceOf(AddressNotAllowed);
    }
    expect(refusedTargets()).toEqual(expect.arrayContaining([`${canary.origin}/redirect-hit`, `http://loopback.test:${canary.port}/name-hit`]));
    expect(canary.connections).toBe(0);
  });

  it('refuses meta refresh and script navigation to the canary', async () => {
    for (const [path, hit] of [
      ['/meta-refresh', '/meta-hit'],
      ['/script-nav', '/script-hit'],
    ] as const) {
      // Depending on timing the loader sees the refused navigation (AddressNotAllowed) or the
      // work does (the guard's answer is the page); either way the canary stays untouched.
      const outcome = await pool
        .withLoadedPage({}, { url: `${site.origin}${path}`, waitTimeMs: 500 }, async (loaded) => {
          await loaded.page.waitForURL(`${canary.origin}${hit}`, { timeout: 10_000 });
          return loaded.page.textContent('body');
        })
        .catch((error: unknown) => error);
      if (outcome instanceof Error) expect(outcome, path).toBeInstanceOf(AddressNotAllowed);
      else expect(outcome, path).toContain('Pluck egress guard');
      expect(refusedTargets(), path).toContain(`${canary.origin}${hit}`);
    }
    expect(canary.connections).toBe(0);
  });

  it('refuses a main URL naming loopback before Chromium sees it', async () => {
    for (const url of [`${canary.origin}/`, `http://loopback.test:${canary.port}/`, `http://127.1:${canary.port}/`, `http://[::1]:${canary.port}/`]) {
      expect(await rejectionOf(pool.withLoadedPage({}, { url }, async () => 'loaded')), url).toBeInstanceOf(AddressNotAllowed);
    }
    expect(canary.connections).toBe(0);
  });
});
