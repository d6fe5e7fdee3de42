import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from '@hono/zod-openapi';
import type { Caller } from '../accounts/caller.js';
import { aiAskFields } from '../ai/ask-schema.js';
import { AppError } from '../errors/app-error.js';
import { MAX_QUERY_LENGTH, MAX_SEARCH_LIMIT } from '../search/search.service.js';
import { pageAnswer } from '../web/page-answer.js';
import { toOutputRequest } from '../web/page-formats.js';
import { pageFields, textSelectionFields, viewportSchema } from '../web/page-options.js';
import { screenshotOptionFields } from '../web/output-options.js';
import { registerJobTools } from './mcp-job-tools.js';
import { answer } from './tool-answer.js';
import type { JobServices } from '../jobs/job-services.js';
import type { PageServices } from '../web/page-services.js';
import type { SearchService } from '../search/search.service.js';

const TEXT_FORMATS = ['markdown', 'html', 'rawHtml', 'links', 'images', 'metadata'] as const;

/** Pluck's version as an MCP server names it. */
const SERVER_INFO = { name: 'pluck', version: '1.0.0' };

const INSTRUCTIONS =
  'Pluck loads web pages in a real browser (JavaScript on) and answers their content. Use scrape for a page as markdown (or its HTML, links, images and metadata), screenshot to see a page, search to find pages, extract to pull structured JSON out of a page with a prompt or a JSON Schema, map to list the URLs of a site, and crawl (then job_status) to read many pages of a site. Every tool spends the credits of the API key it is called with.';

/** What these functions use of the running service. */
type Services = Pick<JobServices, 'jobs'> & Pick<PageServices, 'pages'> & { search: SearchService };

/**
 * The MCP tools of one caller: each one call to the same service the HTTP API uses, so it is
 * metered, cached, limited and policed exactly like the matching endpoint. Failures are tool
 * results with `isError` (the code and message the API would answer), which agents can read
 * and act on, rather than protocol errors.
 */
export function mcpServerFor(ctx: Services, caller: Caller): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS });
  const { url, waitTime, waitUntil, waitForSelector, timeout, headers, cookies, userAgent, maxAge, actions, engine, document } = pageFields;
  const page = { url, waitTime, waitUntil, waitForSelector, timeout, headers, cookies, userAgent, maxAge, actions, engine, document };

  server.registerTool(
    'scrape',
    {
      title: 'Read a web page',
      description:
        "Reads a page (or a PDF, DOCX or text file) and answers its main content as markdown (navigation, footers and banners left out), and on request its cleaned HTML, raw HTML, links, images and metadata (title, description, language, author, dates, Open Graph). One page load whatever the formats (engine auto: without the page's scripts when it shows its text without them; engine browser: always with them); costs the dearest format's credits. Set onlyMainContent false for the whole page. actions (click, write, press, scroll, wait, screenshot, scrape, executeJavascript, pdf) run on the page first, in order; what they made is answered as actions.",
      inputSchema: {
        ...page,
        ...textSelectionFields,
        formats: z.array(z.enum(TEXT_FORMATS)).min(1).max(TEXT_FORMATS.length).default(['markdown']).describe('What to answer; metadata always comes'),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (input) =>
      answer(caller, async () => {
        const { formats, onlyMainContent, includeTags = [], excludeTags = [], ...fields } = input;
        const run = await ctx.pages.page(caller, fields, toOutputRequest([...new Set(formats)], { onlyMainContent, includeTags, excludeTags }));
        const { markdown, html, rawHtml, links, images, metadata, actions: made } = await pageAnswer(run);
        const content: CallToolResult['content'] = [];
        if (markdown !== undefined) content.push({ type: 'text', text: markdown });
        content.push({ type: 'text', text: JSON.stringify({ html, rawHtml, links, images, metadata, actions: made, creditsCost: run.creditsCost }) });
        return { content };
      }),
  );

  server.registerTool(
    'screenshot',
    {
      title: 'Screenshot a web page',
      description:
        'Loads a page in a browser and answers a screenshot as an image (PNG unless type is jpeg or webp), with a link to the stored file. fullPage captures the whole scrolling page; selector captures one element.',
      inputSchema: { ...page, ...screenshotOptionFields, viewport: viewportSchema },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (input) =>
      answer(caller, async () => {
        const { viewport, fullPage, type, quality, clip, omitBackground, selector, ...fields } = input;
        if (quality !== undefined && type === 'png') throw new AppError('VALIDATION_ERROR', 'quality applies to jpeg and webp only');
        const shot = await ctx.pages.screenshot(caller, fields, viewport, { fullPage, type, quality, clip, omitBackground, selector });
        const { bytes, contentType, permanentUrl, fileId, metadata, actions: made } = shot.data;
        return {
          content: [
            { type: 'image', data: Buffer.from(bytes).toString('base64'), mimeType: contentType },
            { type: 'text', text: JSON.stringify({ fileId, permanentUrl, metadata, actions: made, creditsCost: shot.creditsCost }) },
          ],
        };
      }),
  );

  server.registerTool(
    'search',
    {
      title: 'Search the web',
      description: 'Searches the web through the search providers this Pluck is configured with; answers titles, URLs and snippets.',
      inputSchema: {
        query: z.string().trim().min(1).max(MAX_QUERY_LENGTH),
        limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).default(10),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    ({ query, limit }) =>
      answer(caller, async () => {
        const found = await ctx.search.run(caller, 'v2', { query, limit });
        const results = found.value.results.map(({ title, url: link, snippet, publishedDate }) => ({ title, url: link, snippet, publishedDate }));
        return { content: [{ type: 'text', text: JSON.stringify({ results, creditsCost: found.creditsCost }) }] };
      }),
  );

  server.registerTool(
    'extract',
    {
      title: 'Extract data from a web page',
      description:
        'Loads a page and has a language model answer a prompt about it, as JSON (shaped by a JSON Schema when given) or as text. Give at least one of prompt, instructions or schema.',
      inputSchema: { ...page, ...aiAskFields },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (input) =>
      answer(caller, async () => {
        const { prompt, instructions, schema, responseType, ...fields } = input;
        if (!prompt && !instructions && !schema) throw new AppError('VALIDATION_ERROR', 'At least one of prompt, instructions or schema is required');
        if (schema && responseType === 'text') throw new AppError('VALIDATION_ERROR', 'A schema asks for JSON: use responseType json');
        const extraction = await ctx.pages.aiExtract(caller, fields, { prompt, instructions, schema, responseType });
        const { extracted, text, metadata, actions: made } = extraction.data;
        const result = responseType === 'text' ? text : JSON.stringify(extracted);
        return {
          content: [
            { type: 'text', text: result },
            { type: 'text', text: JSON.stringify({ metadata, actions: made, creditsCost: extraction.creditsCost }) },
          ],
        };
      }),
  );

  registerJobTools(server, ctx, caller);
  return server;
}
