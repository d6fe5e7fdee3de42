import type { Logger } from 'pino';
import type { Principal } from '../auth/principal.js';

/** Per-request values that ride on Hono's context. */
export interface AppEnv {
  Variables: {
    requestId: string;
    log: Logger;
    /** Set by the authentication middleware; absent for guests on public routes. */
    principal: Principal | undefined;
    /** Set once requireAuth has authenticated and counted the request. */
    authChecked: boolean;
  };
}
