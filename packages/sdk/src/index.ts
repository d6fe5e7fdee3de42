/** @pluck/sdk: a typed client for the Pluck API, generated from its OpenAPI document, with a thin hand-written layer. */
export * from './pluck.js';
export { NETWORK_ERROR, PluckError } from './errors.js';
export type { RetryOptions } from './retry.js';
/** Every generated operation (call them with `{ client: pluck.client, ... }`) and type. */
export * as operations from './generated/sdk.gen.js';
export type * from './generated/types.gen.js';
