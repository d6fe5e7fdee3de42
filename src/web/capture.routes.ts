import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { type AuthedEnv, callerOf } from '../http/context.js';
import { ok } from '../http/envelope.js';
import { authedErrors, bearerSecurity, createRouter, envelope, json, jsonBody } from '../http/openapi.js';
import type { Answered, CaptureAnswer } from './page-operations.js';
import { pageFields, viewportSchema, warningsField } from './page-options.js';
import { pdfOptionsSchema, screenshotOptionsSchema } from './output-options.js';
import { webErrors } from './web-errors.openapi.js';
import { actionResultsField } from './actions/action-results.openapi.js';
import type { PageServices } from './page-services.js';
import type { Guards } from '../http/guards.js';

const ScreenshotBody = z.object({
  ...pageFields,
  base64: z.boolean().default(false),
  screenshotOptions: screenshotOptionsSchema,
  viewport: viewportSchema,
});

const PdfBody = z.object({ ...pageFields, base64: z.boolean().default(false), pdfOptions: pdfOptionsSchema });

const CaptureMetadata = z.object({
  url: z.string(),
  finalUrl: z.string(),
  statusCode: z.number(),
  timestamp: z.string(),
  size: z.number(),
  contentType: z.string(),
  warnings: warningsField,
});

const CaptureData = z.object({
  base64: z.string().optional(),
  fileId: z.string(),
  permanentUrl: z.string(),
  metadata: CaptureMetadata.passthrough(),
  actions: actionResultsField,
});

const binaryHeaders =
  'Binary answers carry X-Request-Id, X-Credits-Cost, X-File-Id, X-File-Url and X-Cache, and X-Warnings (comma-separated codes, see metadata.warnings) when there are any.';

const screenshotRoute = createRoute({
  method: 'post',
  path: '/v1/web/screenshot',
  tags: ['Web'],
  summary: 'Screenshot of a page (image bytes, or JSON with base64: true)',
  description: binaryHeaders,
  security: bearerSecurity,
  request: jsonBody(ScreenshotBody),
  responses: {
    200: {
      description: 'The image, or JSON when base64 is true',
      content: {
        'image/png': { schema: z.string().openapi({ format: 'binary' }) },
        'application/json': { schema: envelope(CaptureData) },
      },
    },
    ...authedErrors,
    ...webErrors,
  },
});

const pdfRoute = createRoute({
  method: 'post',
  path: '/v1/web/pdf',
  tags: ['Web'],
  summary: 'PDF of a page (PDF bytes, or JSON with base64: true)',
  description: binaryHeaders,
  security: bearerSecurity,
  request: jsonBody(PdfBody),
  responses: {
    200: {
      description: 'The PDF, or JSON when base64 is true',
      content: {
        'application/pdf': { schema: z.string().openapi({ format: 'binary' }) },
        'application/json': { schema: envelope(CaptureData) },
      },
    },
    ...authedErrors,
    ...webErrors,
  },
});

/** What this module's routes use of the running service. */
type Services = Pick<PageServices, 'pages'>;

export function captureRoutes(ctx: Services, { requireAuth }: Guards) {
  const router = createRouter();

  /** The capture as bytes (the default), or in the JSON envelope with `base64: true`; the headers either way. */
  function answerCapture(c: Context<AuthedEnv>, answer: Answered<CaptureAnswer>, base64: boolean) {
    const { data } = answer;
    c.header('X-Cache', answer.cache);
    c.header('X-Credits-Cost', String(answer.creditsCost));
    c.header('X-File-Id', data.fileId);
    c.header('X-File-Url', data.permanentUrl);
    const warnings = data.metadata.warnings ?? [];
    if (warnings.length > 0) c.header('X-Warnings', warnings.map((warning) => warning.code).join(','));
    if (base64) {
      const json = { base64: Buffer.from(data.bytes).toString('base64'), fileId: data.fileId, permanentUrl: data.permanentUrl, metadata: data.metadata, actions: data.actions };
      return ok(c, json, answer.creditsCost);
    }
    return c.body(new Uint8Array(data.bytes), 200, { 'Content-Type': data.contentType, 'Content-Length': String(data.bytes.byteLength) });
  }

  router.openapi({ ...screenshotRoute, middleware: requireAuth }, async (c) => {
    const { screenshotOptions, viewport, base64, ...page } = c.req.valid('json');
    return answerCapture(c, await ctx.pages.screenshot(callerOf(c), page, viewport, screenshotOptions), base64);
  });

  router.openapi({ ...pdfRoute, middleware: requireAuth }, async (c) => {
    const { pdfOptions, base64, ...page } = c.req.valid('json');
    return answerCapture(c, await ctx.pages.pdf(callerOf(c), page, pdfOptions), base64);
  });

  return router;
}
