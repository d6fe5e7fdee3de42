import type { Logger } from 'pino';
import type { Principal } from '../auth/principal.js';

/** Who asks: resolved once per request by the HTTP layer (or by a job runner) and handed to services. */
export interface Caller {
  principal: Principal;
  requestId: string;
  log: Logger;
  /** The caller's connection: when it closes, the work stops (page-slots.ts, browser-pool.ts). */
  signal?: AbortSignal;
}
