import { z } from '@hono/zod-openapi';
import { pathPatternList } from '../jobs/crawl-urls.js';
import type { ScrapeSpec } from '../jobs/job-options.js';
import { JOB_EVENTS, type JobEvent } from '../jobs/job-options.js';
import type { CrawlRequest, WebhookRequest } from '../jobs/job.service.js';
import { withoutTrailingSlashes } from '../net/url-text.js';
import { targetUrl } from '../web/page-options.js';
import { type FirecrawlVersion, type ScrapeOptionsBody, scrapeOptionFields, toPluckScrape } from './scrape-request.js';

/** URLs in one batch request, whatever the plan (the plan's pages per job bounds it further). */
export const MAX_BATCH_URLS = 10_000;
/** URLs a map answers at most: the answer is one JSON body. */
export const MAX_MAP_LIMIT = 50_000;
const DEFAULT_MAP_LIMIT = 5000;
/** How long POST /map waits for its job, ms (Firecrawl's `timeout`). */
export const DEFAULT_MAP_TIMEOUT_MS = 60_000;
const MAX_MAP_TIMEOUT_MS = 300_000;

/** A Firecrawl option this server does not honour: absent, or its neutral value, is fine; anything else is a 400 naming it. */
const refusedUnless = <T>(neutral: (value: unknown) => boolean, message: string) =>
  z
    .unknown()
    .refine((value) => value === undefined || value === null || neutral(value), message)
    .optional()
    .openapi({ description: `Not supported: ${message}` }) as unknown as z.ZodOptional<z.ZodType<T>>;
const notTrue = (name: string, why: string) => refusedUnless<boolean>((value) => value === false, `${name} is not supported by this server (${why})`);
const ignored = z.unknown().optional().openapi({ description: 'Accepted and ignored' });

// Patterns run against every URL a crawl finds: those that may backtrack for long are refused, as on /v1/jobs/crawl.
const patterns = pathPatternList.optional();

const webhookSchema = z
  .union([
    targetUrl,
    z.object({
      url: targetUrl,
      headers: refusedUnless((value) => typeof value === 'object' && Object.keys(value as object).length === 0, 'webhook headers are not supported by this server; events are signed instead (docs/jobs.md#webhooks)'),
      metadata: refusedUnless((value) => typeof value === 'object' && Object.keys(value as object).length === 0, 'webhook metadata is not supported by this server'),
      events: z.array(z.enum(JOB_EVENTS as [JobEvent, ...JobEvent[]])).min(1).max(4).optional(),
      secret: z
        .string()
        .min(16)
        .max(256)
        .optional()
        .openapi({ description: "Pluck's addition: the HMAC key of the events' signatures; without it one is made and shown once, in the start answer's webhook.secret" }),
    }),
  ])
  .optional()
  .openapi({ description: "A URL, or {url, events?, secret?}: the job's events in Pluck's signed form (docs/jobs.md#webhooks), not Firecrawl's" });

const scrapeOptionsSchema = z.object(scrapeOptionFields(['markdown'])).prefault({});

/** Fields of a crawl on both versions. */
const commonCrawlFields = {
  url: targetUrl,
  limit: z.number().int().min(1).max(1_000_000).optional().openapi({ description: "Pages at most, the start page included (default and bound: the plan's pages per job)" }),
  includePaths: patterns.openapi({ description: 'Regular expressions on the path (with query): only matching paths are followed' }),
  excludePaths: patterns.openapi({ description: 'Regular expressions on the path (with query): matching paths are not followed' }),
  allowExternalLinks: z.boolean().default(false),
  allowSubdomains: z.boolean().default(false),
  ignoreRobotsTxt: z.boolean().default(false),
  scrapeOptions: scrapeOptionsSchema,
  webhook: webhookSchema,
  ignoreQueryParameters: notTrue('ignoreQueryParameters', 'each query string is a page of its own; its parameters are sorted'),
  regexOnFullURL: notTrue('regexOnFullURL', 'includePaths and excludePaths match the path and query'),
  delay: z.number().min(0).max(60).optional().openapi({ description: 'Politeness, seconds: pages of one host load one at a time, each this long after the previous one finished' }),
  zeroDataRetention: notTrue('zeroDataRetention', 'results are kept until the job expires'),
  deduplicateSimilarURLs: ignored,
  maxConcurrency: ignored,
  integration: ignored,
  origin: ignored,
};

export const crawlBodySchemas = {
  v2: z
    .object({
      ...commonCrawlFields,
      maxDiscoveryDepth: z.number().int().min(0).max(100).optional().openapi({ description: 'Link hops from the start URL (default 10)' }),
      sitemap: z.enum(['include', 'skip', 'only']).default('include'),
      crawlEntireDomain: z.boolean().default(false).openapi({ description: "false: only paths under the start URL's path are followed" }),
      prompt: refusedUnless<string>(() => false, 'prompt (crawl options from a sentence) is not supported by this server'),
      robotsUserAgent: refusedUnless<string>(() => false, 'robotsUserAgent is not supported by this server (robots.txt is read for pluck, else *)'),
    })
    .openapi('FirecrawlCrawlRequest'),
  v1: z
    .object({
      ...commonCrawlFields,
      maxDepth: z.number().int().min(0).max(100).optional().openapi({ description: "Path segments below the start URL's path at most" }),
      maxDiscoveryDepth: z.number().int().min(0).max(100).optional().openapi({ description: 'Link hops from the start URL (default 10)' }),
      ignoreSitemap: z.boolean().default(false),
      allowBackwardLinks: z.boolean().default(false).openapi({ description: "false: only paths under the start URL's path are followed" }),
    })
    .openapi('FirecrawlV1CrawlRequest'),
};

type CrawlBody = z.infer<(typeof crawlBodySchemas)['v2']> | z.infer<(typeof crawlBodySchemas)['v1']>;

export const batchBodySchema = z
  .object({
    urls: z.array(z.string().max(8192)).min(1).max(MAX_BATCH_URLS),
    ...scrapeOptionFields(['markdown']),
    webhook: webhookSchema,
    ignoreInvalidURLs: z.boolean().default(false).openapi({ description: 'true: URLs that are not http(s) are left out and listed in invalidURLs; false: they refuse the request' }),
    appendToId: refusedUnless<string>(() => false, 'appendToId is not supported by this server; start another batch'),
    zeroDataRetention: notTrue('zeroDataRetention', 'results are kept until the job expires'),
    maxConcurrency: ignored,
    integration: ignored,
    origin: ignored,
  })
  .openapi('FirecrawlBatchScrapeRequest');

export const mapBodySchema = z
  .object({
    url: targetUrl,
    search: z.string().trim().min(1).max(500).optional().openapi({ description: 'Only URLs containing this text (case-insensitive)' }),
    limit: z.number().int().min(1).max(MAX_MAP_LIMIT).default(DEFAULT_MAP_LIMIT),
    includeSubdomains: z.boolean().default(false),
    ignoreQueryParameters: z.boolean().default(false).openapi({ description: 'true: URLs without their query string, each once' }),
    sitemap: z.enum(['include', 'skip', 'only']).optional().openapi({ description: 'v2' }),
    ignoreSitemap: z.boolean().optional().openapi({ description: 'v1: sitemap skip' }),
    sitemapOnly: z.boolean().optional().openapi({ description: 'v1: sitemap only' }),
    timeout: z.number().int().min(1000).max(MAX_MAP_TIMEOUT_MS).default(DEFAULT_MAP_TIMEOUT_MS).openapi({ description: 'How long to wait for the map, ms' }),
    location: ignored,
    integration: ignored,
    origin: ignored,
  })
  .openapi('FirecrawlMapRequest');

export type MapBody = z.infer<typeof mapBodySchema>;

/** Firecrawl scrape options as a job's ScrapeSpec (every page of the job is loaded so). */
export function toScrapeSpec(options: ScrapeOptionsBody, version: FirecrawlVersion, at: string[]): ScrapeSpec {
  const { page, outputs, viewport } = toPluckScrape('', options, version, at);
  const { url: _url, ...rest } = page;
  return { page: rest, outputs, viewport };
}

export function toWebhook(webhook: z.infer<typeof webhookSchema>): WebhookRequest | undefined {
  if (webhook === undefined) return undefined;
  if (typeof webhook === 'string') return { url: webhook, events: [...JOB_EVENTS] };
  return { url: webhook.url, secret: webhook.secret, events: webhook.events ?? [...JOB_EVENTS] };
}

/**
 * A Firecrawl crawl as Pluck's crawl. Firecrawl follows only paths under the start URL's path
 * unless crawlEntireDomain (v1: allowBackwardLinks), and v1's maxDepth counts path segments:
 * both become exclusion patterns, which Pluck's scope rules apply to every discovered URL.
 */
export function toCrawlRequest(body: CrawlBody): CrawlRequest {
  const start = new URL(body.url);
  const excludePaths = [...(body.excludePaths ?? [])];
  const entireDomain = 'crawlEntireDomain' in body ? body.crawlEntireDomain : 'allowBackwardLinks' in body ? body.allowBackwardLinks : false;
  const basePath = withoutTrailingSlashes(start.pathname);
  if (!entireDomain && basePath !== '') excludePaths.push(`^(?!${escapeRegExp(basePath)}(?:/|\\?|$))`);
  if ('maxDepth' in body && body.maxDepth !== undefined) {
    const startSegments = basePath.split('/').filter(Boolean).length;
    excludePaths.push(`^(?:/[^/?]+){${startSegments + body.maxDepth + 1}}`);
  }
  let sitemap: CrawlRequest['sitemap'] = 'include';
  if ('sitemap' in body) sitemap = body.sitemap;
  else if ('ignoreSitemap' in body && body.ignoreSitemap) sitemap = 'skip';
  return {
    url: body.url,
    limit: body.limit,
    maxDepth: body.maxDiscoveryDepth ?? 10,
    includePaths: body.includePaths ?? [],
    excludePaths,
    allowSubdomains: body.allowSubdomains,
    allowExternalLinks: body.allowExternalLinks,
    ignoreRobotsTxt: body.ignoreRobotsTxt,
    sitemap,
    delayMs: Math.round((body.delay ?? 0) * 1000),
  };
}

/** A Firecrawl map as Pluck's map: the job is asked for every URL when `search` filters them afterwards. */
export function toMapRequest(body: MapBody): CrawlRequest {
  const sitemap = body.sitemap ?? (body.sitemapOnly ? 'only' : body.ignoreSitemap ? 'skip' : 'include');
  return {
    url: body.url,
    limit: body.search || body.ignoreQueryParameters ? MAX_MAP_LIMIT : body.limit,
    maxDepth: 1,
    includePaths: [],
    excludePaths: [],
    allowSubdomains: body.includeSubdomains,
    allowExternalLinks: false,
    ignoreRobotsTxt: false,
    sitemap,
  };
}

/** The map's URLs as Firecrawl answers them: filtered by `search`, without queries if asked, at most `limit`. */
export function mapLinks(urls: string[], body: MapBody): string[] {
  const needle = body.search?.toLowerCase();
  const seen = new Set<string>();
  const links: string[] = [];
  for (const found of urls) {
    let url = found;
    if (body.ignoreQueryParameters) {
      const parsed = new URL(found);
      parsed.search = '';
      url = parsed.href;
    }
    if (seen.has(url) || (needle && !url.toLowerCase().includes(needle))) continue;
    seen.add(url);
    links.push(url);
    if (links.length >= body.limit) break;
  }
  return links;
}

/** Batch URLs split into what can be loaded and what cannot (not http(s)): Firecrawl's invalidURLs. */
export function splitBatchUrls(urls: string[]): { valid: string[]; invalid: string[] } {
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const url of urls) {
    const parsed = URL.canParse(url) ? new URL(url) : undefined;
    if (parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:')) valid.push(url);
    else invalid.push(url);
  }
  return { valid, invalid };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
