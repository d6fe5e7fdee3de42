import { createRoute, z } from '@hono/zod-openapi';
import { callerOf } from '../http/context.js';
import { ok } from '../http/envelope.js';
import { authedErrors, bearerSecurity, createRouter, envelope, errorResponse, json, jsonBody } from '../http/openapi.js';
import type { RouteDeps } from '../http/route-deps.js';
import { pageFields, warningsField } from '../web/page-options.js';
import { webErrors } from '../web/web-errors.js';

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

export function aiExtractRoutes({ ctx, requireAuth }: RouteDeps) {
  const router = createRouter();

  router.openapi({ ...aiExtractRoute, middleware: requireAuth }, async (c) => {
    const { prompt, instructions, schema, responseType, ...page } = c.req.valid('json');
    const answer = await ctx.pages.aiExtract(callerOf(c), page, { prompt, instructions, schema, responseType });
    c.header('X-Cache', answer.cache);
    return ok(c, answer.data, answer.creditsCost);
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
