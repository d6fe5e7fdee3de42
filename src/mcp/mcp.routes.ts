import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { type AuthedEnv, callerOf } from '../http/context.js';
import { authedErrors, bearerSecurity, createRouter, errorResponse } from '../http/openapi.js';
import { mcpServerFor } from './mcp-tools.js';
import type { JobServices } from '../jobs/job-services.js';
import type { PageServices } from '../web/page-services.js';
import type { SearchService } from '../search/search.service.js';
import type { Guards } from '../http/guards.js';

export const MCP_PATH = '/mcp';

/** A JSON-RPC batch runs its calls at once: bounded like any request's work. */
const MAX_BATCH_MESSAGES = 10;

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/** The POST's JSON-RPC message or batch, when it is JSON (the app's JSON middleware already read and checked it). */
async function jsonRpcBody(c: Context<AuthedEnv>): Promise<unknown> {
  return JSON_TYPE.test(c.req.header('content-type') ?? '') ? await c.req.json() : undefined;
}

const isToolCall = (message: unknown) => typeof message === 'object' && message !== null && (message as { method?: unknown }).method === 'tools/call';

/**
 * What a POST counts as against the hourly request limits: each tool call runs an operation as
 * one API request would, so a batch of N tool calls is N requests, the POST itself the first;
 * any other POST (initialize, tools/list, a lone call) is one. Counted before anything runs, so
 * a batch that would pass a limit is refused whole (429) and runs none of its calls.
 */
async function requestsOf(c: Context<AuthedEnv>): Promise<number> {
  const body = await jsonRpcBody(c);
  // An oversized batch is refused (400) without running: it counts as the one POST it is.
  if (!Array.isArray(body) || body.length > MAX_BATCH_MESSAGES) return 1;
  return Math.max(1, body.filter(isToolCall).length);
}

/** What this module's routes use of the running service. */
type Services = Pick<JobServices, 'jobs'> & Pick<PageServices, 'pages'> & { search: SearchService };

/**
 * The Model Context Protocol over Streamable HTTP at /mcp, stateless: each POST carries its own
 * JSON-RPC message and gets its JSON answer, so no session or stream outlives a request (no
 * server memory per agent, nothing for a caller to hold open) and any instance behind a load
 * balancer can answer. The API key authenticates every POST like any request, and each tool call
 * counts against the hourly limits as one request (see requestsOf).
 */
export function mcpRoutes(ctx: Services, { requireAuthCounting }: Guards) {
  const router = createRouter();
  router.all(MCP_PATH, async (c, next) => {
    // GET would open a server-to-client event stream, which a stateless server never uses.
    if (c.req.method !== 'POST') {
      return c.json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: POST JSON-RPC messages to /mcp' }, id: null }, 405, { Allow: 'POST' });
    }
    await next();
  }, requireAuthCounting(requestsOf), async (c) => {
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const server = mcpServerFor(ctx, callerOf(c));
    await server.connect(transport);
    try {
      const parsedBody = await jsonRpcBody(c);
      if (Array.isArray(parsedBody) && parsedBody.length > MAX_BATCH_MESSAGES) {
        return c.json({ jsonrpc: '2.0', error: { code: -32600, message: `At most ${MAX_BATCH_MESSAGES} messages in one POST` }, id: null }, 400);
      }
      return await transport.handleRequest(c.req.raw, parsedBody === undefined ? {} : { parsedBody });
    } finally {
      await server.close();
    }
  });
  router.openAPIRegistry.registerPath({
    method: 'post',
    path: MCP_PATH,
    tags: ['Agents'],
    summary: 'Model Context Protocol (Streamable HTTP, stateless): tools scrape, screenshot, search, extract, map, crawl and job_status',
    description:
      'JSON-RPC 2.0 messages of MCP (initialize, tools/list, tools/call...), one per POST or a batch of at most 10, answered as JSON. Authenticated with an API key in the Authorization header; each tool call is metered and limited as the matching endpoint and counts as one request against the hourly rate limits (a batch of N tool calls as N; one that would pass a limit answers 429 and runs nothing). See docs/mcp.md.',
    security: bearerSecurity,
    request: { body: { content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } } } },
    responses: {
      200: { description: 'The JSON-RPC answer', content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } } },
      202: { description: 'A notification or response was accepted' },
      406: errorResponse('The client does not accept application/json and text/event-stream (JSON-RPC error body)'),
      ...authedErrors,
    },
  });
  return router;
}
