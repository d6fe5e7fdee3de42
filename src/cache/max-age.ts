import { z } from '@hono/zod-openapi';

/** The request field that lets a caller choose how old a cached result may be. */
export const maxAgeField = z
  .number()
  .int()
  .min(0)
  .max(7 * 24 * 3600)
  .optional()
  .openapi({ description: 'Accept a cached result up to this many seconds old (capped by CACHE_TTL_SECONDS); 0 bypasses the cache' });
