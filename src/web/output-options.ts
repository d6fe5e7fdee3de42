import { z } from '@hono/zod-openapi';

/**
 * The request fields of the outputs that take options (a screenshot, a PDF, a scrape): their
 * HTTP schemas, shared by the capture and scrape routes, `/v1/web/page`'s formats, jobs and the
 * MCP tools. What reads them off a page is the output's entry in `outputs/`.
 */

/** The screenshot options' fields, for schemas that add their own (a format of the page operation). */
export const screenshotOptionFields = {
  fullPage: z.boolean().default(false),
  type: z.enum(['png', 'jpeg', 'webp']).default('png'),
  quality: z.number().int().min(0).max(100).optional().openapi({ description: 'jpeg and webp only' }),
  clip: z
    .strictObject({
      x: z.number().min(0).max(100_000),
      y: z.number().min(0).max(100_000),
      width: z.number().min(1).max(10_000),
      height: z.number().min(1).max(20_000),
    })
    .optional(),
  omitBackground: z.boolean().default(false),
  selector: z.string().min(1).max(1000).optional().openapi({ description: 'Capture one element' }),
};

/** png has no quality setting (a refinement of every schema with the screenshot options). */
export function qualityOnlyForLossy(options: { type: string; quality?: number }, ctx: z.RefinementCtx): void {
  if (options.quality !== undefined && options.type === 'png') ctx.addIssue({ code: 'custom', message: 'quality applies to jpeg and webp only', path: ['quality'] });
}

export const screenshotOptionsSchema = z
  .strictObject(screenshotOptionFields)
  .superRefine(qualityOnlyForLossy)
  .default({ fullPage: false, type: 'png', omitBackground: false });

export type ScreenshotOptions = z.infer<typeof screenshotOptionsSchema>;

const length = z
  .union([z.number().min(0).max(500), z.string().regex(/^\d+(\.\d+)?(px|in|cm|mm)$/)])
  .openapi({ description: 'A number of pixels, or a string with px, in, cm or mm' });

/** The PDF options' fields, for schemas that add their own (a format of the page operation). */
export const pdfOptionFields = {
  format: z.enum(['Letter', 'Legal', 'Tabloid', 'Ledger', 'A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6']).default('A4'),
  landscape: z.boolean().default(false),
  printBackground: z.boolean().default(true),
  scale: z.number().min(0.1).max(2).default(1),
  margin: z.strictObject({ top: length.optional(), right: length.optional(), bottom: length.optional(), left: length.optional() }).optional(),
};

export const pdfOptionsSchema = z.strictObject(pdfOptionFields).default({ format: 'A4', landscape: false, printBackground: true, scale: 1 });

export type PdfOptions = z.infer<typeof pdfOptionsSchema>;

/** The selectors of a scrape: at most `maxSelectors` of them (SCRAPE_MAX_SELECTORS). */
export function scrapeTargetsSchema(maxSelectors: number) {
  return z
    .array(
      z.strictObject({
        selector: z.string().min(1).max(1000),
        attributes: z.array(z.string().min(1).max(256)).max(50).optional(),
      }),
    )
    .min(1)
    .max(maxSelectors);
}

export interface ScrapeTarget {
  selector: string;
  attributes?: string[];
}
