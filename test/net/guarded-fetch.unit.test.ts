import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressPolicy, type HostResolver } from '../../src/net/address-policy.js';
import { AddressNotAllowed, HostUnresolvable } from '../../src/net/errors.js';
import { createGuardedFetch, type GuardedFetcher } from '../../src/net/guarded-fetch.js';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';

describe('guarded fetch', () => {
  let canary: RecordingServer;
  let fixture: RecordingServer;
  let guarded: GuardedFetcher;
  const resolver: HostResolver = async (hostname) => {
    if (hostname === 'loopback.test') return ['127.0.0.1'];
    throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  };

  beforeAll(async () => {
    canary = await startRecordingServer();
    fixture = await startRecordingServer({
      '/to-canary': (_req, res) => res.writeHead(302, { location: `${canary.origin}/redirected` }).end(),
      '/to-loopback-name': (_req, res) => res.writeHead(302, { location: `http://loopback.test:${canary.port}/` }).end(),
      '/json': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"fine":true}'),
    });
    guarded = createGuardedFetch(new AddressPolicy({ allowPrivateHosts: [fixture.hostPort], resolver }));
  });
  afterAll(async () => {
    await guarded.close();
    await Promise.all([canary.close(), fixture.close()]);
  });

  it('fetches from an allowed host', async () => {
    const response = await guarded.fetch(`${fixture.origin}/json`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ fine: true });
  });

  it('refuses loopback by IP, by a name that resolves to it, and behind a redirect, without touching it', async () => {
    await expect(guarded.fetch(`${canary.origin}/direct`)).rejects.toBeInstanceOf(AddressNotAllowed);
    await expect(guarded.fetch(`http://loopback.test:${canary.port}/`)).rejects.toBeInstanceOf(AddressNotAllowed);
    await expect(guarded.fetch(`${fixture.origin}/to-canary`)).rejects.toBeInstanceOf(AddressNotAllowed);
    await expect(guarded.fetch(`${fixture.origin}/to-loopback-name`)).rejects.toBeInstanceOf(AddressNotAllowed);
    expect(fixture.hitsTo('/to-canary')).toHaveLength(1);
    expect(canary.connections, JSON.stringify(canary.hits)).toBe(0);
  });

  it('refuses other schemes and reports unknown hosts as HostUnresolvable', async () => {
    await expect(guarded.fetch('file:///etc/passwd')).rejects.toBeInstanceOf(AddressNotAllowed);
    await expect(guarded.fetch('http://nowhere.test/')).rejects.toBeInstanceOf(HostUnresolvable);
  });

  it('dials the address its check saw, not a second DNS answer', async () => {
    const answers = [['127.0.0.1'], ['10.255.255.1']];
    const lookups: string[] = [];
    const pinned = createGuardedFetch(
      new AddressPolicy({
        allowPrivateNetworks: true,
        resolver: async (hostname) => {
          lookups.push(hostname);
          return answers[Math.min(lookups.length - 1, 1)] as string[];
        },
      }),
    );
    try {
      const response = await pinned.fetch(`http://pinned.test:${fixture.port}/json`);
      expect(response.status).toBe(200);
      expect(lookups).toEqual(['pinned.test']);
    } finally {
      await pinned.close();
    }
  });
});
