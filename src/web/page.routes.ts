import { createRoute, z } from '@hono/zod-openapi';
import { InvalidSelector } from '../extract/extract.js';
import { ok } from '../http/envelope.js';
import { authedErrors, bearerSecurity, createRouter, envelope, json, jsonBody } from '../http/openapi.js';
import type { RouteDeps } from '../http/route-deps.js';
import { collectLinks } from './links.js';
import { readPageFacts } from './page-facts.js';
import { readHtml, truncatedAnswer } from './page-html.js';
import { markdownOfPage } from './page-markdown.js';
import { pageFields, toContextOptions, warningsField, withWarnings } from './page-options.js';
import { webErrors } from './web-errors.js';
import { validationError } from '../http/validation.js';

const selectorList = z.array(z.string().min(1).max(1000)).max(50);

const ContentBody = z.object(pageFields);
const MarkdownBody = z.object({
  ...pageFields,
  onlyMainContent: z.boolean().default(true),
  includeTags: selectorList.optional(),
  excludeTags: selectorList.optional(),
});
const LinksBody = z.object(pageFields);

const PageMetadata = {
  url: z.string(),
  finalUrl: z.string(),
  statusCode: z.number(),
  timestamp: z.string(),
  title: z.string(),
  description: z.string(),
  warnings: warningsField,
};

const contentRoute = createRoute({
  method: 'post',
  path: '/v1/web/content',
  tags: ['Web'],
  summary: 'Rendered HTML of a page',
  security: bearerSecurity,
  request: jsonBody(ContentBody),
  responses: {
    200: json(envelope(z.object({ content: z.string(), metadata: z.object({ ...PageMetadata, contentType: z.string() }) })), 'HTML'),
    ...authedErrors,
    ...webErrors,
  },
});

const markdownRoute = createRoute({
  method: 'post',
  path: '/v1/web/markdown',
  tags: ['Web'],
  summary: 'Main content of a page as GitHub-flavoured markdown',
  security: bearerSecurity,
  request: jsonBody(MarkdownBody),
  responses: {
    200: json(
      envelope(z.object({ markdown: z.string(), metadata: z.object({ ...PageMetadata, wordCount: z.number(), language: z.string() }) })),
      'Markdown',
    ),
    ...authedErrors,
    ...webErrors,
  },
});

const linksRoute = createRoute({
  method: 'post',
  path: '/v1/web/links',
  tags: ['Web'],
  summary: 'Every link of a page: absolute, deduplicated',
  security: bearerSecurity,
  request: jsonBody(LinksBody),
  responses: {
    200: json(envelope(z.object({ links: z.array(z.string()), metadata: z.object({ ...PageMetadata, count: z.number() }) })), 'Links'),
    ...authedErrors,
    ...webErrors,
  },
});

export function pageRoutes({ ctx, requireAuth }: RouteDeps) {
  const router = createRouter();
  for (const path of ['/v1/web/content', '/v1/web/markdown', '/v1/web/links']) router.use(path, requireAuth);

  const common = (c: Parameters<typeof ok>[0], body: z.infer<typeof ContentBody>) => ({
    principal: c.get('principal')!,
    requestId: c.get('requestId'),
    signal: c.req.raw.signal,
    log: c.get('log'),
    page: body,
    context: toContextOptions(body),
  });

  router.openapi(contentRoute, async (c) => {
    const body = c.req.valid('json');
    const result = await ctx.web.run({
      ...common(c, body),
      operation: 'content',
      work: async ({ page, finalUrl, statusCode, contentType, warnings }) => {
        const maxChars = ctx.config.web.answerMaxChars;
        const [{ html, truncated }, facts] = await Promise.all([readHtml(page, maxChars), readPageFacts(page)]);
        const metadata = { url: body.url, finalUrl, statusCode, timestamp: new Date().toISOString(), title: facts.title, description: facts.description, contentType };
        return { content: html, metadata: withWarnings(metadata, truncated ? [...warnings, truncatedAnswer('The HTML', maxChars)] : warnings) };
      },
    });
    c.header('X-Cache', result.cache);
    return ok(c, result.value, result.creditsCost);
  });

  router.openapi(markdownRoute, async (c) => {
    const body = c.req.valid('json');
    const { onlyMainContent, includeTags, excludeTags } = body;
    const result = await ctx.web.run({
      ...common(c, body),
      operation: 'markdown',
      variant: { onlyMainContent, includeTags, excludeTags },
      work: async (loaded) => {
        const { finalUrl, statusCode } = loaded;
        const options = { url: finalUrl, onlyMainContent, includeTags, excludeTags, maxChars: ctx.config.web.answerMaxChars };
        const extracted = await markdownOfPage(loaded, options, c.get('log')).catch((error: unknown) => {
          throw error instanceof InvalidSelector ? invalidSelector(error, includeTags ?? [], excludeTags ?? []) : error;
        });
        const { markdown, title, description, language, wordCount, warnings } = extracted;
        const metadata = { url: body.url, finalUrl, statusCode, timestamp: new Date().toISOString(), title, description, language, wordCount };
        return { markdown, metadata: withWarnings(metadata, warnings) };
      },
      // Nothing to read is not charged, and not cached: the page may have content next time.
      isFree: ({ metadata }) => metadata.warnings?.some((warning) => warning.code === 'NO_CONTENT') ?? false,
    });
    c.header('X-Cache', result.cache);
    return ok(c, result.value, result.creditsCost);
  });

  router.openapi(linksRoute, async (c) => {
    const body = c.req.valid('json');
    const result = await ctx.web.run({
      ...common(c, body),
      operation: 'links',
      work: async ({ page, finalUrl, statusCode, warnings }) => {
        const maxChars = ctx.config.web.answerMaxChars;
        const [{ links, truncated }, facts] = await Promise.all([collectLinks(page, maxChars), readPageFacts(page)]);
        const metadata = { url: body.url, finalUrl, statusCode, timestamp: new Date().toISOString(), title: facts.title, description: facts.description, count: links.length };
        return { links, metadata: withWarnings(metadata, truncated ? [...warnings, truncatedAnswer('The list of links', maxChars)] : warnings) };
      },
    });
    c.header('X-Cache', result.cache);
    return ok(c, result.value, result.creditsCost);
  });

  return router;
}

/** An includeTags/excludeTags selector the browser cannot parse: a 422 naming where it is. */
function invalidSelector(error: InvalidSelector, includeTags: string[], excludeTags: string[]) {
  const inInclude = includeTags.indexOf(error.selector);
  const path = inInclude >= 0 ? ['includeTags', inInclude] : ['excludeTags', excludeTags.indexOf(error.selector)];
  return validationError([{ code: 'custom', path, message: error.message }], error);
}
