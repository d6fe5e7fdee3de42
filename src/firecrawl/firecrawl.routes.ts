import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../http/context.js';
import { callerOf } from '../http/context.js';
import { bearerSecurity, json, jsonBody } from '../http/openapi.js';
import { documentSchema, scrapeDocument } from './document.js';
import { firecrawlErrors, TAG } from './firecrawl.openapi.js';
import { firecrawlValidationHook, handleFirecrawlError } from './firecrawl-errors.js';
import { firecrawlSearch, searchBodySchema } from './firecrawl-search.js';
import { type FirecrawlVersion, scrapeBodySchema, toPluckScrape } from './scrape-request.js';
import type { PageServices } from '../web/page-services.js';
import type { SearchService } from '../search/search.service.js';
import type { Guards } from '../http/guards.js';

const ScrapeAnswer = z.object({ success: z.literal(true), data: documentSchema }).openapi('FirecrawlScrapeResponse');

const WebResult = z
  .object({ url: z.string(), title: z.string(), description: z.string(), position: z.number() })
  .extend(documentSchema.partial().shape)
  .openapi('FirecrawlSearchResult');

const scrapeRoute = (version: FirecrawlVersion) =>
  createRoute({
    method: 'post',
    path: `/${version}/scrape`,
    tags: [TAG],
    summary: `Firecrawl's ${version} scrape: one page in the formats asked for`,
    description:
      'The body and answer of Firecrawl\'s scrape, for its SDKs and integrations (docs/firecrawl.md). Served by the page pipeline of POST /v1/web/page: one page load, priced and cached as it is; a screenshot is a stored file, answered as its URL. actions run as on Pluck\'s own routes (docs/firecrawl.md); the summary, changeTracking and branding formats are refused with 400.',
    security: bearerSecurity,
    request: jsonBody(scrapeBodySchema),
    responses: { 200: json(ScrapeAnswer, 'The page in each format asked for, and its metadata'), ...firecrawlErrors },
  });

const searchRoute = (version: FirecrawlVersion) =>
  createRoute({
    method: 'post',
    path: `/${version}/search`,
    tags: [TAG],
    summary: `Firecrawl's ${version} search: web results, each scraped if asked`,
    description: `Pluck's web search (priced and cached as POST /${version}/web/search); with scrapeOptions.formats, each result is scraped as by /${version}/scrape and priced as such.`,
    security: bearerSecurity,
    request: jsonBody(searchBodySchema),
    responses: {
      200: json(
        z.object({
          success: z.literal(true),
          data: version === 'v2' ? z.object({ web: z.array(WebResult) }) : z.array(WebResult),
          creditsUsed: z.number(),
        }),
        version === 'v2' ? 'Results under data.web' : 'Results as data',
      ),
      ...firecrawlErrors,
    },
  });

/** What this module's routes use of the running service. */
type Services = Pick<PageServices, 'pages'> & { search: SearchService };

/**
 * Firecrawl's API over Pluck's own operations, so Firecrawl's SDKs and the tools built on them
 * work against a self-hosted Pluck with `apiUrl`: the same API keys, credits, cache and limits
 * as the native routes. Errors answer in Firecrawl's shape here only. Crawl, map and batch
 * scrape (jobs) are in firecrawl-jobs.routes.ts.
 */
export function firecrawlRoutes(ctx: Services, { requireAuth }: Guards) {
  const router = new OpenAPIHono<AppEnv>({ defaultHook: firecrawlValidationHook });
  router.onError(handleFirecrawlError);

  for (const version of ['v1', 'v2'] as const) {
    router.openapi({ ...scrapeRoute(version), middleware: requireAuth }, async (c) => {
      const { url, ...options } = c.req.valid('json');
      const scrape = toPluckScrape(url, options, version);
      const run = await ctx.pages.page(callerOf(c), scrape.page, scrape.outputs, scrape.viewport);
      c.header('X-Cache', run.cache);
      c.header('X-Credits-Cost', String(run.creditsCost));
      return c.json({ success: true as const, data: await scrapeDocument(run, scrape, c.get('requestId')) }, 200);
    });

    router.openapi({ ...searchRoute(version), middleware: requireAuth }, async (c) => {
      const found = await firecrawlSearch(ctx, callerOf(c), c.req.valid('json'), version);
      c.header('X-Cache', found.cache);
      c.header('X-Credits-Cost', String(found.creditsCost));
      const data = version === 'v2' ? { web: found.results } : found.results;
      return c.json({ success: true as const, data, creditsUsed: found.creditsCost }, 200);
    });
  }
  return router;
}
