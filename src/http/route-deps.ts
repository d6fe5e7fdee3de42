import type { MiddlewareHandler } from 'hono';
import type { AppContext } from '../container.js';
import type { AppEnv, AuthedEnv } from './context.js';
import type { RequestCost } from './guards.js';

/** What every route module receives: the process context and the shared guards. */
export interface RouteDeps {
  ctx: AppContext;
  /** 401 without valid credentials; counts the request against the plan's rate limits. */
  requireAuth: MiddlewareHandler<AuthedEnv>;
  /** `requireAuth` for a request that counts as `cost` requests (an MCP batch of tool calls). */
  requireAuthCounting: (cost: RequestCost) => MiddlewareHandler<AuthedEnv>;
  /** Resolves the caller when credentials are sent; guests pass. */
  identify: MiddlewareHandler<AppEnv>;
}
