/** A target refused by the address policy (scheme, host spelling, or resolved address). */
export class AddressNotAllowed extends Error {
  constructor(
    message: string,
    readonly target: string,
    /** Why, for the operator's log only: may name what a host resolves to, which callers must not learn. */
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'AddressNotAllowed';
  }
}

/**
 * A host name that does not resolve to an address that may be loaded: it resolves to refused
 * addresses, or to none. Both are answered alike, in message and in behaviour, wherever they
 * happen: otherwise the answers tell a caller which internal names exist.
 */
export class NameNotLoadable extends AddressNotAllowed {
  constructor(
    readonly hostname: string,
    target: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${hostname} does not resolve to an address that may be loaded`, target, detail);
    this.name = 'NameNotLoadable';
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/** The names that do not resolve at all (NXDOMAIN, no addresses): everyday dead hosts, worth no warning in the log. */
export class HostUnresolvable extends NameNotLoadable {
  constructor(hostname: string, target: string, detail: string, options?: { cause?: unknown }) {
    super(hostname, target, detail, options);
    this.name = 'HostUnresolvable';
  }
}
