import { createRoute, z } from '@hono/zod-openapi';
import { callerOf } from '../http/context.js';
import { ok } from '../http/envelope.js';
import { authedErrors, bearerSecurity, createRouter, envelope, errorResponse, json, jsonBody } from '../http/openapi.js';
import { pageAnswer } from './page-answer.js';
import { toOutputRequest } from './page-formats.js';
import { PageData, pageFormatSchema } from './page-formats.openapi.js';
import { pageFields, textSelectionFields, viewportSchema } from './page-options.js';
import { webErrors } from './web-errors.openapi.js';
import type { Platform } from '../platform.js';
import type { PageServices } from './page-services.js';
import type { Guards } from '../http/guards.js';

/** What this module's routes use of the running service. */
type Services = Pick<Platform, 'config'> & Pick<PageServices, 'pages'>;

/** `/v1/web/page`: several outputs of one page load, one request, one price (docs/page-operations.md). */
export function pageFormatsRoutes(ctx: Services, { requireAuth }: Guards) {
  const formatSchema = pageFormatSchema(ctx.config);

  const PageBody = z
    .object({
      ...pageFields,
      ...textSelectionFields,
      viewport: viewportSchema,
      formats: z.array(formatSchema).min(1).max(12).default(['markdown']),
      base64: z.boolean().default(false).openapi({ description: 'Screenshot and PDF bytes in the answer as base64, beside their stored file' }),
    })
    .superRefine((body, refinement) => {
      const seen = new Set<string>();
      body.formats.forEach((format, index) => {
        const name = typeof format === 'string' ? format : format.type;
        if (seen.has(name)) refinement.addIssue({ code: 'custom', path: ['formats', index], message: `${name} is asked for more than once` });
        seen.add(name);
      });
    });

  const pageRoute = createRoute({
    method: 'post',
    path: '/v1/web/page',
    tags: ['Web'],
    summary: 'Several outputs of one page load: markdown, HTML, links, images, metadata, scrape selectors, a screenshot, a PDF, AI-extracted JSON',
    description:
      'Costs the dearest of the text outputs asked for (they share one load), plus each screenshot, PDF and JSON extraction at their own price; cached per set of outputs.',
    security: bearerSecurity,
    middleware: requireAuth,
    request: jsonBody(PageBody),
    responses: {
      200: json(envelope(PageData), 'Every output asked for, and the page metadata'),
      ...authedErrors,
      ...webErrors,
      503: errorResponse('SERVICE_OVERLOADED (with Retry-After), SERVICE_UNAVAILABLE, or PROVIDER_NOT_CONFIGURED for json without a model server'),
    },
  });

  const router = createRouter();
  router.openapi(pageRoute, async (c) => {
    const { formats, onlyMainContent, includeTags = [], excludeTags = [], viewport, base64, ...page } = c.req.valid('json');
    const outputs = toOutputRequest(formats, { onlyMainContent, includeTags, excludeTags });
    const run = await ctx.pages.page(callerOf(c), page, outputs, viewport);
    c.header('X-Cache', run.cache);
    return ok(c, await pageAnswer(run, base64 ? (type) => ctx.pages.captureBytes(run, type) : undefined), run.creditsCost);
  });
  return router;
}
