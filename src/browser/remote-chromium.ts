import { connect } from 'node:net';
import { type Browser, chromium } from 'playwright-core';
import type { Logger } from 'pino';
import { EGRESS_HEADER, EGRESS_PROBE_URL, type EgressProxy } from '../net/egress-proxy.js';
import { type ChromiumProcess, UDP_OFF_FLAGS } from './chromium-process.js';

export interface RemoteChromiumOptions {
  /**
   * `ws://host:port/...` or `http://host:port` (which asks `/json/version` at every connect).
   * Chromium's own `ws://host:port/devtools/browser/<id>` names one browser process: when it
   * no longer answers, the browser now on that port is asked for instead (a restart).
   */
  endpoint: string;
  /** The egress proxy every context is pointed at; the remote browser must be able to reach it. */
  proxy: EgressProxy;
  logger: Logger;
  /** Bounds the CDP connection and the egress check each, so no request waits on a dead host. */
  timeoutMs: number;
}

/** The remote browser cannot be used safely or at all; the pool answers 503. */
export class RemoteBrowserUnusable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RemoteBrowserUnusable';
  }
}

/**
 * Connects to a Chromium running elsewhere over CDP. Its launch flags are not ours to set, so
 * on every connect it is checked: version and command line are logged (with a warning for each
 * flag the egress guard relies on that is missing, when the command line can be read), and a
 * context pointed at the egress proxy must get the proxy's own answer to a probe URL, which
 * proves the browser reaches the advertised proxy address and authenticates to it. A browser
 * that fails the probe is not used.
 */
export async function connectRemoteChromium(options: RemoteChromiumOptions): Promise<ChromiumProcess> {
  const endpoint = describeEndpoint(options.endpoint);
  const browser = await connectOverCdp(options.endpoint, options.timeoutMs);
  let timer: NodeJS.Timeout | undefined;
  try {
    // A browser that accepts the connection but never answers must not hold the requests waiting for it.
    const silent = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RemoteBrowserUnusable(`The remote browser at ${endpoint} did not answer within ${options.timeoutMs} ms`)), options.timeoutMs * 2);
    });
    await Promise.race([checkBrowser(browser, endpoint, options), silent]);
  } catch (error) {
    // Not awaited: over a dead link the close handshake only ends at the WebSocket's own timeout.
    void browser.close().catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return { browser, pid: undefined, userDataDir: undefined, remoteEndpoint: endpoint };
}

async function checkBrowser(browser: Browser, endpoint: string, options: RemoteChromiumOptions): Promise<void> {
  await logBrowserFacts(browser, endpoint, options.logger);
  await proveEgressRoute(browser, options);
}

async function connectOverCdp(endpoint: string, timeoutMs: number): Promise<Browser> {
  try {
    return await chromium.connectOverCDP(endpoint, { timeout: timeoutMs });
  } catch (error) {
    const discovery = discoveryUrl(endpoint);
    if (discovery) {
      const restarted = await chromium.connectOverCDP(discovery, { timeout: timeoutMs }).catch(() => undefined);
      if (restarted) return restarted;
    }
    throw new RemoteBrowserUnusable(`The remote browser at ${describeEndpoint(endpoint)} could not be reached`, { cause: error });
  }
}

/** `http://host:port` for Chromium's own per-process `ws://host:port/devtools/browser/<id>`; undefined for other forms. */
function discoveryUrl(endpoint: string): string | undefined {
  const url = new URL(endpoint);
  if (!/^wss?:$/.test(url.protocol) || !url.pathname.startsWith('/devtools/browser/')) return undefined;
  return `${url.protocol === 'wss:' ? 'https' : 'http'}://${url.host}`;
}

/**
 * Asks the remote browser for its version every `intervalMs`; calls `onSilent` once when an
 * answer takes longer than that. A host that vanishes without closing the connection (a
 * network partition) would otherwise hold every request until its own time limits.
 * Returns a function that stops the watch.
 */
export function watchRemoteBrowser(browser: Browser, intervalMs: number, onSilent: () => void): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
  };
  const sessionReady = browser.newBrowserCDPSession();
  sessionReady.catch(() => undefined);
  const beat = async () => {
    if (stopped) return;
    let silence: NodeJS.Timeout | undefined;
    const answered = await Promise.race([
      sessionReady.then((session) => session.send('Browser.getVersion')).then(
        () => true,
        () => true, // a closed session means a disconnect, which reports itself
      ),
      new Promise<false>((resolve) => {
        silence = setTimeout(() => resolve(false), intervalMs);
      }),
    ]);
    clearTimeout(silence);
    if (stopped) return;
    if (!answered) {
      stop();
      onSilent();
      return;
    }
    timer = setTimeout(() => void beat(), intervalMs);
    timer.unref();
  };
  timer = setTimeout(() => void beat(), intervalMs);
  timer.unref();
  return stop;
}

/** Whether a TCP connection to the endpoint's host and port opens within `timeoutMs` (for /ready). */
export function isEndpointReachable(endpoint: string, timeoutMs: number): Promise<boolean> {
  const url = new URL(endpoint);
  const secure = url.protocol === 'wss:' || url.protocol === 'https:';
  const port = Number(url.port || (secure ? 443 : 80));
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port, timeout: timeoutMs });
    const settle = (reachable: boolean) => {
      socket.destroy();
      resolve(reachable);
    };
    socket.once('connect', () => settle(true));
    socket.once('timeout', () => settle(false));
    socket.once('error', () => settle(false));
  });
}

/** The endpoint without credentials or query (services put tokens there): safe to log and show. */
export function describeEndpoint(endpoint: string): string {
  const url = new URL(endpoint);
  return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}

async function logBrowserFacts(browser: Browser, endpoint: string, logger: Logger): Promise<void> {
  const session = await browser.newBrowserCDPSession();
  try {
    const version = await session.send('Browser.getVersion');
    // Only answered when the browser runs with --enable-automation; otherwise its flags cannot be seen from here.
    const commandLine = await session
      .send('Browser.getBrowserCommandLine')
      .then((answer) => answer.arguments)
      .catch(() => undefined);
    logger.info(
      { endpoint, product: version.product, protocolVersion: version.protocolVersion, userAgent: version.userAgent },
      'remote browser connected',
    );
    if (!commandLine) {
      logger.warn({ endpoint, required: UDP_OFF_FLAGS }, 'remote browser flags cannot be read: make sure it runs with the required flags');
      return;
    }
    const missing = missingUdpFlags(commandLine);
    if (missing.length > 0) logger.warn({ endpoint, missing }, 'remote browser lacks flags the egress guard relies on');
  } finally {
    await session.detach().catch(() => undefined);
  }
}

/** `--disable-quic`, and one of the two spellings of the WebRTC policy. */
export function missingUdpFlags(commandLine: readonly string[]): string[] {
  const [quic, forcedWebRtc, webRtc] = UDP_OFF_FLAGS;
  const missing: string[] = [];
  if (!commandLine.includes(quic)) missing.push(quic);
  if (!commandLine.includes(forcedWebRtc) && !commandLine.includes(webRtc)) missing.push(forcedWebRtc);
  return missing;
}

async function proveEgressRoute(browser: Browser, options: RemoteChromiumOptions): Promise<void> {
  const context = await browser.newContext({ proxy: options.proxy.browserSettings, serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    const response = await page.goto(EGRESS_PROBE_URL, { timeout: options.timeoutMs });
    if (!options.proxy.isProbeAnswer(response?.headers()[EGRESS_HEADER])) {
      throw new Error('the probe was answered, but not by this service’s egress proxy');
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new RemoteBrowserUnusable(`The remote browser cannot use the egress proxy at ${options.proxy.url}: ${reason}`, { cause: error });
  } finally {
    await context.close().catch(() => undefined);
  }
}
