import { createRoute, z } from '@hono/zod-openapi';
import { callerOf } from '../http/context.js';
import { ok } from '../http/envelope.js';
import { authedErrors, bearerSecurity, createRouter, envelope, errorResponse, json, jsonBody } from '../http/openapi.js';
import { pageFields, warningsField } from '../web/page-options.js';
import { actionResultsField } from '../web/actions/action-results.openapi.js';
import { webErrors } from '../web/web-errors.openapi.js';
import { aiAskFields, checkAsk } from './ask-schema.js';
import type { PageServices } from '../web/page-services.js';
import type { Guards } from '../http/guards.js';

const AiExtractBody = z.object({ ...pageFields, ...aiAskFields }).superRefine(checkAsk);

const AiExtractData = z.object({
  extracted: z.record(z.string(), z.unknown()).openapi({ description: 'The JSON object the model answered; empty for responseType text' }),
  text: z.string().openapi({ description: "The model's raw answer" }),
  metadata: z.object({
    url: z.string(),
    finalUrl: z.string(),
    title: z.string(),
    timestamp: z.string(),
    model: z.string(),
    responseType: z.enum(['json', 'text']),
    extractionType: z.enum(['prompt', 'schema']),
    fieldsExtracted: z.number().openapi({ description: 'Top-level keys of `extracted`' }),
    inputTokens: z.number().openapi({ description: "From the provider's usage, summed over attempts" }),
    outputTokens: z.number(),
    inputTrimmed: z.boolean().openapi({ description: "The page's markdown was cut to fit AI_MAX_INPUT_TOKENS" }),
    attempts: z.number().openapi({ description: '2 when the first answer was not a JSON object' }),
    warnings: warningsField,
  }),
  actions: actionResultsField,
});

const aiExtractRoute = createRoute({
  method: 'post',
  path: '/v1/web/ai-extract',
  tags: ['Web'],
  summary: "A page's main content, read by a language model: answers a prompt or fills a JSON Schema",
  security: bearerSecurity,
  request: jsonBody(AiExtractBody),
  responses: {
    200: json(envelope(AiExtractData), 'What the model extracted'),
    ...authedErrors,
    ...webErrors,
    502: errorResponse('TARGET_UNREACHABLE; PROVIDER_ERROR (the model server failed); AI_INVALID_JSON (no JSON object, or none following the schema, after a retry)'),
    503: errorResponse('PROVIDER_NOT_CONFIGURED (names the variable to set), PROVIDER_RATE_LIMITED (with Retry-After), SERVICE_OVERLOADED or SERVICE_UNAVAILABLE'),
    504: errorResponse('TARGET_TIMEOUT; PROVIDER_TIMEOUT (the model server did not answer within AI_TIMEOUT_MS)'),
  },
});

/** What this module's routes use of the running service. */
type Services = Pick<PageServices, 'pages'>;

export function aiExtractRoutes(ctx: Services, { requireAuth }: Guards) {
  const router = createRouter();

  router.openapi({ ...aiExtractRoute, middleware: requireAuth }, async (c) => {
    const { prompt, instructions, schema, responseType, ...page } = c.req.valid('json');
    const answer = await ctx.pages.aiExtract(callerOf(c), page, { prompt, instructions, schema, responseType });
    c.header('X-Cache', answer.cache);
    return ok(c, answer.data, answer.creditsCost);
  });

  return router;
}
