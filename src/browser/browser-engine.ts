import { accessSync, constants } from 'node:fs';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { AddressPolicy, type HostResolver, systemResolver } from '../net/address-policy.js';
import { createGuardedFetch, type GuardedFetcher } from '../net/guarded-fetch.js';
import { createHostCache } from '../net/host-cache.js';
import { BrowserPool } from './browser-pool.js';
import { MISSING_CHROMIUM_ADVICE } from './chromium-process.js';

/** The parts of the container that reach the outside world for callers. */
export interface BrowserEngine {
  addressPolicy: AddressPolicy;
  /** The Chromium pool (local, or a remote browser over CDP); Chromium itself starts on first use. */
  browser: BrowserPool;
  /** fetch for server-side calls to caller-influenced URLs, under the same address policy. */
  guardedFetch: GuardedFetcher;
}

export function createBrowserEngine(config: Config, logger: Logger, resolver?: HostResolver): BrowserEngine {
  const addressPolicy = new AddressPolicy({
    allowPrivateNetworks: config.egress.allowPrivateNetworks,
    allowPrivateHosts: config.egress.allowPrivateHosts,
    resolver: createHostCache(resolver ?? systemResolver),
  });
  const browser = new BrowserPool({
    executablePath: config.browser.chromiumPath,
    sandbox: config.browser.sandbox,
    // Chromium refuses to sandbox itself as root: it then runs as an unprivileged user of its own.
    chromiumUser: process.getuid?.() === 0 ? config.browser.user : undefined,
    maxPages: config.browser.maxPages,
    maxPagesPerAccount: config.browser.maxPagesPerAccount,
    maxQueue: config.browser.maxQueue,
    queueTimeoutMs: config.browser.queueTimeoutMs,
    recycleAfter: config.browser.recycleAfter,
    preparedContexts: config.browser.preparedContexts,
    warmPages: config.browser.warmPages,
    sessions: config.browser.sessions,
    navigationTimeoutMaxMs: config.browser.navigationTimeoutMaxMs,
    remoteEndpoint: config.browser.wsEndpoint,
    remoteHeartbeatMs: config.browser.remoteHeartbeatMs,
    egressProxy: { listenHost: config.egress.proxyHost, listenPort: config.egress.proxyPort, publicUrl: config.egress.proxyPublicUrl },
    policy: addressPolicy,
    logger: logger.child({ component: 'browser' }),
  });
  if (!config.browser.sandbox && !config.browser.wsEndpoint) {
    logger.warn(
      'Chromium runs without its sandbox (CHROMIUM_SANDBOX=false): a page that exploits a renderer bug runs with this service\'s rights. Keep it off only where the host itself is the sandbox (a disposable container or VM)',
    );
  }
  if (!config.browser.wsEndpoint && !isExecutable(config.browser.chromiumPath)) {
    // Said at start, not only at the first page request: Chromium starts on first use.
    logger.warn({ chromiumPath: config.browser.chromiumPath }, `Chromium not found at CHROMIUM_PATH: ${MISSING_CHROMIUM_ADVICE}`);
  }
  if (config.browser.wsEndpoint && isLoopbackProxyForRemoteBrowser(config)) {
    // Not fatal (an SSH tunnel or a shared network namespace can make it work); the connect-time probe decides.
    logger.warn(
      { proxyHost: config.egress.proxyHost },
      'BROWSER_WS_ENDPOINT names another host but the egress proxy listens on loopback: set EGRESS_PROXY_HOST (and EGRESS_PROXY_PUBLIC_URL if needed)',
    );
  }
  return { addressPolicy, browser, guardedFetch: createGuardedFetch(addressPolicy) };
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function isLoopbackProxyForRemoteBrowser(config: Config): boolean {
  const isLoopback = (host: string) => host === 'localhost' || host === '::1' || host === '[::1]' || host.startsWith('127.');
  const browserHost = new URL(config.browser.wsEndpoint as string).hostname;
  return !config.egress.proxyPublicUrl && isLoopback(config.egress.proxyHost) && !isLoopback(browserHost);
}
