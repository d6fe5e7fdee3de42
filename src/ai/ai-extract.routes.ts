import { createRoute, z } from '@hono/zod-openapi';
import type { PageWarning } from '../browser/types.js';
import { ok } from '../http/envelope.js';
import { authedErrors, bearerSecurity, createRouter, envelope, errorResponse, json, jsonBody } from '../http/openapi.js';
import type { RouteDeps } from '../http/route-deps.js';
import { markdownOfPage } from '../web/page-markdown.js';
import { pageFields, toContextOptions, warningsField } from '../web/page-options.js';
import { webErrors } from '../web/web-errors.js';
import type { AiExtraction } from './ai-extract.service.js';
import type { PageText } from './extraction-prompt.js';

const MAX_PROMPT_LENGTH = 20_000;
/** A schema is instructions to the model, not data: a few kilobytes describe any sane record. */
export const MAX_SCHEMA_BYTES = 32 * 1024;
const MAX_SCHEMA_DEPTH = 32;

const jsonSchema = z
  .record(z.string(), z.unknown())
  .superRefine((schema, ctx) => {
    const problem = schemaProblem(schema);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .openapi({
    description: `A JSON Schema for the answer, of type object (at most ${MAX_SCHEMA_BYTES / 1024} KiB); asks the model for structured output`,
    example: { type: 'object', properties: { title: { type: 'string' }, price: { type: 'number' } }, required: ['title'] },
  });

const AiExtractBody = z
  .object({
    ...pageFields,
    prompt: z.string().trim().min(1).max(MAX_PROMPT_LENGTH).optional().openapi({ description: 'What to extract or answer' }),
    instructions: z.string().trim().min(1).max(MAX_PROMPT_LENGTH).optional().openapi({ description: 'How to answer: rules, tone, format' }),
    schema: jsonSchema.optional(),
    responseType: z.enum(['json', 'text']).default('json'),
  })
  .superRefine((body, ctx) => {
    if (!body.prompt && !body.instructions && !body.schema) {
      ctx.addIssue({ code: 'custom', path: [], message: 'At least one of prompt, instructions or schema is required' });
    }
    if (body.schema && body.responseType === 'text') {
      ctx.addIssue({ code: 'custom', path: ['schema'], message: 'A schema asks for JSON: use responseType json' });
    }
  });

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

type AiExtractResult = AiExtraction & { page: PageText & { warnings: PageWarning[] }; timestamp: string };

export function aiExtractRoutes({ ctx, requireAuth }: RouteDeps) {
  const router = createRouter();
  router.use('/v1/web/ai-extract', requireAuth);

  router.openapi(aiExtractRoute, async (c) => {
    const body = c.req.valid('json');
    const { prompt, instructions, schema, responseType } = body;
    const ask = { prompt, instructions, schema, responseType };
    ctx.ai.ensureConfigured();
    ctx.ai.ensureRoomForPage(ask, body.url);
    const log = c.get('log');
    const result = await ctx.web.runAfterPage(
      {
        operation: 'ai-extract',
        principal: c.get('principal')!,
        requestId: c.get('requestId'),
        signal: c.req.raw.signal,
        log,
        page: body,
        variant: { ask, ...ctx.ai.variant },
        context: toContextOptions(body),
        work: async (loaded): Promise<PageText & { warnings: PageWarning[] }> => {
          const { markdown, title, warnings } = await markdownOfPage(loaded, { url: loaded.finalUrl, maxChars: ctx.config.web.answerMaxChars }, log);
          return { url: loaded.finalUrl, title, markdown, warnings };
        },
      },
      async (page): Promise<AiExtractResult> => ({
        ...(await ctx.ai.extract(ask, page, log, c.req.raw.signal)),
        page,
        timestamp: new Date().toISOString(),
      }),
    );
    const { value } = result;
    c.header('X-Cache', result.cache);
    return ok(
      c,
      {
        extracted: value.extracted,
        text: value.text,
        metadata: {
          url: body.url,
          finalUrl: value.page.url,
          title: value.page.title,
          timestamp: value.timestamp,
          model: value.model,
          responseType,
          extractionType: value.extractionType,
          fieldsExtracted: Object.keys(value.extracted).length,
          inputTokens: value.inputTokens,
          outputTokens: value.outputTokens,
          inputTrimmed: value.inputTrimmed,
          attempts: value.attempts,
          ...(value.page.warnings.length > 0 ? { warnings: value.page.warnings } : {}),
        },
      },
      result.creditsCost,
    );
  });

  return router;
}

/** Why a schema cannot be sent to the model, or undefined when it can. */
function schemaProblem(schema: Record<string, unknown>): string | undefined {
  if (Object.keys(schema).length === 0) return 'The schema is empty';
  if (Buffer.byteLength(JSON.stringify(schema)) > MAX_SCHEMA_BYTES) return `The schema must be at most ${MAX_SCHEMA_BYTES} bytes of JSON`;
  if (depthOf(schema) > MAX_SCHEMA_DEPTH) return `The schema must nest at most ${MAX_SCHEMA_DEPTH} levels deep`;
  if ('type' in schema && schema.type !== 'object') return 'The schema must describe a JSON object (type "object")';
  return undefined;
}

function depthOf(value: unknown): number {
  let deepest = 0;
  const pending: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 1 }];
  while (pending.length > 0) {
    const { node, depth } = pending.pop()!;
    if (node === null || typeof node !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (depth > MAX_SCHEMA_DEPTH) break;
    for (const child of Object.values(node)) pending.push({ node: child, depth: depth + 1 });
  }
  return deepest;
}
