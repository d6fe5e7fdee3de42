import { z } from '@hono/zod-openapi';
import { json } from '../http/openapi.js';

/** The OpenAPI parts the Firecrawl routes share: their tag and their error answers. */
export const TAG = 'Firecrawl compatibility';

export const FirecrawlError = z
  .object({
    success: z.literal(false),
    error: z.string().openapi({ description: 'What went wrong, in words (the SDKs show it)' }),
    code: z.string().openapi({ description: "Pluck's error code", example: 'INSUFFICIENT_CREDITS' }),
    details: z.unknown().optional().openapi({ description: 'A refused body: the issues, each with its path' }),
  })
  .openapi('FirecrawlError');

const error = (description: string) => json(FirecrawlError, description);

export const firecrawlErrors = {
  400: error('The body does not fit (VALIDATION_ERROR, with details), a format or option this server does not support, or a URL the egress policy refuses'),
  401: error('Missing or invalid API key'),
  402: error('INSUFFICIENT_CREDITS'),
  408: error('TARGET_TIMEOUT: the page did not answer in time; PROVIDER_TIMEOUT: the model server of a json format did not'),
  429: error('RATE_LIMIT_EXCEEDED or CONCURRENCY_LIMIT_EXCEEDED (with Retry-After)'),
  500: error('The page could not be loaded or read (TARGET_UNREACHABLE, TARGET_CRASHED), the model answered no JSON (AI_INVALID_JSON), every search provider failed (PROVIDER_ERROR)'),
  503: error('SERVICE_OVERLOADED (with Retry-After), SERVICE_UNAVAILABLE, PROVIDER_NOT_CONFIGURED'),
} as const;
