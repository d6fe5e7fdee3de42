import { z } from '@hono/zod-openapi';
import type { Page } from 'playwright-core';

const length = z
  .union([z.number().min(0).max(500), z.string().regex(/^\d+(\.\d+)?(px|in|cm|mm)$/)])
  .openapi({ description: 'A number of pixels, or a string with px, in, cm or mm' });

export const pdfOptionsSchema = z
  .strictObject({
    format: z.enum(['Letter', 'Legal', 'Tabloid', 'Ledger', 'A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6']).default('A4'),
    landscape: z.boolean().default(false),
    printBackground: z.boolean().default(true),
    scale: z.number().min(0.1).max(2).default(1),
    margin: z.strictObject({ top: length.optional(), right: length.optional(), bottom: length.optional(), left: length.optional() }).optional(),
  })
  .default({ format: 'A4', landscape: false, printBackground: true, scale: 1 });

export type PdfOptions = z.infer<typeof pdfOptionsSchema>;

export async function renderPdf(page: Page, options: PdfOptions): Promise<Buffer> {
  return page.pdf({
    format: options.format,
    landscape: options.landscape,
    printBackground: options.printBackground,
    scale: options.scale,
    margin: options.margin,
  });
}
