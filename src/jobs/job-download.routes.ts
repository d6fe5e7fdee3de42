import { createRoute, z } from '@hono/zod-openapi';
import { callerOf } from '../http/context.js';
import { authedErrors, bearerSecurity, createRouter, errorResponse } from '../http/openapi.js';
import { jobDownload } from './job-download.js';
import type { JobServices } from './job-services.js';
import type { Guards } from '../http/guards.js';

const CONTENT_TYPES = { jsonl: 'application/x-ndjson', zip: 'application/zip' } as const;

/** What this module's routes use of the running service. */
type Services = Pick<JobServices, 'jobs'>;

/** `GET /v1/jobs/{id}/download`: a job's results in one file, for people and the dashboard. */
export function jobDownloadRoutes(ctx: Services, { requireAuth }: Guards) {
  const route = createRoute({
    method: 'get',
    path: '/v1/jobs/{id}/download',
    tags: ['Jobs'],
    summary: "A job's results in one file: JSON lines, or a zip of markdown files",
    description:
      'jsonl: one result per line, as GET /v1/jobs/{id} answers them. zip: each page\'s markdown as host/path.md, failed.jsonl with the pages that failed, and urls.txt for a map. Streamed; what is recorded so far while the job runs (X-Job-Status says its state). Free.',
    security: bearerSecurity,
    middleware: requireAuth,
    request: {
      params: z.object({ id: z.string().min(1).max(64).openapi({ param: { name: 'id', in: 'path' } }) }),
      query: z.object({ format: z.enum(['jsonl', 'zip']).default('jsonl') }),
    },
    responses: {
      200: {
        description: 'The file',
        content: { 'application/x-ndjson': { schema: z.string() }, 'application/zip': { schema: z.string().openapi({ format: 'binary' }) } },
      },
      ...authedErrors,
      404: errorResponse('No job of yours has this id'),
    },
  });

  const router = createRouter();
  router.openapi(route, async (c) => {
    const { id } = c.req.valid('param');
    const { format } = c.req.valid('query');
    // Checks the owner (404) before the answer starts, and tells the client where the job stands.
    const { job, reader } = await ctx.jobs.results(callerOf(c), id);
    return c.body(jobDownload(reader, format), 200, {
      'Content-Type': CONTENT_TYPES[format],
      'Content-Disposition': `attachment; filename="pluck-job-${id}.${format}"`,
      'X-Job-Status': job.status,
    });
  });
  return router;
}
