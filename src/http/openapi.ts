import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from './context.js';
import { validationHook } from './validation.js';

/** A router whose failed validations answer with the spec's 422 body. */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}

export const ErrorSchema = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z.string().openapi({ example: 'UNAUTHORIZED' }),
      message: z.string().openapi({ example: 'Authentication required' }),
      requestId: z.uuid().optional(),
    }),
    timestamp: z.iso.datetime().optional(),
  })
  .openapi('Error');

/** A 429 of the hourly limits: the spec's code and message, and which limit refused (src/limits/request-limits.ts). */
const RateLimitErrorSchema = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z.string().openapi({ example: 'RATE_LIMIT_EXCEEDED' }),
      message: z.string().openapi({ example: 'Rate limit exceeded' }),
      requestId: z.uuid().optional(),
      limit: z.enum(['key', 'session', 'account']).optional().openapi({
        description: "The hourly limit that refused: the API key's own, the account's sessions' together, or the account's ceiling over all its keys and sessions",
      }),
      requestsPerHour: z.number().optional().openapi({ description: 'That limit' }),
      resetAt: z.number().optional().openapi({ description: 'Unix seconds when its window ends' }),
      retryAfter: z.number().optional().openapi({ description: 'Seconds until then, as in Retry-After' }),
    }),
    timestamp: z.iso.datetime().optional(),
  })
  .openapi('RateLimitError');

export const ValidationErrorSchema = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z.literal('VALIDATION_ERROR'),
      message: z.string(),
      requestId: z.uuid().optional(),
      name: z.string().openapi({ example: 'ZodError' }),
      issues: z.array(
        z.object({
          code: z.string().openapi({ example: 'invalid_type' }),
          path: z.array(z.union([z.string(), z.number()])),
          message: z.string().openapi({ example: 'Required' }),
          expected: z.string().optional(),
          received: z.string().optional(),
        }),
      ),
    }),
    timestamp: z.iso.datetime().optional(),
  })
  .openapi('ValidationError');

/** The success envelope around an operation's `data`. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({
    success: z.literal(true),
    data,
    requestId: z.uuid(),
    timestamp: z.iso.datetime(),
    creditsCost: z.number(),
  });
}

export function json<T extends z.ZodType>(schema: T, description: string) {
  return { content: { 'application/json': { schema } }, description };
}

export function jsonBody<T extends z.ZodType>(schema: T) {
  return { body: { content: { 'application/json': { schema } }, required: true } };
}

const errorResponse = (description: string) => json(ErrorSchema, description);

/** Error answers every authenticated operation can give; spread into each route's responses. */
export const authedErrors = {
  401: errorResponse('Missing or invalid credentials'),
  422: json(ValidationErrorSchema, 'Validation failure'),
  429: json(RateLimitErrorSchema, 'Rate limit exceeded; X-RateLimit-* say the caller\'s window, Retry-After the refusing one\'s'),
  500: errorResponse('Internal failure'),
} as const;

export const publicErrors = {
  422: json(ValidationErrorSchema, 'Validation failure'),
  500: errorResponse('Internal failure'),
} as const;

export { errorResponse };

export const bearerSecurity = [{ bearerAuth: [] }];
