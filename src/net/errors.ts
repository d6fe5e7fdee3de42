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
 * A host name that does not resolve (NXDOMAIN, no addresses). Refused exactly like a name that
 * resolves to a refused address, with the same message: otherwise the answers tell a caller
 * which internal names exist.
 */
export class HostUnresolvable extends AddressNotAllowed {
  constructor(
    message: string,
    target: string,
    readonly hostname: string,
    detail?: string,
    options?: { cause?: unknown },
  ) {
    super(message, target, detail);
    this.name = 'HostUnresolvable';
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}
