import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import type { HostResolver } from '../../src/net/address-policy.js';
import { htmlPage, type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';

/**
 * Fixtures for proving the egress guard, shared by the local and the remote browser tests: a
 * canary HTTP server and a UDP canary on loopback that nothing may ever reach, and an allowed
 * site whose pages try every way around the guard.
 */
export interface EgressCanary {
  /** The allowed site (put its hostPort in ALLOW_PRIVATE_HOSTS). */
  site: RecordingServer;
  /** Must end with zero connections. */
  canary: RecordingServer;
  /** STUN or QUIC packets that reached the UDP canary. */
  udpPackets(): number;
  /** `loopback.test` resolves to 127.0.0.1; every other name fails as unknown. */
  resolver: HostResolver;
  close(): Promise<void>;
}

/** Probes on `/subresources` that the guard must make fail, and those that must work against the allowed site. */
export const REFUSED_PROBES = ['img-ip', 'img-name', 'fetch-ip', 'fetch-mapped-v6', 'fetch-https', 'xhr-ip', 'ws-ip', 'wss-ip', 'ws-name', 'webtransport-udp'];
export const ALLOWED_PROBES = { 'img-allowed': 'ok:load', 'fetch-allowed': 'ok:200', 'iframe-allowed': 'ok:load', 'ws-allowed': 'ok:open' };

interface LogLine {
  msg: string;
  target?: string;
}

/** Targets of the proxy's "egress refused" log lines, from pino JSON lines. */
export function refusedTargets(logLines: readonly string[]): string[] {
  return logLines
    .map((line) => JSON.parse(line) as LogLine)
    .filter((line) => line.msg === 'egress refused')
    .map((line) => line.target ?? '');
}

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

/**
 * Paths on the site: `/subresources` (every probe; the results land in `#done`), `/redirect`
 * and `/to-name` (302 to the canary by IP and by a name resolving to loopback),
 * `/meta-refresh` and `/script-nav` (navigate to the canary's `/meta-hit` and `/script-hit`).
 */
export async function startEgressCanary(): Promise<EgressCanary> {
  const canary = await startRecordingServer();
  const udpCanary: UdpSocket = createSocket('udp4');
  let udpPackets = 0;
  udpCanary.on('message', () => (udpPackets += 1));
  await new Promise<void>((resolve) => udpCanary.bind(0, '127.0.0.1', resolve));
  const udpPort = (udpCanary.address() as AddressInfo).port;
  const c = canary.origin;
  const p = canary.port;
  const site = await startRecordingServer({
    '/subresources': (req, res, server) =>
      htmlPage(
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
      )(req, res, server),
    '/beacon-img': (_req, res) =>
      res
        .writeHead(200, { 'content-type': 'image/gif' })
        .end(Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')),
    '/sw.js': (_req, res) => res.writeHead(200, { 'content-type': 'text/javascript' }).end('self.addEventListener("fetch", () => {});'),
    '/redirect': (_req, res) => res.writeHead(302, { location: `${c}/redirect-hit` }).end(),
    '/meta-refresh': htmlPage(`<meta http-equiv="refresh" content="0;url=${c}/meta-hit"><p>refreshing</p>`),
    '/script-nav': htmlPage(`<script>addEventListener('load', () => { location.href = '${c}/script-hit'; });</script>`),
    '/to-name': (_req, res) => res.writeHead(302, { location: `http://loopback.test:${p}/name-hit` }).end(),
  });
  return {
    site,
    canary,
    udpPackets: () => udpPackets,
    resolver: async (hostname) => {
      if (hostname === 'loopback.test') return ['127.0.0.1'];
      throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    },
    close: async () => {
      udpCanary.close();
      await Promise.all([site.close(), canary.close()]);
    },
  };
}
