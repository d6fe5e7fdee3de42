import { createRoute, z } from '@hono/zod-openapi';
import { callerOf } from '../http/context.js';
import { ok } from '../http/envelope.js';
import { authedErrors, bearerSecurity, createRouter, envelope, json, jsonBody } from '../http/openapi.js';
import { pageFields, pageMetadataFields, textSelectionFields } from './page-options.js';
import { webErrors } from './web-errors.openapi.js';
import { actionResultsField } from './actions/action-results.openapi.js';
import type { PageServices } from './page-services.js';
import type { Guards } from '../http/guards.js';

const ContentBody = z.object(pageFields);
const MarkdownBody = z.object({ ...pageFields, ...textSelectionFields });
const LinksBody = z.object(pageFields);

/** What this module's routes use of the running service. */
type Services = Pick<PageServices, 'pages'>;

export function pageRoutes(ctx: Services, { requireAuth }: Guards) {
  const router = createRouter();

  const contentRoute = createRoute({
    method: 'post',
    path: '/v1/web/content',
    tags: ['Web'],
    summary: 'Rendered HTML of a page',
    security: bearerSecurity,
    middleware: requireAuth,
    request: jsonBody(ContentBody),
    responses: {
      200: json(envelope(z.object({ content: z.string(), metadata: z.object(pageMetadataFields), actions: actionResultsField })), 'HTML'),
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
    middleware: requireAuth,
    request: jsonBody(MarkdownBody),
    responses: {
      200: json(envelope(z.object({ markdown: z.string(), metadata: z.object({ ...pageMetadataFields, wordCount: z.number() }), actions: actionResultsField })), 'Markdown'),
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
    middleware: requireAuth,
    request: jsonBody(LinksBody),
    responses: {
      200: json(envelope(z.object({ links: z.array(z.string()), metadata: z.object({ ...pageMetadataFields, count: z.number() }), actions: actionResultsField })), 'Links'),
      ...authedErrors,
      ...webErrors,
    },
  });

  router.openapi(contentRoute, async (c) => {
    const answer = await ctx.pages.content(callerOf(c), c.req.valid('json'));
    c.header('X-Cache', answer.cache);
    return ok(c, answer.data, answer.creditsCost);
  });

  router.openapi(markdownRoute, async (c) => {
    const { onlyMainContent, includeTags = [], excludeTags = [], ...page } = c.req.valid('json');
    const answer = await ctx.pages.markdown(callerOf(c), page, { onlyMainContent, includeTags, excludeTags });
    c.header('X-Cache', answer.cache);
    return ok(c, answer.data, answer.creditsCost);
  });

  router.openapi(linksRoute, async (c) => {
    const answer = await ctx.pages.links(callerOf(c), c.req.valid('json'));
    c.header('X-Cache', answer.cache);
    return ok(c, answer.data, answer.creditsCost);
  });

  return router;
}
