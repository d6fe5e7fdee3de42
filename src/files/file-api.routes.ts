import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '../http/envelope.js';
import { authedErrors, bearerSecurity, createRouter, envelope, json, jsonBody } from '../http/openapi.js';
import type { FileServices } from './file-services.js';
import type { Guards } from '../http/guards.js';

/** A query-string integer: digits only (no signs, spaces, exponents or hex), then range-checked. */
const queryInteger = (range: z.ZodNumber) =>
  z
    .string()
    .regex(/^\d{1,9}$/, 'Expected a whole number')
    .transform(Number)
    .pipe(range);

const ListQuery = z.strictObject({
  type: z.enum(['screenshot', 'pdf']).optional().openapi({ description: 'Only files of this type' }),
  limit: queryInteger(z.number().int().min(1).max(100))
    .default(20)
    .openapi({ type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'Page size' }),
  offset: queryInteger(z.number().int().min(0))
    .default(0)
    .openapi({ type: 'integer', minimum: 0, default: 0, description: 'Files to skip' }),
  sortBy: z.enum(['created_at', 'filename']).default('created_at'),
  sortOrder: z.enum(['asc', 'desc']).default('desc'),
});

const FileRecordSchema = z
  .object({
    id: z.string(),
    type: z.enum(['screenshot', 'pdf']),
    url: z.string(),
    filename: z.string(),
    r2_key: z.string(),
    public_url: z.string(),
    metadata: z.string().openapi({ description: 'JSON text' }),
    created_at: z.string(),
    expires_at: z.string(),
  })
  .openapi('FileRecord');

const ListData = z.object({
  sqliteStatus: z.object({
    enabled: z.boolean().openapi({ description: 'File records are kept in the database (always true)' }),
    available: z.boolean().openapi({ description: 'The records store answered this request' }),
    userId: z.string(),
  }),
  files: z.array(FileRecordSchema),
  totalFiles: z.number().openapi({ description: 'All of the caller’s unexpired files matching `type`' }),
  hasMore: z.boolean(),
});

const DeleteBody = z.object({
  fileId: z.string().min(1).max(255),
  deleteFromR2: z.boolean().default(false).openapi({
    description: 'Also remove the stored object now; otherwise it stays (and its URL works) until the file would have expired',
  }),
});

const DeleteData = z.object({
  fileId: z.string(),
  wasFound: z.boolean(),
  deletedFromDatabase: z.boolean(),
  deletedFromR2: z.boolean(),
  deletedFile: FileRecordSchema.nullable(),
  error: z.string().nullable(),
});

const listRoute = createRoute({
  method: 'get',
  path: '/v1/files/list',
  tags: ['Files'],
  summary: "The caller's stored screenshots and PDFs, a page at a time",
  security: bearerSecurity,
  request: { query: ListQuery },
  responses: { 200: json(envelope(ListData), 'Files'), ...authedErrors },
});

const deleteRoute = createRoute({
  method: 'post',
  path: '/v1/files/delete',
  tags: ['Files'],
  summary: 'Delete one of your files (an unknown or foreign id answers wasFound: false)',
  security: bearerSecurity,
  request: jsonBody(DeleteBody),
  responses: { 200: json(envelope(DeleteData), 'What was deleted'), ...authedErrors },
});

/** What this module's routes use of the running service. */
type Services = Pick<FileServices, 'files'>;

export function fileApiRoutes(ctx: Services, { requireAuth }: Guards) {
  const router = createRouter();

  router.openapi({ ...listRoute, middleware: requireAuth }, async (c) => {
    const query = c.req.valid('query');
    const userId = c.get('principal').userId;
    const { files, total } = await ctx.files.list(userId, query);
    return ok(c, {
      sqliteStatus: { enabled: true, available: true, userId },
      files,
      totalFiles: total,
      hasMore: query.offset + files.length < total,
    });
  });

  router.openapi({ ...deleteRoute, middleware: requireAuth }, async (c) => {
    const { fileId, deleteFromR2 } = c.req.valid('json');
    const result = await ctx.files.delete(c.get('principal').userId, fileId, deleteFromR2);
    const { deletedFromStorage, ...rest } = result;
    return ok(c, { fileId, ...rest, deletedFromR2: deletedFromStorage });
  });

  return router;
}
