import { z } from '@hono/zod-openapi';
import { callerOf } from '../http/context.js';
import { authedErrors, bearerSecurity, createRouter } from '../http/openapi.js';
import { validationError } from '../errors/validation-error.js';
import { targetUrl } from './page-options.js';
import { webErrors } from './web-errors.openapi.js';
import type { PageServices } from './page-services.js';
import type { Guards } from '../http/guards.js';

const READER_PREFIX = '/r/';

/** What this module's routes use of the running service. */
type Services = Pick<PageServices, 'pages'>;

/**
 * `GET /r/<url>`: a page's main content as `text/markdown`, for curl one-liners and tools that
 * expect a Jina-style reader (`Title:`, `URL Source:`, `Markdown Content:`). The API key goes in
 * the Authorization header as everywhere else, never in the URL. The same markdown operation,
 * price and cache as `POST /v1/web/markdown` with its defaults.
 */
export function readerRoutes(ctx: Services, { requireAuth }: Guards) {
  const router = createRouter();
  router.get(`${READER_PREFIX}*`, requireAuth, async (c) => {
    const parsed = targetUrl.safeParse(readerTarget(new URL(c.req.url)));
    if (!parsed.success) throw validationError([{ code: 'custom', path: ['url'], message: 'After /r/ comes the URL of the page to read' }]);
    const answer = await ctx.pages.markdown(callerOf(c), { url: parsed.data, waitTime: 0 }, { onlyMainContent: true, includeTags: [], excludeTags: [] });
    const { markdown, metadata } = answer.data;
    const warnings = metadata.warnings ?? [];
    const body = `Title: ${metadata.title}\n\nURL Source: ${metadata.finalUrl}\n\nMarkdown Content:\n${markdown}\n`;
    return c.body(body, 200, {
      'Content-Type': 'text/markdown; charset=utf-8',
      'X-Cache': answer.cache,
      'X-Credits-Cost': String(answer.creditsCost),
      ...(warnings.length > 0 ? { 'X-Warnings': warnings.map((warning) => warning.code).join(',') } : {}),
    });
  });
  router.openAPIRegistry.registerPath({
    method: 'get',
    path: '/r/{url}',
    tags: ['Web'],
    summary: "A page's main content as text/markdown (a reader URL)",
    description:
      'Everything after /r/ is the page URL, its query string included (https:// is assumed when there is no scheme). Answers Title, URL Source and Markdown Content lines; X-Credits-Cost, X-Cache and X-Warnings headers. Priced and cached as POST /v1/web/markdown.',
    security: bearerSecurity,
    request: { params: z.object({ url: z.string().openapi({ example: 'https://example.com/' }) }) },
    responses: {
      200: { description: 'The markdown', content: { 'text/markdown': { schema: z.string() } } },
      ...authedErrors,
      ...webErrors,
    },
  });
  return router;
}

/** The target in a reader URL: the rest of the path and the query; a scheme's collapsed `//` is restored. */
export function readerTarget(requestUrl: URL): string {
  const rest = requestUrl.pathname.slice(READER_PREFIX.length) + requestUrl.search;
  const withSlashes = rest.replace(/^(https?):\/(?!\/)/i, '$1://');
  return /^https?:\/\//i.test(withSlashes) ? withSlashes : `https://${withSlashes}`;
}
