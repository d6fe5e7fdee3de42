import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../http/context.js';
import { callerOf } from '../http/context.js';
import { bearerSecurity, json, jsonBody } from '../http/openapi.js';
import { validationError } from '../errors/validation-error.js';
import { batchBodySchema, crawlBodySchemas, mapBodySchema, mapLinks, splitBatchUrls, toCrawlRequest, toMapRequest, toScrapeSpec, toWebhook } from './crawl-request.js';
import { documentSchema } from './document.js';
import { firecrawlValidationHook, handleFirecrawlError } from './firecrawl-errors.js';
import { FirecrawlError, firecrawlErrors, TAG } from './firecrawl.openapi.js';
import { activeCrawls, awaitMap, errorsAnswer, firecrawlStatus, type JobPath, ownScrapingJob, STATUS_PAGE_SIZE, statusAnswer } from './job-answers.js';
import type { FirecrawlVersion } from './scrape-request.js';
import type { Platform } from '../platform.js';
import type { JobServices } from '../jobs/job-services.js';
import type { Guards } from '../http/guards.js';

const notFound = { 404: json(FirecrawlError, 'No crawl or batch of yours has this id (NOT_FOUND)') };
const jobErrors = { ...firecrawlErrors, ...notFound };

const idParam = z.object({ id: z.string().min(1).max(64).openapi({ param: { name: 'id', in: 'path' } }) });

const StartAnswer = z
  .object({
    success: z.literal(true),
    id: z.string(),
    url: z.string().openapi({ description: "The job's status URL" }),
    invalidURLs: z.array(z.string()).optional().openapi({ description: 'Batch with ignoreInvalidURLs: the URLs left out' }),
    webhook: z
      .object({ url: z.string(), events: z.array(z.string()), secret: z.string().optional() })
      .optional()
      .openapi({ description: "With a webhook: its signing secret, shown only here (Pluck's events, docs/jobs.md#webhooks)" }),
  })
  .openapi('FirecrawlJobStarted');

const StatusAnswer = z
  .object({
    success: z.literal(true),
    status: z.enum(['scraping', 'completed', 'failed', 'cancelled']),
    total: z.number().openapi({ description: 'URLs known to the job (a crawl finds more as it goes)' }),
    completed: z.number().openapi({ description: 'URLs finished, failed ones included (listed by the errors route)' }),
    creditsUsed: z.number(),
    expiresAt: z.string(),
    next: z.string().optional().openapi({ description: 'URL of the following results, present while more are already recorded' }),
    data: z.array(documentSchema),
  })
  .openapi('FirecrawlJobStatus');

const ErrorsAnswer = z
  .object({
    success: z.literal(true),
    errors: z.array(z.object({ id: z.string(), timestamp: z.string(), url: z.string(), code: z.string(), error: z.string() })),
    robotsBlocked: z.array(z.string()),
  })
  .openapi('FirecrawlJobErrors');

const CancelAnswer = z.object({ success: z.literal(true), status: z.enum(['scraping', 'completed', 'failed', 'cancelled']) });

const statusQuery = z.object({
  skip: z.coerce.number().int().min(0).max(1e12).default(0).openapi({ description: 'Results already read (from `next`)' }),
  limit: z.coerce.number().int().min(1).max(1_000_000).optional().openapi({ description: `Results at most (cut to ${STATUS_PAGE_SIZE})` }),
});

function jobRoutesOf(version: FirecrawlVersion, path: JobPath, what: string) {
  const base = `/${version}/${path}`;
  return {
    status: createRoute({
      method: 'get',
      path: `${base}/{id}`,
      tags: [TAG],
      summary: `Firecrawl's ${version} ${what} status: progress and a page of documents`,
      security: bearerSecurity,
      request: { params: idParam, query: statusQuery },
      responses: { 200: json(StatusAnswer, 'Status, counters and the documents after skip'), ...jobErrors },
    }),
    cancel: createRoute({
      method: 'delete',
      path: `${base}/{id}`,
      tags: [TAG],
      summary: `Cancel a Firecrawl ${version} ${what} (a finished one answers its status as it is)`,
      security: bearerSecurity,
      request: { params: idParam },
      responses: { 200: json(CancelAnswer, 'The status after cancelling'), ...jobErrors },
    }),
    errors: createRoute({
      method: 'get',
      path: `${base}/{id}/errors`,
      tags: [TAG],
      summary: `The failed pages of a Firecrawl ${version} ${what}`,
      security: bearerSecurity,
      request: { params: idParam },
      responses: { 200: json(ErrorsAnswer, 'Failed pages (at most 1000)'), ...jobErrors },
    }),
  };
}

/** What this module's routes use of the running service. */
type Services = Pick<Platform, 'config'> & Pick<JobServices, 'jobs'>;

/**
 * Firecrawl's crawl, batch scrape and map over Pluck's jobs (docs/firecrawl.md): the same
 * runner, page pipeline, credits, limits and egress policy as /v1/jobs, in Firecrawl's bodies,
 * answers and error shape, on /v1 (its 1.x SDK) and /v2.
 */
export function firecrawlJobRoutes(ctx: Services, { requireAuth }: Guards) {
  const router = new OpenAPIHono<AppEnv>({ defaultHook: firecrawlValidationHook });
  router.onError(handleFirecrawlError);
  const statusUrl = (version: FirecrawlVersion, path: JobPath, id: string) => `${ctx.config.publicBaseUrl}/${version}/${path}/${id}`;

  for (const version of ['v1', 'v2'] as const) {
    const crawlRoute = createRoute({
      method: 'post',
      path: `/${version}/crawl`,
      tags: [TAG],
      summary: `Firecrawl's ${version} crawl: start a crawl job`,
      description: 'Runs as POST /v1/jobs/crawl does (same scope rules, robots.txt, sitemaps, egress policy on every URL, price per page). Options this server does not honour are refused with 400 naming them.',
      security: bearerSecurity,
      request: jsonBody(crawlBodySchemas[version]),
      responses: { 200: json(StartAnswer, 'The crawl, started'), ...firecrawlErrors },
    });
    const activeRoute = createRoute({
      method: 'get',
      path: `/${version}/crawl/active`,
      tags: [TAG],
      summary: `Firecrawl's ${version} active crawls: your queued and running crawls`,
      security: bearerSecurity,
      responses: {
        200: json(
          z.object({ success: z.literal(true), crawls: z.array(z.object({ id: z.string(), teamId: z.string(), url: z.string(), options: z.unknown() })) }),
          'Your open crawls, oldest first (at most 100)',
        ),
        ...firecrawlErrors,
      },
    });
    const batchRoute = createRoute({
      method: 'post',
      path: `/${version}/batch/scrape`,
      tags: [TAG],
      summary: `Firecrawl's ${version} batch scrape: start a batch job over a list of URLs`,
      description: "Runs as POST /v1/jobs/batch does; the scrape options are Firecrawl scrape's (POST /v2/scrape).",
      security: bearerSecurity,
      request: jsonBody(batchBodySchema),
      responses: { 200: json(StartAnswer, 'The batch, started'), ...firecrawlErrors },
    });
    const mapRoute = createRoute({
      method: 'post',
      path: `/${version}/map`,
      tags: [TAG],
      summary: `Firecrawl's ${version} map: the site's URLs, answered when found`,
      description: 'Runs a map job (POST /v1/jobs/map) and waits for it, at most `timeout` ms (then 408, the job cancelled).',
      security: bearerSecurity,
      request: jsonBody(mapBodySchema),
      responses: {
        200: json(
          z.object({
            success: z.literal(true),
            links: version === 'v2' ? z.array(z.object({ url: z.string(), title: z.string().optional(), description: z.string().optional() })) : z.array(z.string()),
          }),
          version === 'v2' ? 'The URLs, each as {url}' : 'The URLs',
        ),
        ...firecrawlErrors,
      },
    });

    router.openapi({ ...crawlRoute, middleware: requireAuth }, async (c) => {
      const body = c.req.valid('json');
      const scrape = toScrapeSpec(body.scrapeOptions, version, ['scrapeOptions']);
      const job = await ctx.jobs.crawl(callerOf(c), toCrawlRequest(body), scrape, toWebhook(body.webhook));
      return c.json({ success: true as const, id: job.id, url: statusUrl(version, 'crawl', job.id), ...(job.webhook ? { webhook: job.webhook } : {}) }, 200);
    });

    router.openapi({ ...activeRoute, middleware: requireAuth }, async (c) => c.json(await activeCrawls(ctx, callerOf(c)), 200));

    router.openapi({ ...batchRoute, middleware: requireAuth }, async (c) => {
      const { urls, webhook, ignoreInvalidURLs, ...options } = c.req.valid('json');
      const { valid, invalid } = splitBatchUrls(urls);
      if (invalid.length > 0 && !ignoreInvalidURLs) {
        throw validationError(invalid.slice(0, 20).map((url) => ({ code: 'custom', path: ['urls', urls.indexOf(url)], message: `Not an http(s) URL: ${url.slice(0, 200)}` })));
      }
      if (valid.length === 0) throw validationError([{ code: 'custom', path: ['urls'], message: 'No valid URL to scrape' }]);
      const job = await ctx.jobs.batch(callerOf(c), valid, toScrapeSpec(options, version, []), toWebhook(webhook));
      return c.json(
        {
          success: true as const,
          id: job.id,
          url: statusUrl(version, 'batch/scrape', job.id),
          ...(ignoreInvalidURLs ? { invalidURLs: invalid } : {}),
          ...(job.webhook ? { webhook: job.webhook } : {}),
        },
        200,
      );
    });

    router.openapi({ ...mapRoute, middleware: requireAuth }, async (c) => {
      const body = c.req.valid('json');
      const caller = callerOf(c);
      const job = await ctx.jobs.map(caller, toMapRequest(body));
      const found = await awaitMap(ctx, caller, job.id, body.timeout);
      const links = mapLinks(found.urls, body);
      c.header('X-Credits-Cost', String(found.creditsUsed));
      return c.json({ success: true as const, links: version === 'v2' ? links.map((url) => ({ url })) : links }, 200);
    });

    for (const [path, what] of [
      ['crawl', 'crawl'],
      ['batch/scrape', 'batch scrape'],
    ] as const) {
      const routes = jobRoutesOf(version, path, what);
      router.openapi({ ...routes.status, middleware: requireAuth }, async (c) => {
        const { id } = c.req.valid('param');
        const { skip, limit } = c.req.valid('query');
        return c.json(await statusAnswer(ctx, callerOf(c), id, skip, Math.min(limit ?? STATUS_PAGE_SIZE, STATUS_PAGE_SIZE), { version, path, askedLimit: limit }), 200);
      });
      router.openapi({ ...routes.cancel, middleware: requireAuth }, async (c) => {
        const { id } = c.req.valid('param');
        const caller = callerOf(c);
        // Checked first: cancelling is for crawls and batches; a map's job is not shown here.
        await ownScrapingJob(ctx, caller, id);
        const job = await ctx.jobs.cancel(caller, id);
        return c.json({ success: true as const, status: firecrawlStatus(job.status) }, 200);
      });
      router.openapi({ ...routes.errors, middleware: requireAuth }, async (c) => c.json(await errorsAnswer(ctx, callerOf(c), c.req.valid('param').id), 200));
    }
  }
  return router;
}
