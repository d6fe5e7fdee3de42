import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '../http/envelope.js';
import { authedErrors, bearerSecurity, createRouter, envelope, json, jsonBody } from '../http/openapi.js';
import type { RouteDeps } from '../http/route-deps.js';
import { pageFields, toContextOptions, warningsField, withWarnings } from './page-options.js';
import { scrapeElements } from './scrape.js';
import { truncatedAnswer } from './page-html.js';
import { webErrors } from './web-errors.js';

const ScrapedElement = z.object({
  text: z.string(),
  html: z.string(),
  attributes: z.record(z.string(), z.string().nullable()),
  top: z.number(),
  left: z.number(),
  width: z.number(),
  height: z.number(),
});

export function scrapeRoutes({ ctx, requireAuth }: RouteDeps) {
  const ScrapeBody = z.object({
    ...pageFields,
    elements: z
      .array(
        z.strictObject({
          selector: z.string().min(1).max(1000),
          attributes: z.array(z.string().min(1).max(256)).max(50).optional(),
        }),
      )
      .min(1)
      .max(ctx.config.web.scrapeMaxSelectors),
  });

  const scrapeRoute = createRoute({
    method: 'post',
    path: '/v1/web/scrape',
    tags: ['Web'],
    summary: 'Elements of a page chosen by CSS selectors',
    security: bearerSecurity,
    request: jsonBody(ScrapeBody),
    responses: {
      200: json(
        envelope(
          z.object({
            elements: z.array(z.object({ selector: z.string(), data: z.object({ results: z.array(ScrapedElement) }) })),
            metadata: z.object({ url: z.string(), finalUrl: z.string(), statusCode: z.number(), timestamp: z.string(), elementsFound: z.number(), warnings: warningsField }),
          }),
        ),
        'Scraped elements',
      ),
      ...authedErrors,
      ...webErrors,
    },
  });

  const router = createRouter();
  router.use('/v1/web/scrape', requireAuth);
  router.openapi(scrapeRoute, async (c) => {
    const body = c.req.valid('json');
    const result = await ctx.web.run({
      operation: 'scrape',
      principal: c.get('principal')!,
      requestId: c.get('requestId'),
      signal: c.req.raw.signal,
      log: c.get('log'),
      page: body,
      variant: { elements: body.elements },
      context: toContextOptions(body),
      work: async ({ page, finalUrl, statusCode, warnings }) => {
        const maxChars = ctx.config.web.answerMaxChars;
        const { elements, elementsFound, truncated } = await scrapeElements(page, body.elements, ctx.config.web.scrapeMaxResults, maxChars);
        const metadata = { url: body.url, finalUrl, statusCode, timestamp: new Date().toISOString(), elementsFound };
        return { elements, metadata: withWarnings(metadata, truncated ? [...warnings, truncatedAnswer('The text of the results', maxChars)] : warnings) };
      },
    });
    c.header('X-Cache', result.cache);
    return ok(c, result.value, result.creditsCost);
  });
  return router;
}
