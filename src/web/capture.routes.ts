import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { LoadedPage, PageWarning } from '../browser/types.js';
import type { FileType } from '../files/file.service.js';
import type { AppEnv } from '../http/context.js';
import { ok } from '../http/envelope.js';
import { AppError } from '../http/errors.js';
import { authedErrors, bearerSecurity, createRouter, envelope, json, jsonBody } from '../http/openapi.js';
import type { RouteDeps } from '../http/route-deps.js';
import { pageFields, toContextOptions, viewportSchema, warningsField, withWarnings } from './page-options.js';
import { pdfOptionsSchema, renderPdf } from './pdf.js';
import { captureScreenshot, requestedAreaProblem, type ScreenshotLimits, screenshotOptionsSchema } from './screenshot.js';
import { webErrors } from './web-errors.js';
import { validationError } from '../http/validation.js';

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

/** What a capture leaves behind: the stored file. Cached without the bytes. */
interface Capture {
  fileId: string;
  permanentUrl: string;
  r2Key: string;
  contentType: string;
  metadata: z.infer<typeof CaptureMetadata> & Record<string, unknown>;
  bytes?: Uint8Array;
}

export function captureRoutes({ ctx, requireAuth }: RouteDeps) {
  const router = createRouter();
  router.use('/v1/web/screenshot', requireAuth);
  router.use('/v1/web/pdf', requireAuth);

  /** Runs a capture through the shared web-operation path and stores what it produced. */
  async function capture(
    c: Context<AppEnv>,
    type: FileType,
    body: z.infer<typeof ScreenshotBody> | z.infer<typeof PdfBody>,
    variant: unknown,
    viewport: z.infer<typeof viewportSchema> | undefined,
    produce: (loaded: LoadedPage) => Promise<{ bytes: Uint8Array; contentType: string; extension: string; extra: Record<string, unknown>; warnings?: PageWarning[] }>,
  ) {
    const principal = c.get('principal')!;
    const result = await ctx.web.run<Capture>({
      operation: type,
      principal,
      requestId: c.get('requestId'),
      signal: c.req.raw.signal,
      log: c.get('log'),
      page: body,
      variant,
      context: toContextOptions(body, viewport),
      settleFor: 'render',
      work: async (loaded) => {
        const made = await produce(loaded);
        const facts = {
          url: body.url,
          finalUrl: loaded.finalUrl,
          statusCode: loaded.statusCode,
          timestamp: new Date().toISOString(),
          size: made.bytes.byteLength,
          contentType: made.contentType,
          ...made.extra,
        };
        const metadata = withWarnings(facts, [...loaded.warnings, ...(made.warnings ?? [])]);
        const file = await ctx.files.store({
          userId: principal.userId,
          plan: principal.user.plan,
          type,
          url: body.url,
          body: made.bytes,
          contentType: made.contentType,
          extension: made.extension,
          metadata,
        });
        return { fileId: file.id, permanentUrl: file.public_url, r2Key: file.r2_key, contentType: made.contentType, metadata, bytes: made.bytes };
      },
      toCacheValue: ({ bytes: _bytes, ...rest }) => rest,
      isUsable: async (cached) => (await ctx.files.read(cached.r2Key)) !== undefined,
    });
    const { value } = result;
    const bytes = value.bytes ?? (await ctx.files.read(value.r2Key))?.body;
    if (!bytes) throw new AppError('INTERNAL_ERROR', 'The stored file could not be read back');
    c.header('X-Cache', result.cache);
    c.header('X-Credits-Cost', String(result.creditsCost));
    c.header('X-File-Id', value.fileId);
    c.header('X-File-Url', value.permanentUrl);
    const warnings = value.metadata.warnings ?? [];
    if (warnings.length > 0) c.header('X-Warnings', warnings.map((warning) => warning.code).join(','));
    if (body.base64) {
      const data = { base64: Buffer.from(bytes).toString('base64'), fileId: value.fileId, permanentUrl: value.permanentUrl, metadata: value.metadata };
      return ok(c, data, result.creditsCost);
    }
    return c.body(new Uint8Array(bytes), 200, { 'Content-Type': value.contentType, 'Content-Length': String(bytes.byteLength) });
  }

  router.openapi(screenshotRoute, async (c) => {
    const body = c.req.valid('json');
    const { screenshotOptions: options, viewport } = body;
    const limits = ctx.config.web.screenshot;
    const scale = viewport.deviceScaleFactor;
    const problem = requestedAreaProblem(toContextOptions(body, viewport).viewport ?? viewport, scale, options, limits);
    if (problem) throw validationError([{ code: 'too_big', path: problem.path, message: problem.message }]);
    return capture(c, 'screenshot', body, { options, viewport }, viewport, async ({ page }) => {
      const shot = await captureScreenshot(page, options, scale, limits);
      return {
        bytes: shot.bytes,
        contentType: shot.contentType,
        extension: options.type === 'jpeg' ? 'jpg' : options.type,
        extra: { width: shot.width, height: shot.height, truncated: shot.truncated },
        warnings: shot.truncated ? [truncatedScreenshot(limits)] : [],
      };
    });
  });

  router.openapi(pdfRoute, async (c) => {
    const body = c.req.valid('json');
    const maxPages = ctx.config.web.pdfMaxPages;
    return capture(c, 'pdf', body, { options: body.pdfOptions }, undefined, async ({ page }) => {
      const pdf = await renderPdf(page, body.pdfOptions, maxPages);
      const warnings = pdf.truncated ? [{ code: 'ANSWER_TRUNCATED' as const, message: `The document was longer than this service's bound of ${maxPages} pages (PDF_MAX_PAGES); the PDF has its first ${maxPages}` }] : [];
      return { bytes: pdf.bytes, contentType: 'application/pdf', extension: 'pdf', extra: { pages: pdf.pages }, warnings };
    });
  });

  return router;
}

function truncatedScreenshot(limits: ScreenshotLimits): PageWarning {
  return {
    code: 'ANSWER_TRUNCATED',
    message: `The area was larger than this service's screenshot bounds (${limits.maxWidth} wide, ${limits.maxHeight} high, ${limits.maxPixels} pixels in all, in device pixels); the image shows its top left part`,
  };
}
