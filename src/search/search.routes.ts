import { createRoute, z } from '@hono/zod-openapi';
import { callerOf } from '../http/context.js';
import { ok } from '../http/envelope.js';
import { authedErrors, bearerSecurity, createRouter, envelope, errorResponse, json, jsonBody } from '../http/openapi.js';
import { maxAgeField } from '../cache/max-age.js';
import { resultId } from './merge-results.js';
import { MAX_QUERY_LENGTH, MAX_SEARCH_LIMIT, type SearchOutcome } from './search.service.js';
import type { SearchService } from './search.service.js';
import type { Guards } from '../http/guards.js';

/** What is cached: the providers' answer and when it was obtained. */
type TimedOutcome = SearchOutcome & { timestamp: string };

const query = z
  .string()
  .trim()
  .min(1, 'Query must not be empty')
  .max(MAX_QUERY_LENGTH, `Query must be at most ${MAX_QUERY_LENGTH} characters`)
  .openapi({ example: 'self-hosted web scraping api' });

const limit = (fallback: number) =>
  z
    .number()
    .int()
    .min(1)
    .max(MAX_SEARCH_LIMIT)
    .default(fallback)
    .openapi({ description: `Results wanted, 1..${MAX_SEARCH_LIMIT}; fewer come back when providers have fewer` });

const failedSources = z.array(z.string()).openapi({ description: 'Providers that failed while another answered' });

const V1ResultSchema = z
  .object({ title: z.string(), url: z.string(), snippet: z.string(), source: z.string() })
  .openapi('SearchResultV1');
const V1DataSchema = z.object({
  results: z.array(V1ResultSchema),
  metadata: z.object({
    query: z.string(),
    totalResults: z.number(),
    searchTime: z.number(),
    sources: z.array(z.string()),
    failedSources,
    timestamp: z.string(),
  }),
});

const V2ResultSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    url: z.string(),
    snippet: z.string(),
    favicon: z.string(),
    publishedDate: z.string(),
  })
  .openapi('SearchResultV2');
const V2DataSchema = z.object({
  results: z.array(V2ResultSchema),
  metadata: z.object({
    query: z.string(),
    totalResults: z.number(),
    searchTime: z.number(),
    timestamp: z.string(),
    requestId: z.string(),
    failedSources,
  }),
});

const searchErrors = {
  402: errorResponse('Not enough credits'),
  502: errorResponse('PROVIDER_ERROR: every configured provider failed'),
  503: errorResponse('PROVIDER_NOT_CONFIGURED: neither SEARXNG_URL nor BRAVE_API_KEY is set; PROVIDER_RATE_LIMITED (with Retry-After): a provider rationed us'),
  ...authedErrors,
};

const v1Route = createRoute({
  method: 'post',
  path: '/v1/web/search',
  tags: ['Search'],
  summary: 'Web search through SearXNG and/or Brave, merged and deduplicated',
  security: bearerSecurity,
  request: jsonBody(z.object({ query, limit: limit(5), maxAge: maxAgeField })),
  responses: { 200: json(envelope(V1DataSchema), 'Search results'), ...searchErrors },
});

const v2Route = createRoute({
  method: 'post',
  path: '/v2/web/search',
  tags: ['Search'],
  summary: 'Web search (v2 shape: stable ids, favicons, publication dates)',
  security: bearerSecurity,
  request: jsonBody(z.object({ query, limit: limit(10), maxAge: maxAgeField })),
  responses: { 200: json(envelope(V2DataSchema), 'Search results'), ...searchErrors },
});

function v1Data(query: string, outcome: TimedOutcome) {
  return {
    results: outcome.results.map(({ title, url, snippet, source }) => ({ title, url, snippet, source })),
    metadata: {
      query,
      totalResults: outcome.results.length,
      searchTime: outcome.searchTime,
      sources: outcome.sources,
      failedSources: outcome.failedSources,
      timestamp: outcome.timestamp,
    },
  };
}

function v2Data(query: string, outcome: TimedOutcome, requestId: string) {
  return {
    results: outcome.results.map(({ title, url, snippet, favicon, publishedDate }) => ({
      id: resultId(url),
      title,
      url,
      snippet,
      favicon,
      publishedDate,
    })),
    metadata: {
      query,
      totalResults: outcome.results.length,
      searchTime: outcome.searchTime,
      timestamp: outcome.timestamp,
      requestId,
      failedSources: outcome.failedSources,
    },
  };
}

/** What this module's routes use of the running service. */
type Services = { search: SearchService };

export function searchRoutes(ctx: Services, { requireAuth }: Guards) {
  const router = createRouter();

  router.openapi({ ...v1Route, middleware: requireAuth }, async (c) => {
    const input = c.req.valid('json');
    const result = await ctx.search.run(callerOf(c), 'v1', input);
    c.header('X-Cache', result.cache);
    return ok(c, v1Data(input.query, result.value), result.creditsCost);
  });

  router.openapi({ ...v2Route, middleware: requireAuth }, async (c) => {
    const input = c.req.valid('json');
    const result = await ctx.search.run(callerOf(c), 'v2', input);
    c.header('X-Cache', result.cache);
    return ok(c, v2Data(input.query, result.value, c.get('requestId')), result.creditsCost);
  });

  return router;
}
