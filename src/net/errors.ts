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
