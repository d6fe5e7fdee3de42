import { createRoute, z } from '@hono/zod-openapi';
import { createRouter, errorResponse } from '../http/openapi.js';
import { notFound } from '../errors/app-error.js';
import { FILES_PATH } from './file.service.js';
import type { FileServices } from './file-services.js';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const FILENAME = /^[A-Za-z0-9._-]{1,255}$/;

const serveRoute = createRoute({
  method: 'get',
  path: `${FILES_PATH}/{token}/{filename}`,
  tags: ['Files'],
  summary: "A stored file's public URL (permanentUrl): no credentials, the token is the capability",
  request: {
    params: z.object({
      token: z.string().openapi({ param: { name: 'token', in: 'path' } }),
      filename: z.string().openapi({ param: { name: 'filename', in: 'path' } }),
    }),
  },
  responses: {
    200: {
      description: 'The file, with its stored content type',
      content: {
        'image/png': { schema: z.string().openapi({ format: 'binary' }) },
        'application/pdf': { schema: z.string().openapi({ format: 'binary' }) },
      },
    },
    404: errorResponse('No such file, or it expired'),
  },
});

/** What this module's routes use of the running service. */
type Services = Pick<FileServices, 'files'>;

/**
 * Public URLs of stored files. The 256-bit token in the path is the capability, as with a
 * pre-signed bucket URL. Served with the stored content type and never sniffed.
 */
export function fileServingRoutes(ctx: Services) {
  const router = createRouter();
  router.openapi(serveRoute, async (c) => {
    const { token, filename } = c.req.valid('param');
    if (!TOKEN.test(token) || !FILENAME.test(filename)) throw notFound('File');
    const blob = await ctx.files.openPublic(token, filename);
    if (!blob) throw notFound('File');
    return c.body(new Uint8Array(blob.body), 200, {
      'Content-Type': blob.contentType,
      'Content-Length': String(blob.body.byteLength),
      'Content-Disposition': `inline; filename="${filename}"`,
      'Cache-Control': 'private, max-age=3600',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    });
  });
  return router;
}
