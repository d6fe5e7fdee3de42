import { BlockList, isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/** What a request's client is called when the connection says nothing (a request made in-process). */
export const UNKNOWN_CLIENT = 'unknown';

interface AddressRange {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

function parseRange(entry: string): AddressRange | undefined {
  const [address = '', prefixText, extra] = entry.trim().split('/');
  const version = isIP(address);
  if (extra !== undefined || version === 0) return undefined;
  const bits = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return undefined;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** An IP address or a CIDR range (`10.0.0.0/8`, `fd00::/8`): the form TRUSTED_PROXIES takes. */
export function isAddressOrRange(entry: string): boolean {
  return parseRange(entry) !== undefined;
}

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
    const range = parseRange(entry);
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

/**
 * The key a per-address limit counts under: an IPv4 address, or an IPv6 address's /64, since
 * one IPv6 client usually holds a whole /64 and could otherwise take a fresh address per try.
 */
export function addressLimitKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const [head = '', tail] = address.toLowerCase().split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  if ([...headGroups, ...tailGroups].some((group) => group.includes('.'))) return address;
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
