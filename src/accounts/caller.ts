import type { Logger } from 'pino';
import type { Principal } from '../auth/principal.js';
import type { ReservationKeeper } from './credits.js';

/** Who asks: resolved once per request by the HTTP layer (or by a job runner) and handed to services. */
export interface Caller {
  principal: Principal;
  requestId: string;
  log: Logger;
  /** The caller's connection: when it closes, the work stops (page-slots.ts, browser-pool.ts). */
  signal?: AbortSignal;
  /**
   * Where the credits this caller reserves are held until its result is recorded: a job's runner
   * may die before then, and whoever takes the job over refunds them. Absent for a request, whose
   * reservation ends with it.
   */
  reservations?: ReservationKeeper;
}
