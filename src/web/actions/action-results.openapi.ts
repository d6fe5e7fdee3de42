import { z } from '@hono/zod-openapi';

/** A stored capture (a screenshot or PDF file) as an answer gives it; the page answer's captures add their base64. */
export const storedFileSchema = z.object({
  fileId: z.string(),
  permanentUrl: z.string(),
  contentType: z.string(),
  size: z.number(),
  width: z.number().optional(),
  height: z.number().optional(),
  truncated: z.boolean().optional(),
  pages: z.number().optional(),
});

/** `actions` of a page answer: what the request's actions made (AnsweredActions), in the order they ran. */
export const actionResultsField = z
  .object({
    screenshots: z.array(storedFileSchema).openapi({ description: 'Each screenshot action, as a stored file' }),
    scrapes: z.array(z.object({ url: z.string(), html: z.string() })).openapi({ description: "Each scrape action: the page's URL and rendered HTML then" }),
    javascriptReturns: z
      .array(z.object({ type: z.string(), value: z.unknown() }))
      .openapi({ description: 'Each executeJavascript action: typeof its value, and the value as JSON (null for undefined)' }),
    pdfs: z.array(storedFileSchema).openapi({ description: 'Each pdf action, as a stored file' }),
  })
  .openapi('ActionResults')
  .optional()
  .openapi({ description: 'With `actions` in the request: what they made' });
