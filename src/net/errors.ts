/** A target refused by the address policy (scheme, host spelling, or resolved address). */
export class AddressNotAllowed extends Error {
  constructor(
    message: string,
    readonly target: string,
  ) {
    super(message);
    this.name = 'AddressNotAllowed';
  }
}

/** A host name that does not resolve (NXDOMAIN, no addresses): the target cannot be reached. */
export class HostUnresolvable extends Error {
  constructor(
    message: string,
    readonly hostname: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'HostUnresolvable';
  }
}
