import { z } from '@hono/zod-openapi';
import { aiAskFields, checkAsk } from '../ai/ask-schema.js';
import type { Config } from '../config.js';
import { NAMED_FORMATS } from './page-formats.js';
import { pageMetadataFields } from './page-options.js';
import { actionResultsField, storedFileSchema } from './actions/action-results.openapi.js';
import { pdfOptionFields, qualityOnlyForLossy, scrapeTargetsSchema, screenshotOptionFields } from './output-options.js';

const captureSchema = storedFileSchema.extend({
  base64: z.string().optional().openapi({ description: 'With base64: true' }),
});

/** A page answer (PageAnswer) as the OpenAPI document shows it. */
export const PageData = z.object({
  markdown: z.string().optional(),
  html: z.string().optional().openapi({ description: 'The rendered page without scripts, styles and comments; with onlyMainContent, without its header, navigation, footer and asides' }),
  rawHtml: z.string().optional(),
  links: z.array(z.string()).optional(),
  images: z.array(z.string()).optional(),
  scrape: z.object({ elements: z.array(z.object({ selector: z.string(), data: z.object({ results: z.array(z.record(z.string(), z.unknown())) }) })), elementsFound: z.number() }).optional(),
  screenshot: captureSchema.optional(),
  pdf: captureSchema.optional(),
  json: z
    .object({
      extracted: z.record(z.string(), z.unknown()),
      text: z.string(),
      model: z.string(),
      extractionType: z.enum(['prompt', 'schema']),
      inputTokens: z.number(),
      outputTokens: z.number(),
      inputTrimmed: z.boolean(),
      attempts: z.number(),
    })
    .optional(),
  actions: actionResultsField,
  metadata: z.object({ ...pageMetadataFields, wordCount: z.number().optional() }),
});

/** One entry of `formats`: an output by name, or an object with its options (also the jobs' formats). */
export function pageFormatSchema(config: Config) {
  return z
    .union([
      z.enum(NAMED_FORMATS),
      z
        .strictObject({ ...screenshotOptionFields, type: z.literal('screenshot'), imageType: screenshotOptionFields.type })
        .superRefine(({ imageType, quality }, refinement) => qualityOnlyForLossy({ type: imageType, quality }, refinement)),
      z.strictObject({ type: z.literal('pdf'), ...pdfOptionFields }),
      z.strictObject({ type: z.literal('scrape'), elements: scrapeTargetsSchema(config.web.scrapeMaxSelectors) }),
      z.strictObject({ type: z.literal('json'), ...aiAskFields }).superRefine(checkAsk),
    ])
    .openapi({
      description:
        'An output: markdown, html, rawHtml, links, images, metadata, screenshot or pdf by name (screenshot and pdf with their defaults), or an object: {type: "screenshot", fullPage?, imageType? (png, jpeg, webp), quality?, clip?, omitBackground?, selector?}, {type: "pdf", format?, landscape?, printBackground?, scale?, margin?}, {type: "scrape", elements}, {type: "json", prompt?, instructions?, schema?, responseType?}',
    });
}
