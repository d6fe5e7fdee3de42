import { lookup } from 'node:dns/promises';
import { AddressNotAllowed, HostUnresolvable, NameNotLoadable } from './errors.js';
import { type AddressClass, classifyAddress, isIPAddress, stripBrackets } from './ip-address.js';

/** Resolves a host name to its IP addresses. Injectable so tests can point names anywhere. */
export type HostResolver = (hostname: string) => Promise<string[]>;

export const systemResolver: HostResolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
};

export interface AddressPolicyOptions {
  /** Allow loopback, private, link-local, CGNAT... (development only). Cloud metadata stays refused. */
  allowPrivateNetworks?: boolean;
  /** `host:port` entries exempt from every address check (e.g. `127.0.0.1:8080`, `wiki.lan:80`). */
  allowPrivateHosts?: readonly string[];
  resolver?: HostResolver;
}

export interface CheckedTarget {
  /** The WHATWG serialisation of the checked URL: exactly the string to give Chromium. */
  url: string;
  hostname: string;
  port: number;
  /** Every address the host resolved to, all checked: connect only to these. */
  addresses: string[];
}

const METADATA_NAMES = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);
const LOCAL_NAMES = new Set(['localhost', 'localhost.localdomain']);
const LOCAL_SUFFIXES = ['.localhost', '.local', '.localdomain', '.internal', '.home.arpa'];

const DESCRIPTIONS: Record<Exclude<AddressClass, 'public'>, string> = {
  metadata: 'a cloud metadata',
  loopback: 'a loopback',
  private: 'a private network',
  'link-local': 'a link-local',
  'carrier-nat': 'a carrier-grade NAT',
  multicast: 'a multicast',
  unspecified: 'an unspecified',
  reserved: 'a reserved',
};

const HOST_PORT = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/;

/** True when `entry` has the `host:port` form ALLOW_PRIVATE_HOSTS expects. */
export function isHostPort(entry: string): boolean {
  const match = HOST_PORT.exec(entry);
  return match !== null && Number(match[2]) <= 65535;
}

/**
 * The SSRF policy: which URLs may be loaded and which addresses may be connected to. Checks run
 * on the WHATWG-parsed URL (so `127.1`, `0x7f000001`, fullwidth digits and percent-encoded
 * hosts are seen in their canonical form) and again on every address the host resolves to.
 */
export class AddressPolicy {
  private readonly allowPrivateNetworks: boolean;
  private readonly exempt: ReadonlySet<string>;
  private readonly resolver: HostResolver;

  constructor(options: AddressPolicyOptions = {}) {
    this.allowPrivateNetworks = options.allowPrivateNetworks ?? false;
    this.resolver = options.resolver ?? systemResolver;
    this.exempt = new Set((options.allowPrivateHosts ?? []).map(exemptionKey));
  }

  /** Checks the URL's form without DNS: scheme, host spelling and literal addresses. */
  parse(input: string): URL {
    let url: URL;
    try {
      url = new URL(input);
    } catch {
      throw new AddressNotAllowed('The URL is not a valid absolute URL', input);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new AddressNotAllowed(`Only http and https URLs can be loaded, not ${url.protocol.slice(0, -1)}`, input);
    }
    if (!this.isExempt(url.hostname, effectivePort(url))) this.checkHostForm(url.hostname, input);
    return url;
  }

  /** The full check of a caller's URL: form, then every resolved address. */
  async check(input: string): Promise<CheckedTarget> {
    const url = this.parse(input);
    const port = effectivePort(url);
    const addresses = await this.resolveAllowed(url.hostname, port, input);
    return { url: url.href, hostname: url.hostname, port, addresses };
  }

  /**
   * Resolves `host` once and checks every address. Callers connect only to the returned
   * addresses, so a second DNS answer (rebinding) never matters. Takes hosts as URLs carry them
   * and as CONNECT lines and socket APIs do (IPv6 with or without brackets).
   */
  async resolveAllowed(host: string, port: number, target = `${host}:${port}`): Promise<string[]> {
    const hostname = canonicalHost(host, target);
    const exempt = this.isExempt(hostname, port);
    if (!exempt) this.checkHostForm(hostname, target);
    if (isIPAddress(hostname)) return [stripBrackets(hostname)];
    const addresses = await this.lookup(hostname, target);
    if (!exempt) {
      for (const address of addresses) {
        const kind = this.refusedKind(address);
        if (kind) throw new NameNotLoadable(trimDots(hostname), target, `resolves to ${address}, ${DESCRIPTIONS[kind]} address`);
      }
    }
    return addresses;
  }

  private isExempt(hostname: string, port: number): boolean {
    return this.exempt.size > 0 && this.exempt.has(`${trimDots(hostname)}:${port}`);
  }

  private checkHostForm(hostname: string, target: string): void {
    if (isIPAddress(hostname)) {
      this.checkAddress(stripBrackets(hostname), target, `${hostname} is`);
      return;
    }
    const name = trimDots(hostname);
    if (METADATA_NAMES.has(name)) {
      throw new AddressNotAllowed(`${name} is a cloud metadata service and cannot be loaded`, target);
    }
    if (!this.allowPrivateNetworks && (LOCAL_NAMES.has(name) || LOCAL_SUFFIXES.some((suffix) => name.endsWith(suffix)))) {
      throw new AddressNotAllowed(`${name} names a local or internal host and cannot be loaded`, target);
    }
  }

  private checkAddress(address: string, target: string, subject: string): void {
    const kind = this.refusedKind(address);
    if (kind) throw new AddressNotAllowed(`${subject} ${DESCRIPTIONS[kind]} address, which cannot be loaded`, target);
  }

  /** The class of a refused address, or undefined when it may be connected to. */
  private refusedKind(address: string): Exclude<AddressClass, 'public'> | undefined {
    const kind = classifyAddress(address);
    if (kind === 'public' || (kind !== 'metadata' && this.allowPrivateNetworks)) return undefined;
    return kind;
  }

  private async lookup(hostname: string, target: string): Promise<string[]> {
    const name = trimDots(hostname);
    let addresses: string[];
    try {
      addresses = await this.resolver(name);
    } catch (error) {
      const detail = `could not be resolved (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
      throw new HostUnresolvable(name, target, detail, { cause: error });
    }
    if (addresses.length === 0) throw new HostUnresolvable(name, target, 'has no addresses');
    return addresses;
  }
}


export function effectivePort(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' || url.protocol === 'wss:' ? 443 : 80;
}

/** The hostname as the WHATWG parser writes it, so every spelling of a host compares equal. */
function canonicalHost(host: string, target: string): string {
  const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  try {
    return new URL(`http://${bracketed}/`).hostname;
  } catch {
    throw new AddressNotAllowed(`${host} is not a valid host`, target);
  }
}

function exemptionKey(entry: string): string {
  const match = HOST_PORT.exec(entry.trim());
  if (!match) throw new Error(`ALLOW_PRIVATE_HOSTS entries must be host:port, got "${entry}"`);
  return `${trimDots(canonicalHost(match[1] as string, entry))}:${Number(match[2])}`;
}

function trimDots(hostname: string): string {
  return hostname.replace(/\.+$/, '');
}
