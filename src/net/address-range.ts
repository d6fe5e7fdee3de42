import { isIP } from 'node:net';

export interface AddressRange {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** An IP address or a CIDR range, split for `BlockList.addSubnet`; undefined when it is neither. */
export function parseAddressRange(entry: string): AddressRange | undefined {
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
  return parseAddressRange(entry) !== undefined;
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
