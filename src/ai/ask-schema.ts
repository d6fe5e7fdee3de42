import { z } from '@hono/zod-openapi';

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

/** What a caller asks the model of a page: `/v1/web/ai-extract`'s fields, and the `json` format of `/v1/web/page`. */
export const aiAskFields = {
  prompt: z.string().trim().min(1).max(MAX_PROMPT_LENGTH).optional().openapi({ description: 'What to extract or answer' }),
  instructions: z.string().trim().min(1).max(MAX_PROMPT_LENGTH).optional().openapi({ description: 'How to answer: rules, tone, format' }),
  schema: jsonSchema.optional(),
  responseType: z.enum(['json', 'text']).default('json'),
};

/** The rules across the fields of an ask (a superRefine). */
export function checkAsk(ask: { prompt?: string; instructions?: string; schema?: unknown; responseType: string }, ctx: z.RefinementCtx): void {
  if (!ask.prompt && !ask.instructions && !ask.schema) {
    ctx.addIssue({ code: 'custom', path: [], message: 'At least one of prompt, instructions or schema is required' });
  }
  if (ask.schema && ask.responseType === 'text') {
    ctx.addIssue({ code: 'custom', path: ['schema'], message: 'A schema asks for JSON: use responseType json' });
  }
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
