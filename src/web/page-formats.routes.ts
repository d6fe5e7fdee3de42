import { createRoute, z } from '@hono/zod-openapi';
import { aiAskFields, checkAsk } from '../ai/ask-schema.js';
import { callerOf } from '../http/context.js';
import { ok } from '../http/envelope.js';
import { authedErrors, bearerSecurity, createRouter, envelope, errorResponse, json, jsonBody } from '../http/openapi.js';
import type { RouteDeps } from '../http/route-deps.js';
import type { Config } from '../config.js';
import type { OutputRequest, StoredCapture } from './outputs.js';
import type { PageOperations } from './page-operations.js';
import { pageMetadata } from './page-operations.js';
import type { PageRun } from './page-pipeline.js';
import { pageFields, pageMetadataFields, textSelectionFields, viewportSchema } from './page-options.js';
import { pdfOptionFields, pdfOptionsSchema } from './pdf.js';
import { scrapeTargetsSchema } from './scrape.js';
import { qualityOnlyForLossy, screenshotOptionFields, screenshotOptionsSchema } from './screenshot.js';
import { webErrors } from './web-errors.js';

const NAMED_FORMATS = ['markdown', 'html', 'rawHtml', 'links', 'images', 'metadata', 'screenshot', 'pdf'] as const;

const captureSchema = z.object({
  fileId: z.string(),
  permanentUrl: z.string(),
  contentType: z.string(),
  size: z.number(),
  width: z.number().optional(),
  height: z.number().optional(),
  truncated: z.boolean().optional(),
  pages: z.number().optional(),
  base64: z.string().optional().openapi({ description: 'With base64: true' }),
});

const PageData = z.object({
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

/** `/v1/web/page`: several outputs of one page load, one request, one price (docs/page-operations.md). */
export function pageFormatsRoutes({ ctx, requireAuth }: RouteDeps) {
  const formatSchema = pageFormatSchema(ctx.config);

  const PageBody = z
    .object({
      ...pageFields,
      ...textSelectionFields,
      viewport: viewportSchema,
      formats: z.array(formatSchema).min(1).max(12).default(['markdown']),
      base64: z.boolean().default(false).openapi({ description: 'Screenshot and PDF bytes in the answer as base64, beside their stored file' }),
    })
    .superRefine((body, refinement) => {
      const seen = new Set<string>();
      body.formats.forEach((format, index) => {
        const name = typeof format === 'string' ? format : format.type;
        if (seen.has(name)) refinement.addIssue({ code: 'custom', path: ['formats', index], message: `${name} is asked for more than once` });
        seen.add(name);
      });
    });

  const pageRoute = createRoute({
    method: 'post',
    path: '/v1/web/page',
    tags: ['Web'],
    summary: 'Several outputs of one page load: markdown, HTML, links, images, metadata, scrape selectors, a screenshot, a PDF, AI-extracted JSON',
    description:
      'Costs the dearest of the text outputs asked for (they share one load), plus each screenshot, PDF and JSON extraction at their own price; cached per set of outputs.',
    security: bearerSecurity,
    middleware: requireAuth,
    request: jsonBody(PageBody),
    responses: {
      200: json(envelope(PageData), 'Every output asked for, and the page metadata'),
      ...authedErrors,
      ...webErrors,
      503: errorResponse('SERVICE_OVERLOADED (with Retry-After), SERVICE_UNAVAILABLE, or PROVIDER_NOT_CONFIGURED for json without a model server'),
    },
  });

  const router = createRouter();
  router.openapi(pageRoute, async (c) => {
    const { formats, onlyMainContent, includeTags = [], excludeTags = [], viewport, base64, ...page } = c.req.valid('json');
    const outputs = toOutputRequest(formats, { onlyMainContent, includeTags, excludeTags });
    const run = await ctx.pages.page(callerOf(c), page, outputs, viewport);
    c.header('X-Cache', run.cache);
    return ok(c, await pageData(ctx.pages, run, base64), run.creditsCost);
  });
  return router;
}

type Format = (typeof NAMED_FORMATS)[number] | { type: string; [option: string]: unknown };

/** The outputs a list of formats asks for; `metadata` comes with every answer. */
export function toOutputRequest(formats: Format[], selection: OutputRequest['markdown'] & object): OutputRequest {
  const outputs: OutputRequest = {};
  for (const format of formats) {
    const { type, ...options } = typeof format === 'string' ? { type: format } : format;
    if (type === 'markdown') outputs.markdown = selection;
    else if (type === 'html') outputs.html = selection;
    else if (type === 'rawHtml') outputs.rawHtml = true;
    else if (type === 'links') outputs.links = true;
    else if (type === 'images') outputs.images = true;
    else if (type === 'screenshot') {
      const { imageType, ...rest } = options;
      outputs.screenshot = screenshotOptionsSchema.parse(imageType === undefined ? rest : { ...rest, type: imageType });
    }
    else if (type === 'pdf') outputs.pdf = pdfOptionsSchema.parse(options);
    else if (type === 'scrape') outputs.scrape = options as Required<OutputRequest>['scrape'];
    else if (type === 'json') outputs.json = options as unknown as Required<OutputRequest>['json'];
  }
  return outputs;
}

/** A run in the answer's shape: each output asked for, captures without their storage key (and with their bytes if asked). */
export async function pageData(pages: PageOperations, run: PageRun, base64: boolean) {
  const { outputs } = run.result;
  const capture = async (type: 'screenshot' | 'pdf', stored: StoredCapture | undefined) => {
    if (!stored) return undefined;
    const { r2Key: _key, ...shown } = stored;
    return base64 ? { ...shown, base64: Buffer.from(await pages.captureBytes(run, type)).toString('base64') } : shown;
  };
  return {
    markdown: outputs.markdown?.markdown,
    html: outputs.html,
    rawHtml: outputs.rawHtml,
    links: outputs.links,
    images: outputs.images,
    scrape: outputs.scrape,
    screenshot: await capture('screenshot', outputs.screenshot),
    pdf: await capture('pdf', outputs.pdf),
    json: outputs.json,
    metadata: pageMetadata(run.result, outputs.markdown ? { wordCount: outputs.markdown.wordCount } : {}),
  };
}
