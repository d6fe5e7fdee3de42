import { createRoute, z } from '@hono/zod-openapi';
import { callerOf } from '../http/context.js';
import { created, ok, okJsonParts } from '../http/envelope.js';
import { authedErrors, bearerSecurity, createRouter, envelope, errorResponse, json, jsonBody } from '../http/openapi.js';
import { toOutputRequest } from '../web/page-formats.js';
import { pageFormatSchema } from '../web/page-formats.openapi.js';
import { pageFields, targetUrl, textSelectionFields, viewportSchema } from '../web/page-options.js';
import { pathPatternList } from './crawl-urls.js';
import { JOB_EVENTS, type CrawlSpec, type JobEvent, type ScrapeSpec } from './job-options.js';
import type { CrawlRequest } from './job.service.js';
import type { Platform } from '../platform.js';
import type { JobServices } from './job-services.js';
import type { Guards } from '../http/guards.js';

/** URLs in one batch request, whatever the plan (the request body is bounded by MAX_BODY_BYTES too). */
const MAX_BATCH_URLS = 10_000;
const MAX_MAP_LIMIT = 50_000;

const JobSchema = z
  .object({
    id: z.string(),
    kind: z.enum(['batch', 'crawl', 'map']),
    status: z.enum(['queued', 'active', 'completed', 'failed', 'cancelled']),
    progress: z.object({ total: z.number(), completed: z.number(), failed: z.number() }),
    creditsUsed: z.number(),
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    expiresAt: z.string().nullable().openapi({ description: 'When a finished job and its results are removed' }),
    error: z.object({ code: z.string(), message: z.string() }).optional().openapi({ description: 'Why a failed job failed' }),
    webhook: z.object({ url: z.string(), events: z.array(z.string()), secret: z.string().optional().openapi({ description: 'Only in the answer that created the job' }) }).optional(),
  })
  .openapi('Job');

const ResultSchema = z.object({
  url: z.string(),
  status: z.enum(['completed', 'failed']),
  data: z.record(z.string(), z.unknown()).optional().openapi({ description: "The page's outputs, as POST /v1/web/page answers them (absent for map)" }),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  creditsCost: z.number(),
});

const webhookSchema = z
  .strictObject({
    url: targetUrl,
    secret: z.string().min(16).max(256).optional().openapi({ description: 'HMAC-SHA256 key of the signatures; one is made (and answered once) when absent' }),
    events: z.array(z.enum(JOB_EVENTS as [JobEvent, ...JobEvent[]])).min(1).max(4).default([...JOB_EVENTS]),
  })
  .optional()
  .openapi({ description: 'Signed events (started, page, completed, failed) POSTed to url; see docs/jobs.md' });

const idParam = z.object({ id: z.string().min(1).max(64).openapi({ param: { name: 'id', in: 'path' } }) });

/** What this module's routes use of the running service. */
type Services = Pick<Platform, 'config'> & Pick<JobServices, 'jobs'>;

/** Pluck's own job routes under /v1/jobs (docs/jobs.md). */
export function jobRoutes(ctx: Services, { requireAuth }: Guards) {
  const { jobs } = ctx;
  const { url: _url, ...pageOptionFields } = pageFields;
  const formats = z.array(pageFormatSchema(ctx.config)).min(1).max(12).default(['markdown']);
  /** How each page is loaded and read: POST /v1/web/page's fields, less url and base64. */
  const scrapeFields = { ...pageOptionFields, ...textSelectionFields, viewport: viewportSchema, formats };
  const crawlFields = {
    url: targetUrl,
    limit: z.number().int().min(1).max(1_000_000).optional().openapi({ description: "Pages at most, the start page included: at most the plan's pages per job, which is also the default" }),
    maxDepth: z.number().int().min(0).max(100).default(10).openapi({ description: 'Link hops from the start URL' }),
    includePaths: pathPatternList.default([]).openapi({ description: 'Regular expressions: only paths (with query) matching one are followed' }),
    excludePaths: pathPatternList.default([]).openapi({ description: 'Regular expressions: paths matching one are not followed' }),
    allowSubdomains: z.boolean().default(false),
    allowExternalLinks: z.boolean().default(false).openapi({ description: 'Follow links off the start URL\'s site' }),
    ignoreRobotsTxt: z.boolean().default(false),
    sitemap: z.enum(['include', 'skip', 'only']).default('include'),
    delayMs: z.number().int().min(0).max(60_000).default(0).openapi({ description: 'Politeness, ms: pages of one host load one at a time, each this long after the previous one finished' }),
    webhook: webhookSchema,
  };

  const toScrape = (body: { formats: Parameters<typeof toOutputRequest>[0]; onlyMainContent: boolean; includeTags?: string[]; excludeTags?: string[]; viewport?: ScrapeSpec['viewport'] } & Record<string, unknown>): ScrapeSpec => {
    const { formats: asked, onlyMainContent, includeTags = [], excludeTags = [], viewport, ...rest } = body;
    const page = Object.fromEntries(Object.entries(rest).filter(([name]) => name in pageOptionFields)) as ScrapeSpec['page'];
    return { page, outputs: toOutputRequest(asked, { onlyMainContent, includeTags, excludeTags }), viewport };
  };
  const toCrawl = (body: Omit<CrawlSpec, 'limit'> & { limit?: number }): CrawlRequest => ({
    url: body.url,
    limit: body.limit,
    maxDepth: body.maxDepth,
    includePaths: body.includePaths,
    excludePaths: body.excludePaths,
    allowSubdomains: body.allowSubdomains,
    allowExternalLinks: body.allowExternalLinks,
    ignoreRobotsTxt: body.ignoreRobotsTxt,
    sitemap: body.sitemap,
    delayMs: body.delayMs,
  });

  const created201 = (what: string) => ({
    201: json(envelope(JobSchema), what),
    ...authedErrors,
    400: errorResponse('URL_NOT_ALLOWED: the start URL or webhook URL is refused by the egress policy'),
    429: errorResponse('JOB_LIMIT_REACHED (jobs at once on the plan) or RATE_LIMIT_EXCEEDED'),
  });

  const batchRoute = createRoute({
    method: 'post',
    path: '/v1/jobs/batch',
    tags: ['Jobs'],
    summary: 'Start a batch job: every URL of a list through the page pipeline, with the formats of POST /v1/web/page',
    security: bearerSecurity,
    middleware: requireAuth,
    request: jsonBody(z.object({ urls: z.array(targetUrl).min(1).max(MAX_BATCH_URLS), ...scrapeFields, webhook: webhookSchema })),
    responses: created201('The job, queued'),
  });

  const crawlRoute = createRoute({
    method: 'post',
    path: '/v1/jobs/crawl',
    tags: ['Jobs'],
    summary: "Start a crawl: from a URL over its site's links and sitemaps, each page through the page pipeline",
    security: bearerSecurity,
    middleware: requireAuth,
    request: jsonBody(z.object({ ...crawlFields, ...scrapeFields })),
    responses: created201('The job, queued'),
  });

  const mapRoute = createRoute({
    method: 'post',
    path: '/v1/jobs/map',
    tags: ['Jobs'],
    summary: "Start a map: the site's URLs from its sitemaps and the start page's links, without loading each page",
    security: bearerSecurity,
    middleware: requireAuth,
    request: jsonBody(z.object({ ...crawlFields, limit: z.number().int().min(1).max(MAX_MAP_LIMIT).optional().openapi({ description: 'URLs at most (default 5000)' }) })),
    responses: created201('The job, queued'),
  });

  const StatusDataSchema = JobSchema.extend({
    results: z.array(ResultSchema),
    next: z.string().nullable().openapi({ description: 'Pass as cursor for the following results; null once the job is finished and every result was read' }),
  });

  const statusRoute = createRoute({
    method: 'get',
    path: '/v1/jobs/{id}',
    tags: ['Jobs'],
    summary: 'A job: status, progress, credits used, and a page of its results',
    security: bearerSecurity,
    middleware: requireAuth,
    request: {
      params: idParam,
      query: z.object({
        cursor: z.string().regex(/^\d{1,12}$/, 'A cursor from `next`').optional(),
        limit: z.coerce.number().int().min(1).max(100).default(20),
      }),
    },
    responses: {
      200: json(envelope(StatusDataSchema), 'The job and results after the cursor: at most `limit`, and at most JOB_ANSWER_MAX_BYTES of JSON (a bigger result is answered alone)'),
      ...authedErrors,
      404: errorResponse('No job of yours has this id'),
    },
  });

  const listRoute = createRoute({
    method: 'get',
    path: '/v1/jobs',
    tags: ['Jobs'],
    summary: 'Your jobs, newest first',
    security: bearerSecurity,
    middleware: requireAuth,
    request: { query: z.object({ cursor: z.string().max(200).optional(), limit: z.coerce.number().int().min(1).max(100).default(20) }) },
    responses: { 200: json(envelope(z.object({ jobs: z.array(JobSchema), next: z.string().nullable() })), 'A page of jobs'), ...authedErrors },
  });

  const cancelRoute = createRoute({
    method: 'delete',
    path: '/v1/jobs/{id}',
    tags: ['Jobs'],
    summary: 'Cancel a job (a finished one is answered as it is)',
    security: bearerSecurity,
    middleware: requireAuth,
    request: { params: idParam },
    responses: { 200: json(envelope(JobSchema), 'The job'), ...authedErrors, 404: errorResponse('No job of yours has this id') },
  });

  const router = createRouter();
  router.openapi(batchRoute, async (c) => {
    const { urls, webhook, ...body } = c.req.valid('json');
    return created(c, await jobs.batch(callerOf(c), urls, toScrape(body), webhook));
  });
  router.openapi(crawlRoute, async (c) => {
    const body = c.req.valid('json');
    return created(c, await jobs.crawl(callerOf(c), toCrawl(body), toScrape(body), body.webhook));
  });
  router.openapi(mapRoute, async (c) => {
    const body = c.req.valid('json');
    return created(c, await jobs.map(callerOf(c), toCrawl(body), body.webhook));
  });
  router.openapi(statusRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { cursor, limit } = c.req.valid('query');
    return okJsonParts(c, await jobs.statusJsonParts(callerOf(c), id, Number(cursor ?? 0), limit), StatusDataSchema);
  });
  router.openapi(listRoute, async (c) => {
    const { cursor, limit } = c.req.valid('query');
    return ok(c, await jobs.list(callerOf(c), limit, cursor));
  });
  router.openapi(cancelRoute, async (c) => {
    const { id } = c.req.valid('param');
    return ok(c, await jobs.cancel(callerOf(c), id));
  });
  return router;
}
