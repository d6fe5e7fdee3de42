import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from '@hono/zod-openapi';
import type { Caller } from '../accounts/caller.js';
import { pathPatternList } from '../jobs/crawl-urls.js';
import type { CrawlRequest } from '../jobs/job.service.js';
import { targetUrl } from '../web/page-options.js';
import { answer } from './tool-answer.js';
import type { JobServices } from '../jobs/job-services.js';

/** How long the map tool waits for its job before answering the job id instead of the URLs. */
const MAP_WAIT_MS = 20_000;
const MAP_POLL_MS = 250;
/** URLs a map answers inline: more than an agent's context wants; the job keeps the rest. */
const MAP_MAX_URLS = 1000;

const scopeFields = {
  url: targetUrl,
  includePaths: pathPatternList.default([]).describe('Regular expressions: only paths matching one are taken'),
  excludePaths: pathPatternList.default([]).describe('Regular expressions: paths matching one are left out'),
  allowSubdomains: z.boolean().default(false),
};

const crawlRequest = (fields: { url: string; includePaths: string[]; excludePaths: string[]; allowSubdomains: boolean }, limit: number, maxDepth: number): CrawlRequest => ({
  ...fields,
  limit,
  maxDepth,
  allowExternalLinks: false,
  ignoreRobotsTxt: false,
  sitemap: 'include',
});

/** What these functions use of the running service. */
type Services = Pick<JobServices, 'jobs'>;

/**
 * The tools over jobs (docs/jobs.md): crawl starts one and job_status follows it, as agents do
 * with long work; map is quick, so it waits for its job and answers the URLs. Each is the same
 * JobService call as /v1/jobs, so plans' job limits, credits and the egress policy apply.
 */
export function registerJobTools(server: McpServer, ctx: Services, caller: Caller): void {
  server.registerTool(
    'crawl',
    {
      title: 'Crawl a website',
      description:
        "Starts a crawl from a URL over its site's links and sitemaps (robots.txt honoured), reading each page as markdown. Answers a job id at once: call job_status with it for progress and the pages. Each page costs what scrape costs.",
      inputSchema: {
        ...scopeFields,
        limit: z.number().int().min(1).max(1000).default(20).describe('Pages at most, the start page included'),
        maxDepth: z.number().int().min(0).max(20).default(3).describe('Link hops from the start URL'),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    ({ limit, maxDepth, ...scope }) =>
      answer(caller, async () => {
        const job = await ctx.jobs.crawl(caller, crawlRequest(scope, limit, maxDepth), {
          page: { waitTime: 0 },
          outputs: { markdown: { onlyMainContent: true, includeTags: [], excludeTags: [] } },
        });
        return { content: [{ type: 'text', text: JSON.stringify({ ...job, next: 'Call job_status with this id' }) }] };
      }),
  );

  server.registerTool(
    'map',
    {
      title: "List a website's URLs",
      description: "The URLs of a site from its sitemaps and the start page's links, without reading each page; fast and cheap. Answers the URLs (or, for a slow site, a job id for job_status).",
      inputSchema: { ...scopeFields, limit: z.number().int().min(1).max(MAP_MAX_URLS).default(200).describe('URLs at most') },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    ({ limit, ...scope }) =>
      answer(caller, async () => {
        const job = await ctx.jobs.map(caller, crawlRequest(scope, limit, 1));
        const deadline = Date.now() + MAP_WAIT_MS;
        let status = await ctx.jobs.status(caller, job.id, 0, limit);
        while ((status.status === 'queued' || status.status === 'active') && Date.now() < deadline && !caller.signal?.aborted) {
          await new Promise((resolve) => setTimeout(resolve, MAP_POLL_MS));
          status = await ctx.jobs.status(caller, job.id, 0, limit);
        }
        if (status.status !== 'completed') return { content: [{ type: 'text', text: JSON.stringify({ id: job.id, status: status.status, error: status.error }) }] };
        const urls = status.results.map((result) => result.url);
        return { content: [{ type: 'text', text: JSON.stringify({ urls, creditsUsed: status.creditsUsed }) }] };
      }),
  );

  server.registerTool(
    'job_status',
    {
      title: 'Follow a crawl',
      description: "A crawl's (or map's) status, progress and credits, and a page of its results after cursor: each page's URL and markdown. Call again with the answer's next cursor for more.",
      inputSchema: {
        id: z.string().min(1).max(64),
        cursor: z.string().regex(/^\d{1,12}$/).optional().describe('The next cursor of the previous answer'),
        limit: z.number().int().min(1).max(20).default(5).describe('Results in this answer'),
      },
      annotations: { readOnlyHint: true },
    },
    ({ id, cursor, limit }) =>
      answer(caller, async () => {
        const status = await ctx.jobs.status(caller, id, Number(cursor ?? 0), limit);
        return { content: [{ type: 'text', text: JSON.stringify(status) }] };
      }),
  );
}
