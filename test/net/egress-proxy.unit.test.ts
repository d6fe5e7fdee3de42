import { request } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AddressPolicy, type AddressPolicyOptions, type HostResolver } from '../../src/net/address-policy.js';
import { EGRESS_HEADER, EGRESS_PROBE_URL, EgressProxy } from '../../src/net/egress-proxy.js';
import { closedPort, type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';

interface ProxyAnswer {
  status: number;
  egress: string | undefined;
  body: string;
}

/** The Proxy-Authorization value a browser context of `proxy` sends. */
function credentialsOf(proxy: EgressProxy): string {
  const { username, password } = proxy.browserSettings;
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

/** An absolute-URI request through the proxy, as Chromium sends plain http (authenticated unless told otherwise). */
function forward(proxy: EgressProxy, url: string, authorization: string | null = credentialsOf(proxy), body?: string): Promise<ProxyAnswer> {
  const { hostname, port } = new URL(proxy.url);
  const headers = { host: new URL(url).host, 'proxy-connection': 'keep-alive', ...(authorization ? { 'proxy-authorization': authorization } : {}) };
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path: url, headers, method: body === undefined ? 'GET' : 'POST' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, egress: res.headers[EGRESS_HEADER] as string | undefined, body }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A CONNECT through the proxy, as Chromium opens https and WebSocket connections; sends one GET through the tunnel. */
function tunnel(proxy: EgressProxy, authority: string, authorization: string | null = credentialsOf(proxy)): Promise<ProxyAnswer> {
  const { hostname, port } = new URL(proxy.url);
  const headers = authorization ? { 'proxy-authorization': authorization } : {};
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method: 'CONNECT', path: authority, headers });
    req.on('connect', (res, socket) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        resolve({ status: res.statusCode ?? 0, egress: res.headers[EGRESS_HEADER] as string | undefined, body: '' });
        return;
      }
      let body = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (body += chunk));
      socket.on('end', () => resolve({ status: 200, egress: undefined, body }));
      socket.write(`GET /through-tunnel HTTP/1.1\r\nHost: ${authority}\r\nConnection: close\r\n\r\n`);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('egress proxy', () => {
  let fixture: RecordingServer;
  let canary: RecordingServer;
  const proxies: EgressProxy[] = [];

  async function startProxy(policy: AddressPolicyOptions): Promise<EgressProxy> {
    const proxy = new EgressProxy({ policy: new AddressPolicy(policy), logger: pino({ level: 'silent' }) });
    await proxy.start();
    proxies.push(proxy);
    return proxy;
  }

  beforeAll(async () => {
    fixture = await startRecordingServer();
    canary = await startRecordingServer();
  });
  afterEach(async () => {
    await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
    expect(canary.connections, `canary was reached: ${JSON.stringify(canary.hits)}`).toBe(0);
  });
  afterAll(async () => {
    await Promise.all([fixture.close(), canary.close()]);
  });

  it('forwards plain http to an allowed host and tunnels CONNECT to it', async () => {
    const proxy = await startProxy({ allowPrivateHosts: [fixture.hostPort] });
    const forwarded = await forward(proxy, `${fixture.origin}/page?x=1`);
    expect(forwarded).toMatchObject({ status: 200, egress: undefined });
    expect(forwarded.body).toContain('ok /page');
    const tunnelled = await tunnel(proxy, fixture.hostPort);
    expect(tunnelled.body).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*ok \/through-tunnel/);
    expect(fixture.hitsTo('/page')[0]?.headers).not.toHaveProperty('proxy-connection');
    expect(fixture.hitsTo('/page')[0]?.headers, 'the proxy credentials reached the target').not.toHaveProperty('proxy-authorization');
  });

  it('answers 407 to requests and tunnels without its credentials, or with wrong ones, and relays nothing', async () => {
    const proxy = await startProxy({ allowPrivateHosts: [fixture.hostPort] });
    const other = await startProxy({ allowPrivateHosts: [fixture.hostPort] });
    const relayed = () => fixture.hits.filter((hit) => hit.path === '/relay' || hit.path === '/through-tunnel').length;
    const before = relayed();
    const wrong = [null, credentialsOf(other), `Bearer ${proxy.browserSettings.password}`, 'Basic', `Basic ${Buffer.from(`pluck:${proxy.browserSettings.password}x`).toString('base64')}`];
    for (const authorization of wrong) {
      const forwarded = await forward(proxy, `${fixture.origin}/relay`, authorization);
      expect(forwarded, String(authorization)).toMatchObject({ status: 407, egress: undefined });
      expect((await tunnel(proxy, fixture.hostPort, authorization)).status, String(authorization)).toBe(407);
      // The probe proves a browser authenticated; it must not answer without credentials either.
      expect((await forward(proxy, EGRESS_PROBE_URL, authorization)).status).toBe(407);
    }
    expect(relayed()).toBe(before);
    expect(proxy.browserSettings.password).not.toBe(other.browserSettings.password);
    // The scheme is case-insensitive, as HTTP says.
    expect((await forward(proxy, `${fixture.origin}/relay`, credentialsOf(proxy).replace('Basic', 'basic'))).status).toBe(200);
  });

  it('answers the probe URL itself, with its token, without resolving it', async () => {
    const resolver: HostResolver = async (hostname) => {
      throw new Error(`no lookup expected, got ${hostname}`);
    };
    const proxy = await startProxy({ resolver });
    const answer = await forward(proxy, EGRESS_PROBE_URL);
    expect(answer.status).toBe(200);
    expect(proxy.isProbeAnswer(answer.egress)).toBe(true);
    expect(proxy.isProbeAnswer(`${'0'.repeat(32)} probe`)).toBe(false);
  });

  it('listens where told and gives browsers the public address when one is set', async () => {
    const port = await closedPort();
    const proxy = new EgressProxy({ policy: new AddressPolicy({}), logger: pino({ level: 'silent' }), listenHost: '127.0.0.1', listenPort: port, publicUrl: 'http://pluck.example:3128' });
    proxies.push(proxy);
    await proxy.start();
    expect(proxy.browserSettings).toMatchObject({ server: 'http://pluck.example:3128', bypass: '<-loopback>', username: 'pluck' });
    const status = await new Promise<number>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: `${fixture.origin}/x` }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(407);
  });

  it('refuses loopback by IP and by name with a marked 403, and a name resolving to loopback like a dead name (marked 502)', async () => {
    const resolver: HostResolver = async () => ['127.0.0.1'];
    const proxy = await startProxy({ allowPrivateHosts: [fixture.hostPort], resolver });
    for (const url of [`${canary.origin}/`, `http://localhost:${canary.port}/`, `http://[::ffff:127.0.0.1]:${canary.port}/`]) {
      const answer = await forward(proxy, url);
      expect(answer.status, url).toBe(403);
      expect(proxy.outcomeOf(answer.egress), url).toBe('refused');
      expect(answer.body, url).toMatch(/loopback|local or internal/);
    }
    const rebind = await forward(proxy, `http://rebind.test:${canary.port}/`);
    expect([rebind.status, proxy.outcomeOf(rebind.egress)]).toEqual([502, 'unreachable']);
    expect(rebind.body).toContain('rebind.test does not resolve to an address that may be loaded');
    for (const authority of [canary.hostPort, `[::1]:${canary.port}`]) {
      const answer = await tunnel(proxy, authority);
      expect(answer.status, authority).toBe(403);
      expect(proxy.outcomeOf(answer.egress), authority).toBe('refused');
    }
    const rebindTunnel = await tunnel(proxy, `rebind.test:${canary.port}`);
    expect([rebindTunnel.status, proxy.outcomeOf(rebindTunnel.egress)]).toEqual([502, 'unreachable']);
  });

  it('answers a name that does not resolve exactly as one that resolves to a refused address (no internal-name oracle for a page)', async () => {
    const resolver: HostResolver = async (hostname) => {
      if (hostname === 'intranet.test') return ['10.1.2.3'];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    };
    const proxy = await startProxy({ resolver });
    const internal = await forward(proxy, 'http://intranet.test/');
    const unknown = await forward(proxy, 'http://nowhere.test/');
    expect([unknown.status, unknown.body.replace('nowhere.test', 'NAME')]).toEqual([internal.status, internal.body.replace('intranet.test', 'NAME')]);
    const internalTunnel = await tunnel(proxy, 'intranet.test:443');
    const unknownTunnel = await tunnel(proxy, 'nowhere.test:443');
    expect(unknownTunnel.status).toBe(internalTunnel.status);
  });

  it('connects to the address it checked: one DNS answer per connection, never a second lookup', async () => {
    const lookups: string[] = [];
    // The first answer passes (private networks allowed here); any later one points nowhere useful.
    const resolver: HostResolver = async (hostname) => {
      lookups.push(hostname);
      return lookups.length === 1 ? ['127.0.0.1'] : ['10.255.255.1'];
    };
    const proxy = await startProxy({ allowPrivateNetworks: true, resolver });
    const answer = await forward(proxy, `http://pinned.test:${fixture.port}/pinned`);
    expect(answer.status).toBe(200);
    expect(lookups).toEqual(['pinned.test']);
    expect(fixture.hitsTo('/pinned')).toHaveLength(1);
  });

  it('refuses a rebinding name whose one answer is loopback even though it is asked only once', async () => {
    let calls = 0;
    const resolver: HostResolver = async () => (calls++ === 0 ? ['127.0.0.1'] : ['93.184.215.14']);
    const proxy = await startProxy({ resolver });
    const answer = await tunnel(proxy, `rebind.test:${canary.port}`);
    // Refused, and answered as a dead name would be (see the test above).
    expect([answer.status, proxy.outcomeOf(answer.egress)]).toEqual([502, 'unreachable']);
    expect(calls).toBe(1);
  });

  it('answers an unreachable allowed target with a marked 502, not a target status', async () => {
    const port = await closedPort();
    const proxy = await startProxy({ allowPrivateHosts: [`127.0.0.1:${port}`] });
    const answer = await forward(proxy, `http://127.0.0.1:${port}/`);
    expect(answer.status).toBe(502);
    expect(proxy.outcomeOf(answer.egress)).toBe('unreachable');
    expect((await tunnel(proxy, `127.0.0.1:${port}`)).status).toBe(502);
  });

  it('sends a request again on a new connection when a kept-alive one dies as it is reused, and only one without a body', async () => {
    // A target that closes each connection when a second request arrives on it: what a server
    // whose keep-alive timeout ends just as the proxy reuses the connection looks like.
    let connections = 0;
    const target = createNetServer((socket) => {
      connections += 1;
      let requests = 0;
      socket.on('data', (chunk) => {
        if (!chunk.toString('latin1').includes('\r\n\r\n')) return;
        requests += 1;
        if (requests > 1) {
          socket.destroy();
          return;
        }
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
      });
      socket.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const { port } = target.address() as AddressInfo;
    try {
      const proxy = await startProxy({ allowPrivateHosts: [`127.0.0.1:${port}`] });
      expect(await forward(proxy, `http://127.0.0.1:${port}/first`)).toMatchObject({ status: 200, body: 'ok' });
      expect(await forward(proxy, `http://127.0.0.1:${port}/second`)).toMatchObject({ status: 200, body: 'ok', egress: undefined });
      expect(connections, 'the second request went again on a connection of its own').toBe(2);
      // A request with a body may have been acted on: it is not sent twice.
      expect((await forward(proxy, `http://127.0.0.1:${port}/warm`)).status).toBe(200);
      const posted = await forward(proxy, `http://127.0.0.1:${port}/form`, credentialsOf(proxy), 'a=1');
      expect([posted.status, proxy.outcomeOf(posted.egress)]).toEqual([502, 'unreachable']);
      expect(connections).toBe(3);
    } finally {
      await new Promise((resolve) => target.close(resolve));
    }
  });

  it('does not honour a forged egress header from a target', async () => {
    const proxy = await startProxy({});
    expect(proxy.outcomeOf('0123456789abcdef0123456789abcdef refused')).toBeUndefined();
    expect(proxy.outcomeOf(`${proxy.token} refused`)).toBe('refused');
    expect(proxy.outcomeOf(undefined)).toBeUndefined();
  });

  it('rejects requests that are not proxy requests', async () => {
    const proxy = await startProxy({});
    const { hostname, port } = new URL(proxy.url);
    const status = await new Promise<number>((resolve, reject) => {
      request({ host: hostname, port, path: '/not-absolute', headers: { 'proxy-authorization': credentialsOf(proxy) } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(400);
  });
});
