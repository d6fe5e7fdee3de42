import { BlockList, isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { parseAddressRange } from '../net/address-range.js';

/** What a request's client is called when the connection says nothing (a request made in-process). */
export const UNKNOWN_CLIENT = 'unknown';

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) is `10.0.0.1`. */
function normalise(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

function peerAddress(c: Context): string {
  try {
    const address = getConnInfo(c).remote.address;
    return address ? normalise(address) : UNKNOWN_CLIENT;
  } catch {
    // Not served by @hono/node-server (app.request in-process): there is no socket to ask.
    return UNKNOWN_CLIENT;
  }
}

/**
 * Who the client of a request is, for limits that count per address. The connecting peer,
 * unless it is one of `trustedProxies`: then X-Forwarded-For is read from the right, each
 * trusted hop skipped, and the first address a trusted proxy vouched for is the client. A
 * client can write anything into X-Forwarded-For, so it is never read by default, and
 * entries to the left of the first untrusted one are never believed.
 */
export function createClientAddress(trustedProxies: readonly string[]): (c: Context) => string {
  if (trustedProxies.length === 0) return peerAddress;
  const trusted = new BlockList();
  for (const entry of trustedProxies) {
    const range = parseAddressRange(entry);
    if (range) trusted.addSubnet(range.address, range.prefix, range.family);
  }
  const isTrusted = (address: string) => trusted.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');

  return function clientAddress(c) {
    const peer = peerAddress(c);
    if (peer === UNKNOWN_CLIENT || !isTrusted(peer)) return peer;
    const hops = (c.req.header('x-forwarded-for') ?? '').split(',').map((hop) => normalise(hop.trim()));
    let client = peer;
    for (let index = hops.length - 1; index >= 0; index -= 1) {
      const hop = hops[index]!;
      // Not an address: no proxy wrote it, so the last proxy we trust is as far as we can see.
      if (isIP(hop) === 0) return client;
      client = hop;
      if (!isTrusted(hop)) return hop;
    }
    return client;
  };
}
