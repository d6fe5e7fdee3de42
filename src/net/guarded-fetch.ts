import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import type { AddressPolicy } from './address-policy.js';
import { AddressNotAllowed, HostUnresolvable } from './errors.js';
import { stripBrackets } from './ip-address.js';

export type GuardedFetch = typeof undiciFetch;

export interface GuardedFetcher {
  /** `fetch` whose every connection (redirect hops included) passes the address policy. */
  fetch: GuardedFetch;
  close(): Promise<void>;
}

export interface GuardedFetchOptions {
  connectTimeoutMs?: number;
}

/**
 * A fetch for server-side calls to URLs that strangers influence (captions, AI providers fed
 * page URLs...). The undici Agent's connector resolves each host once, checks every address,
 * and dials the checked address itself; TLS still verifies the certificate for the host name.
 * Refusals surface as AddressNotAllowed, unknown hosts as HostUnresolvable.
 */
export function createGuardedFetch(policy: AddressPolicy, options: GuardedFetchOptions = {}): GuardedFetcher {
  const direct = buildConnector({ timeout: options.connectTimeoutMs ?? 10_000 });
  const connect: buildConnector.connector = (target, callback) => {
    const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
    policy.resolveAllowed(target.hostname, port).then(
      (addresses) => dialFirst(direct, target, addresses, callback),
      (error: Error) => callback(error, null),
    );
  };
  const agent = new Agent({ connect });
  const guardedFetch = (async (input, init) => {
    const url = typeof input === 'string' ? input : 'href' in input ? input.href : input.url;
    policy.parse(url);
    try {
      return await undiciFetch(input, { ...init, dispatcher: agent });
    } catch (error) {
      throw policyErrorIn(error) ?? error;
    }
  }) as GuardedFetch;
  return { fetch: guardedFetch, close: () => agent.close() };
}

function dialFirst(
  direct: buildConnector.connector,
  target: buildConnector.Options,
  addresses: string[],
  callback: buildConnector.Callback,
): void {
  const [address, ...rest] = addresses;
  if (address === undefined) {
    callback(new HostUnresolvable(target.hostname, target.hostname, 'has no addresses'), null);
    return;
  }
  // `host` keeps the name, so undici still uses it for SNI and certificate checks.
  direct({ ...target, hostname: stripBrackets(address), host: target.host ?? target.hostname }, (error, socket) => {
    if (error && rest.length > 0) dialFirst(direct, target, rest, callback);
    else if (error) callback(error, null);
    else callback(null, socket as NonNullable<typeof socket>);
  });
}

/** undici wraps connector errors in `TypeError: fetch failed`; the policy's own error is more useful. */
function policyErrorIn(error: unknown): Error | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (current instanceof AddressNotAllowed) return current; // HostUnresolvable included
    current = current.cause;
  }
  return undefined;
}
