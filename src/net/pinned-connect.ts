import { isIPv6, type LookupFunction, type Socket, connect } from 'node:net';
import { stripBrackets } from './ip-address.js';

/**
 * A `lookup` for `net.connect` / `http.request` that answers with addresses checked earlier,
 * never asking DNS again: the socket can only reach what the policy saw.
 */
export function pinnedLookup(addresses: readonly string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: isIPv6(address) ? 6 : 4 }));
  return (_hostname, options, callback) => {
    const first = entries[0];
    if (!first) {
      callback(new Error('No checked address to connect to'), '', 4);
      return;
    }
    if (options.all) {
      (callback as unknown as (error: null, addresses: typeof entries) => void)(null, entries);
      return;
    }
    callback(null, first.address, first.family);
  };
}

/** Opens a TCP connection to one of the checked addresses, failing after `timeoutMs`. */
export function connectPinned(host: string, port: number, addresses: readonly string[], timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: stripBrackets(host), port, lookup: pinnedLookup(addresses) });
    const timer = setTimeout(() => socket.destroy(new Error(`Connecting to ${host}:${port} timed out`)), timeoutMs);
    const onError = (error: Error) => {
      clearTimeout(timer);
      reject(error);
    };
    socket.once('error', onError);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeListener('error', onError);
      resolve(socket);
    });
  });
}
