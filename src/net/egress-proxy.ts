import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Agent, type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { type AddressPolicy, effectivePort } from './address-policy.js';
import { AddressNotAllowed, HostUnresolvable, NameNotLoadable } from './errors.js';
import { connectPinned, pinnedLookup } from './pinned-connect.js';

/** What the proxy did instead of forwarding, as told in EGRESS_HEADER on its own answers. */
export type EgressOutcome = 'refused' | 'unreachable';

/** Header on answers the proxy writes itself: `<token> <outcome>`. */
export const EGRESS_HEADER = 'x-pluck-egress';

/**
 * A URL the proxy answers itself (`<token> probe`) and never resolves: a browser that gets
 * that answer sends its traffic through this proxy, reaches it and is authenticated.
 */
export const EGRESS_PROBE_URL = 'http://pluck-egress-probe.invalid/';

const AUTH_REALM = 'Pluck egress guard';

export interface EgressProxyOptions {
  policy: AddressPolicy;
  logger: Logger;
  connectTimeoutMs?: number;
  /** A tunnel or forwarded exchange with no byte moving for this long is cut. */
  idleTimeoutMs?: number;
  /** Interface to listen on: 127.0.0.1 unless a browser on another host must reach the proxy. */
  listenHost?: string;
  /** 0 (the default) takes a free port. */
  listenPort?: number;
  /** The address browsers are told, when they reach the proxy by another name than the listen address. */
  publicUrl?: string;
}

/** What a browser context needs to send everything through the proxy (Playwright's `proxy` shape). */
export interface BrowserProxySettings {
  server: string;
  /** `<-loopback>`: loopback targets go through the proxy too, instead of Chromium's implicit bypass. */
  bypass: string;
  username: string;
  password: string;
}

/** Requests that may go again on a new connection when a reused one died before answering. */
const BODILESS_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const HOP_BY_HOP = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * The egress guard: an HTTP forward proxy (127.0.0.1 unless configured otherwise) through
 * which Chromium sends every connection (CONNECT for https and WebSockets, absolute-URI
 * requests for plain http). Each host is resolved once, every address is checked by the
 * policy, and the connection goes to exactly those addresses, so redirects, subresources,
 * WebSockets and DNS rebinding all meet the same check at connect time.
 *
 * Only holders of the per-process credentials may use it (anything else gets 407): without
 * them any process that can reach the port, on this host or the browser hosts' network,
 * would have an open relay into whatever the policy allows.
 */
export class EgressProxy {
  /** Secret part of EGRESS_HEADER: a target cannot forge a refusal without knowing it. */
  readonly token = randomBytes(16).toString('hex');
  /** Random per process; browsers get them through their context's proxy settings. */
  private readonly credentials = { username: 'pluck', password: randomBytes(24).toString('base64url') };
  private readonly expectedAuthDigest = digest(Buffer.from(`${this.credentials.username}:${this.credentials.password}`).toString('base64'));
  private readonly server = createServer();
  private readonly sockets = new Set<Duplex>();
  private readonly upstreamAgent = new Agent({ keepAlive: true, maxFreeSockets: 64 });
  private readonly connectTimeoutMs: number;
  private readonly idleTimeoutMs: number;
  private port: number | undefined;

  constructor(private readonly options: EgressProxyOptions) {
    this.connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    this.idleTimeoutMs = options.idleTimeoutMs ?? 120_000;
    this.server.keepAliveTimeout = 60_000;
    this.server.on('connection', (socket) => this.track(socket));
    this.server.on('connect', (req, socket, head) => {
      socket.on('error', () => socket.destroy());
      if (this.authenticated(req)) void this.handleConnect(req, socket, head);
      else socket.end(`HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="${AUTH_REALM}"\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    });
    this.server.on('request', (req, res) => {
      if (this.authenticated(req)) void this.handleForward(req, res);
      else res.writeHead(407, { 'proxy-authenticate': `Basic realm="${AUTH_REALM}"`, 'content-length': '0' }).end();
    });
    this.server.on('upgrade', (_req, socket) => socket.end('HTTP/1.1 501 Not Implemented\r\nContent-Length: 0\r\n\r\n'));
  }

  async start(): Promise<void> {
    if (this.port !== undefined) return;
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.listenPort ?? 0, this.listenHost, () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
    this.options.logger.info({ listen: `${hostForUrl(this.listenHost)}:${this.port}`, advertised: this.url }, 'egress proxy listening');
  }

  /** The address browsers are given: the public URL when configured, else the listen address. */
  get url(): string {
    if (this.port === undefined) throw new Error('The egress proxy has not been started');
    if (this.options.publicUrl) return this.options.publicUrl;
    const host = this.listenHost === '0.0.0.0' || this.listenHost === '::' ? '127.0.0.1' : this.listenHost;
    return `http://${hostForUrl(host)}:${this.port}`;
  }

  /** Proxy settings for a browser context: the advertised address and the credentials. */
  get browserSettings(): BrowserProxySettings {
    return { server: this.url, bypass: '<-loopback>', ...this.credentials };
  }

  /** Whether `headerValue` (EGRESS_HEADER of the answer to EGRESS_PROBE_URL) came from this proxy. */
  isProbeAnswer(headerValue: string | null | undefined): boolean {
    return headerValue === `${this.token} probe`;
  }

  /** The outcome the proxy wrote into one of its own answers; undefined for a target's answer. */
  outcomeOf(headerValue: string | null | undefined): EgressOutcome | undefined {
    const [token, outcome] = (headerValue ?? '').split(' ');
    if (token !== this.token) return undefined;
    return outcome === 'refused' || outcome === 'unreachable' ? outcome : undefined;
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    this.upstreamAgent.destroy();
    if (this.port !== undefined) await closed;
  }

  private get listenHost(): string {
    return this.options.listenHost ?? '127.0.0.1';
  }

  /** Checks Proxy-Authorization in constant time; a wrong secret is logged, a missing one is a normal first try. */
  private authenticated(req: IncomingMessage): boolean {
    const header = req.headers['proxy-authorization'];
    if (header === undefined) {
      this.options.logger.debug({ remote: req.socket.remoteAddress }, 'egress proxy: credentials required');
      return false;
    }
    const match = /^basic\s+(\S+)\s*$/i.exec(header);
    if (match && timingSafeEqual(digest(match[1] as string), this.expectedAuthDigest)) return true;
    this.options.logger.warn({ remote: req.socket.remoteAddress, target: req.url }, 'egress proxy: wrong credentials refused');
    return false;
  }

  private async handleConnect(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    client.on('error', () => client.destroy());
    const authority = splitAuthority(req.url ?? '');
    if (!authority) {
      client.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    let upstream: Socket;
    try {
      const addresses = await this.options.policy.resolveAllowed(authority.host, authority.port);
      upstream = await connectPinned(authority.host, authority.port, addresses, this.connectTimeoutMs);
    } catch (error) {
      const outcome = this.report(error, req.url ?? '', 'connect');
      const status = outcome === 'refused' ? '403 Forbidden' : '502 Bad Gateway';
      client.end(`HTTP/1.1 ${status}\r\n${EGRESS_HEADER}: ${this.token} ${outcome}\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    this.track(upstream);
    if (client.destroyed) {
      upstream.destroy();
      return;
    }
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    this.splice(client as Socket, upstream);
  }

  private async handleForward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = parseAbsoluteHttpUrl(req.url ?? '');
    if (!target) {
      this.answer(res, 400, 'unreachable', 'This proxy forwards absolute http:// URLs only');
      return;
    }
    if (target.href === EGRESS_PROBE_URL) {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', [EGRESS_HEADER]: `${this.token} probe` });
      res.end('Pluck egress guard: this browser context reaches the proxy\n');
      return;
    }
    const port = effectivePort(target);
    let addresses: string[];
    try {
      addresses = await this.options.policy.resolveAllowed(target.hostname, port);
    } catch (error) {
      const outcome = this.report(error, target.href, 'forward');
      this.answer(res, outcome === 'refused' ? 403 : 502, outcome, describe(error));
      return;
    }
    const bodiless = BODILESS_METHODS.has(req.method ?? '') && !req.headers['content-length'] && !req.headers['transfer-encoding'];
    let upstream: ClientRequest;
    const forward = (retried: boolean) => {
      const attempt = request({
        host: target.hostname.replace(/^\[|\]$/g, ''),
        port,
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers: forwardableHeaders(req.rawHeaders),
        setHost: false,
        // The second try takes a connection of its own rather than another kept-alive one.
        agent: retried ? false : this.upstreamAgent,
        lookup: pinnedLookup(addresses),
        timeout: this.idleTimeoutMs,
      });
      attempt.on('timeout', () => attempt.destroy(new Error('The target stopped answering')));
      attempt.on('response', (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardableHeaders(answer.rawHeaders));
        answer.pipe(res);
      });
      attempt.on('error', (error) => {
        if (res.headersSent || res.destroyed) {
          res.destroy();
          return;
        }
        // A kept-alive connection the target closed just as it was reused fails before any
        // answer: that says nothing about the target, so a request without a body goes again,
        // once, on a new connection (what Node's documentation advises for reused sockets).
        if (attempt.reusedSocket && bodiless && !retried) {
          forward(true);
          return;
        }
        this.report(error, target.href, 'forward');
        this.answer(res, 502, 'unreachable', describe(error));
      });
      if (bodiless) attempt.end();
      else req.pipe(attempt);
      upstream = attempt;
    };
    forward(false);
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
  }

  private splice(client: Socket, upstream: Socket): void {
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      socket.setTimeout(this.idleTimeoutMs, cut);
      socket.on('error', cut);
      socket.on('close', () => (socket === client ? upstream : client).end());
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }

  /** Logs why a connection was not made and says which outcome the answer should carry. */
  private report(error: unknown, target: string, via: 'connect' | 'forward'): EgressOutcome {
    if (error instanceof HostUnresolvable) {
      // Dead tracker and ad hosts are everyday page furniture: not worth a warning each.
      this.options.logger.debug({ target, via, reason: error.detail }, 'egress target unreachable: the name does not resolve');
      return 'unreachable';
    }
    if (error instanceof AddressNotAllowed) {
      this.options.logger.warn({ target, via, reason: error.detail ?? error.message }, 'egress refused');
      // A name resolving to a refused address must look like a dead name to the page and the loader.
      return error instanceof NameNotLoadable ? 'unreachable' : 'refused';
    }
    this.options.logger.debug({ target, via, reason: describe(error) }, 'egress target unreachable');
    return 'unreachable';
  }

  private answer(res: ServerResponse, status: number, outcome: EgressOutcome, message: string): void {
    if (res.headersSent) return;
    res.writeHead(status, {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
      [EGRESS_HEADER]: `${this.token} ${outcome}`,
    });
    res.end(`Pluck egress guard: ${message}\n`);
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }
}

/** `host:port` or `[v6]:port` from a CONNECT line. */
function splitAuthority(authority: string): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(authority);
  if (!match) return undefined;
  const port = Number(match[2]);
  return port > 0 && port <= 65535 ? { host: match[1] as string, port } : undefined;
}

function parseAbsoluteHttpUrl(raw: string): URL | undefined {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Drops hop-by-hop headers (and those named in Connection); keeps repeated ones. */
function forwardableHeaders(raw: string[]): OutgoingHttpHeaders {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]?.toLowerCase() === 'connection') {
      for (const token of (raw[i + 1] ?? '').split(',')) named.add(token.trim().toLowerCase());
    }
  }
  const headers: Record<string, string | string[]> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] ?? '').toLowerCase();
    const value = raw[i + 1] ?? '';
    if (HOP_BY_HOP.has(name) || named.has(name)) continue;
    const existing = headers[name];
    headers[name] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
  }
  return headers;
}

/** Fixed-length form of a secret, so comparing it takes the same time whatever was sent. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function hostForUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
