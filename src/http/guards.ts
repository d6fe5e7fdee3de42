import type { Context, MiddlewareHandler } from 'hono';
import type { Authenticator } from '../auth/authenticator.js';
import type { Config } from '../config.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import { countRequests } from '../limits/request-limits.js';
import type { AppEnv, AuthedEnv } from './context.js';
import { unauthorized } from '../errors/app-error.js';

/** How many requests one HTTP request counts as against the hourly limits: 1, except an MCP batch (its tool calls). */
export type RequestCost = (c: Context<AuthedEnv>) => number | Promise<number>;

const ONE_REQUEST: RequestCost = () => 1;

/** Resolves the caller if credentials are present; never refuses. For routes open to guests. */
export function identify(authenticator: Authenticator): MiddlewareHandler<AppEnv> {
  return async function identifyMiddleware(c, next) {
    c.set('principal', await authenticator.resolve(c.req.header('authorization')));
    await next();
  };
}

/**
 * Refuses callers without valid credentials (401), then counts the request against the hourly
 * limits (the API key's, or the account's sessions', and the account's ceiling; see
 * countRequests), setting the caller's X-RateLimit-* headers on every answer.
 */
export function requireAuth(
  authenticator: Authenticator,
  limiter: RateLimiter,
  config: Config,
  cost: RequestCost = ONE_REQUEST,
): MiddlewareHandler<AuthedEnv> {
  return async function requireAuthMiddleware(c, next) {
    const principal = await authenticator.resolve(c.req.header('authorization'));
    if (!principal) throw unauthorized();
    c.set('principal', principal);
    const { headers, refusal } = await countRequests(limiter, config.plans, principal, await cost(c));
    // Set before the route runs so that an error answer (this refusal included) carries them too.
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
    if (refusal) throw refusal;
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  };
}

/** The guards every route module may put in front of its routes. */
export interface Guards {
  /** 401 without valid credentials; counts the request against the plan's rate limits. */
  requireAuth: MiddlewareHandler<AuthedEnv>;
  /** `requireAuth` for a request that counts as `cost` requests (an MCP batch of tool calls). */
  requireAuthCounting: (cost: RequestCost) => MiddlewareHandler<AuthedEnv>;
  /** Resolves the caller when credentials are sent; guests pass. */
  identify: MiddlewareHandler<AppEnv>;
}
