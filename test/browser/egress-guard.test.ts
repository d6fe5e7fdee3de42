import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserPool } from '../../src/browser/browser-pool.js';
import { AddressNotAllowed } from '../../src/net/errors.js';
import type { RecordingServer } from '../helpers/recording-server.js';
import { ALLOWED_PROBES, type EgressCanary, REFUSED_PROBES, refusedTargets as refusedIn, startEgressCanary } from './egress-canary.js';
import { createTestPool, rejectionOf } from './test-pool.js';

describe('egress guard in Chromium: the canary on loopback is never reached', () => {
  let pool: BrowserPool;
  let fixtures: EgressCanary;
  let site: RecordingServer;
  let canary: RecordingServer;
  const logs: string[] = [];
  const refusedTargets = () => refusedIn(logs);

  beforeAll(async () => {
    fixtures = await startEgressCanary();
    ({ site, canary } = fixtures);
    pool = createTestPool({
      allowPrivateHosts: [site.hostPort],
      resolver: fixtures.resolver,
      logger: pino({ level: 'warn' }, { write: (line: string) => void logs.push(line) }),
    });
  });
  afterAll(async () => {
    await pool?.close();
    await fixtures?.close();
    expect(canary.connections, `canary reached: ${JSON.stringify(canary.hits)}`).toBe(0);
  });

  it('blocks images, iframes, fetch, XHR, WebSockets, https, names resolving to loopback, service workers, WebRTC and WebTransport UDP', async () => {
    const results = await pool.withLoadedPage({}, { url: `${site.origin}/subresources`, waitForSelector: '#done' }, async (loaded) =>
      JSON.parse((await loaded.page.textContent('#done')) ?? '{}'),
    );
    // The same mechanisms work against the allowed fixture, so the refusals are the guard's doing.
    expect(results).toMatchObject(ALLOWED_PROBES);
    expect(site.hitsTo('/beacon-ws')[0]?.upgrade).toBe(true);
    for (const probe of REFUSED_PROBES) {
      expect(results[probe], `${probe}: ${JSON.stringify(results)}`).toBe('error');
    }
    expect(results['service-worker']).toBe('ok:0');
    expect(results['webrtc-udp']).toMatch(/^ok:/);
    expect(fixtures.udpPackets(), 'a STUN or QUIC packet reached the UDP canary').toBe(0);
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
