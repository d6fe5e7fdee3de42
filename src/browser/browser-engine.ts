import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { AddressPolicy, type HostResolver } from '../net/address-policy.js';
import { createGuardedFetch, type GuardedFetcher } from '../net/guarded-fetch.js';
import { BrowserPool } from './browser-pool.js';

/** The parts of the container that reach the outside world for callers. */
export interface BrowserEngine {
  addressPolicy: AddressPolicy;
  /** The Chromium pool; Chromium itself starts on first use. */
  browser: BrowserPool;
  /** fetch for server-side calls to caller-influenced URLs, under the same address policy. */
  guardedFetch: GuardedFetcher;
}

export function createBrowserEngine(config: Config, logger: Logger, resolver?: HostResolver): BrowserEngine {
  if (config.browser.wsEndpoint) {
    // The remote browser's traffic would not pass the egress proxy; until that is solved the
    // setting is refused rather than silently ignored. BrowserPoolOptions.launcher is the seam.
    throw new Error('BROWSER_WS_ENDPOINT is not supported yet: unset it to use the local Chromium pool');
  }
  const addressPolicy = new AddressPolicy({
    allowPrivateNetworks: config.egress.allowPrivateNetworks,
    allowPrivateHosts: config.egress.allowPrivateHosts,
    resolver,
  });
  const browser = new BrowserPool({
    executablePath: config.browser.chromiumPath,
    sandbox: config.browser.sandbox,
    maxPages: config.browser.maxPages,
    maxQueue: config.browser.maxQueue,
    queueTimeoutMs: config.browser.queueTimeoutMs,
    recycleAfter: config.browser.recycleAfter,
    preparedContexts: config.browser.preparedContexts,
    navigationTimeoutMaxMs: config.browser.navigationTimeoutMaxMs,
    policy: addressPolicy,
    logger: logger.child({ component: 'browser' }),
  });
  return { addressPolicy, browser, guardedFetch: createGuardedFetch(addressPolicy) };
}
