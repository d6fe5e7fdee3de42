import { isIPv4, isIPv6 } from 'node:net';

/**
 * What kind of network an IP address belongs to. Only `public` is reachable by default;
 * `metadata` stays refused even when private networks are allowed.
 */
export type AddressClass =
  | 'public'
  | 'metadata'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'carrier-nat'
  | 'multicast'
  | 'unspecified'
  | 'reserved';

interface Range {
  base: bigint;
  prefix: number;
  bits: 32 | 128;
  kind: AddressClass;
}

function v4(cidr: string, kind: AddressClass): Range {
  const [address, prefix] = cidr.split('/') as [string, string];
  return { base: ipv4ToBigInt(address), prefix: Number(prefix), bits: 32, kind };
}

function v6(cidr: string, kind: AddressClass): Range {
  const [address, prefix] = cidr.split('/') as [string, string];
  return { base: ipv6ToBigInt(address), prefix: Number(prefix), bits: 128, kind };
}

// Most specific first: the first match decides. Cloud metadata endpoints sit inside larger
// ranges (link-local, CGNAT, IETF) and are listed before them so they keep their own class.
const IPV4_RANGES: Range[] = [
  v4('169.254.169.254/32', 'metadata'), // AWS, GCP, Azure, OpenStack, DigitalOcean...
  v4('169.254.170.2/32', 'metadata'), // AWS ECS task credentials
  v4('100.100.100.200/32', 'metadata'), // Alibaba Cloud
  v4('192.0.0.192/32', 'metadata'), // Oracle Cloud
  v4('0.0.0.0/8', 'unspecified'),
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'carrier-nat'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'reserved'),
  v4('192.0.2.0/24', 'reserved'),
  v4('192.88.99.0/24', 'reserved'),
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'reserved'),
  v4('198.51.100.0/24', 'reserved'),
  v4('203.0.113.0/24', 'reserved'),
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved'), // includes 255.255.255.255
];

const IPV6_RANGES: Range[] = [
  v6('fd00:ec2::254/128', 'metadata'), // AWS over IPv6
  v6('::/128', 'unspecified'),
  v6('::1/128', 'loopback'),
  v6('64:ff9b:1::/48', 'reserved'), // local-use NAT64
  v6('100::/64', 'reserved'),
  v6('2001::/23', 'reserved'), // IETF protocol assignments, Teredo included
  v6('2001:db8::/32', 'reserved'),
  v6('3fff::/20', 'reserved'),
  v6('fc00::/7', 'private'),
  v6('fe80::/10', 'link-local'),
  v6('fec0::/10', 'reserved'),
  v6('ff00::/8', 'multicast'),
];

/** IPv6 forms that carry an IPv4 address: the IPv4 address decides. */
const EMBEDDED_IPV4: { prefix: Range; extract: (value: bigint) => bigint }[] = [
  { prefix: v6('::ffff:0:0/96', 'reserved'), extract: (value) => value & 0xffffffffn }, // IPv4-mapped
  { prefix: v6('::/96', 'reserved'), extract: (value) => value & 0xffffffffn }, // IPv4-compatible
  { prefix: v6('64:ff9b::/96', 'reserved'), extract: (value) => value & 0xffffffffn }, // NAT64
  { prefix: v6('2002::/16', 'reserved'), extract: (value) => (value >> 80n) & 0xffffffffn }, // 6to4
];

const GLOBAL_UNICAST_V6 = v6('2000::/3', 'public');

function contains(range: Range, value: bigint): boolean {
  const shift = BigInt(range.bits - range.prefix);
  return value >> shift === range.base >> shift;
}

/** Classifies an IP address given as text (IPv6 with or without brackets or zone). */
export function classifyAddress(address: string): AddressClass {
  const bare = stripBrackets(address);
  if (isIPv4(bare)) return classifyIPv4(ipv4ToBigInt(bare));
  if (isIPv6(bare)) return classifyIPv6(ipv6ToBigInt(bare));
  throw new Error(`Not an IP address: ${address}`);
}

function classifyIPv4(value: bigint): AddressClass {
  return IPV4_RANGES.find((range) => contains(range, value))?.kind ?? 'public';
}

function classifyIPv6(value: bigint): AddressClass {
  const special = IPV6_RANGES.find((range) => contains(range, value));
  if (special) return special.kind;
  const embedding = EMBEDDED_IPV4.find(({ prefix }) => contains(prefix, value));
  if (embedding) return classifyIPv4(embedding.extract(value));
  return contains(GLOBAL_UNICAST_V6, value) ? 'public' : 'reserved';
}

export function isIPAddress(host: string): boolean {
  const bare = stripBrackets(host);
  return isIPv4(bare) || isIPv6(bare);
}

/** `[::1]` -> `::1`; zone ids (`fe80::1%eth0`) are dropped, they only matter for link-local. */
export function stripBrackets(host: string): string {
  const unbracketed = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const zone = unbracketed.indexOf('%');
  return zone === -1 ? unbracketed : unbracketed.slice(0, zone);
}

function ipv4ToBigInt(address: string): bigint {
  return address.split('.').reduce((value, octet) => (value << 8n) | BigInt(Number(octet)), 0n);
}

function ipv6ToBigInt(address: string): bigint {
  let text = address;
  const dotted = text.lastIndexOf(':') < text.lastIndexOf('.') ? text.slice(text.lastIndexOf(':') + 1) : undefined;
  if (dotted) {
    const value = Number(ipv4ToBigInt(dotted));
    text = `${text.slice(0, text.lastIndexOf(':') + 1)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const [head = '', tail] = text.split('::') as [string, string | undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups];
  return groups.reduce((value, group) => (value << 16n) | BigInt(Number.parseInt(group, 16)), 0n);
}
