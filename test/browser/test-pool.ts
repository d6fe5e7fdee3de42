import pino from 'pino';
import { BrowserPool, type BrowserPoolOptions } from '../../src/browser/browser-pool.js';
import { loadConfig } from '../../src/config.js';
import { AddressPolicy, type AddressPolicyOptions } from '../../src/net/address-policy.js';

export type TestPoolOptions = Partial<Omit<BrowserPoolOptions, 'policy'>> & AddressPolicyOptions;

/** A pool on the real Chromium from config defaults (CHROMIUM_PATH), small and quiet. */
export function createTestPool(options: TestPoolOptions = {}): BrowserPool {
  const { allowPrivateHosts, allowPrivateNetworks, resolver, ...pool } = options;
  const config = loadConfig({});
  return new BrowserPool({
    executablePath: config.browser.chromiumPath,
    sandbox: false,
    maxPages: 2,
    maxQueue: 10,
    queueTimeoutMs: 10_000,
    recycleAfter: 1000,
    preparedContexts: 1,
    navigationTimeoutMaxMs: 20_000,
    logger: pino({ level: 'silent' }),
    ...pool,
    policy: new AddressPolicy({ allowPrivateHosts, allowPrivateNetworks, resolver }),
  });
}

/** The error `promise` rejects with (fails the test when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error as Error,
  );
}
