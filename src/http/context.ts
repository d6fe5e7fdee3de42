import type { Context } from 'hono';
import type { Logger } from 'pino';
import type { Caller } from '../accounts/caller.js';
import type { Principal } from '../auth/principal.js';

/** Per-request values that ride on Hono's context. */
export interface AppEnv {
  Variables: {
    requestId: string;
    log: Logger;
    /** Set by the authentication middleware; absent for guests on public routes. */
    principal: Principal | undefined;
  };
}

/** The context of a route behind `requireAuth` (declared on the route): the principal is known. */
export interface AuthedEnv {
  Variables: AppEnv['Variables'] & { principal: Principal };
}

/** Who asks, as services take it: the authenticated principal, the request's id, log and abort signal. */
export function callerOf(c: Context<AuthedEnv>): Caller {
  return { principal: c.get('principal'), requestId: c.get('requestId'), log: c.get('log'), signal: c.req.raw.signal };
}
