import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '../http/envelope.js';
import { authedErrors, bearerSecurity, createRouter, envelope, json, jsonBody } from '../http/openapi.js';
import { callerOf } from '../http/context.js';
import { pageFields, pageMetadataFields } from './page-options.js';
import { scrapeTargetsSchema } from './output-options.js';
import { webErrors } from './web-errors.openapi.js';
import { actionResultsField } from './actions/action-results.openapi.js';
import type { Platform } from '../platform.js';
import type { PageServices } from './page-services.js';
import type { Guards } from '../http/guards.js';

const ScrapedElement = z.object({
  text: z.string(),
  html: z.string(),
  attributes: z.record(z.string(), z.string().nullable()),
  top: z.number(),
  left: z.number(),
  width: z.number(),
  height: z.number(),
});

/** What this module's routes use of the running service. */
type Services = Pick<Platform, 'config'> & Pick<PageServices, 'pages'>;

export function scrapeRoutes(ctx: Services, { requireAuth }: Guards) {
  const ScrapeBody = z.object({ ...pageFields, elements: scrapeTargetsSchema(ctx.config.web.scrapeMaxSelectors) });

  const scrapeRoute = createRoute({
    method: 'post',
    path: '/v1/web/scrape',
    tags: ['Web'],
    summary: 'Elements of a page chosen by CSS selectors',
    security: bearerSecurity,
    middleware: requireAuth,
    request: jsonBody(ScrapeBody),
    responses: {
      200: json(
        envelope(
          z.object({
            elements: z.array(z.object({ selector: z.string(), data: z.object({ results: z.array(ScrapedElement) }) })),
            metadata: z.object({ ...pageMetadataFields, elementsFound: z.number() }),
            actions: actionResultsField,
          }),
        ),
        'Scraped elements',
      ),
      ...authedErrors,
      ...webErrors,
    },
  });

  const router = createRouter();
  router.openapi(scrapeRoute, async (c) => {
    const { elements, ...page } = c.req.valid('json');
    const answer = await ctx.pages.scrape(callerOf(c), page, elements);
    c.header('X-Cache', answer.cache);
    return ok(c, answer.data, answer.creditsCost);
  });
  return router;
}
