import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { adminRoutes } from './accounts/admin.routes.js';
import { aiExtractRoutes } from './ai/ai-extract.routes.js';
import { userRoutes } from './accounts/user.routes.js';
import { apiKeyRoutes } from './auth/api-keys.routes.js';
import { authRoutes } from './auth/auth.routes.js';
import { captionsRoutes } from './captions/captions.routes.js';
import type { AppContext } from './container.js';
import { fileServingRoutes } from './files/files.routes.js';
import { firecrawlJobRoutes } from './firecrawl/firecrawl-jobs.routes.js';
import { firecrawlRoutes } from './firecrawl/firecrawl.routes.js';
import { fileApiRoutes } from './files/file-api.routes.js';
import { clearCacheRoutes } from './cache/clear-cache.routes.js';
import { healthRoutes } from './health.routes.js';
import { httpMetrics } from './http/http-metrics.js';
import { metricsRoutes } from './metrics/metrics.routes.js';
import { captureRoutes } from './web/capture.routes.js';
import { pageRoutes } from './web/page.routes.js';
import { pageFormatsRoutes } from './web/page-formats.routes.js';
import { readerRoutes } from './web/reader.routes.js';
import { mcpRoutes } from './mcp/mcp.routes.js';
import { scrapeRoutes } from './web/scrape.routes.js';
import type { AppEnv } from './http/context.js';
import { mountApiDocs } from './http/api-docs.js';
import { serveDashboard } from './http/dashboard.js';
import { handleError, handleNotFound } from './http/error-handler.js';
import { AppError } from './errors/app-error.js';
import { type Guards, identify, requireAuth } from './http/guards.js';
import { requestContext } from './http/request-context.js';
import { rejectMalformedJson } from './http/json-body.js';
import { installZodMessages, validationHook } from './http/validation.js';
import { searchRoutes } from './search/search.routes.js';
import { jobDownloadRoutes } from './jobs/job-download.routes.js';
import { jobRoutes } from './jobs/jobs.routes.js';

/** The HTTP application: middleware order, route mounting and the API description. */
export function createApp(ctx: AppContext) {
  installZodMessages();
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  app.use('*', requestContext(ctx.logger));
  app.use('*', httpMetrics(ctx.metrics));
  app.use(
    '*',
    bodyLimit({
      maxSize: ctx.config.maxBodyBytes,
      onError: () => {
        throw new AppError('PAYLOAD_TOO_LARGE', `Request body exceeds ${ctx.config.maxBodyBytes} bytes`);
      },
    }),
  );
  app.use('*', rejectMalformedJson());

  const guards: Guards = {
    requireAuth: requireAuth(ctx.authenticator, ctx.rateLimiter, ctx.config),
    requireAuthCounting: (cost) => requireAuth(ctx.authenticator, ctx.rateLimiter, ctx.config, cost),
    identify: identify(ctx.authenticator),
  };

  // Each route module names the services it uses in its own type: it is given the context, and sees only those.
  app.route('/', healthRoutes(ctx));
  app.route('/', metricsRoutes(ctx));
  app.route('/', authRoutes(ctx));
  app.route('/', fileServingRoutes(ctx));
  app.route('/', userRoutes(ctx, guards));
  app.route('/', apiKeyRoutes(ctx, guards));
  app.route('/', adminRoutes(ctx, guards));
  app.route('/', captureRoutes(ctx, guards));
  app.route('/', pageRoutes(ctx, guards));
  app.route('/', pageFormatsRoutes(ctx, guards));
  app.route('/', readerRoutes(ctx, guards));
  app.route('/', mcpRoutes(ctx, guards));
  app.route('/', scrapeRoutes(ctx, guards));
  app.route('/', aiExtractRoutes(ctx, guards));
  app.route('/', searchRoutes(ctx, guards));
  app.route('/', captionsRoutes(ctx, guards));
  app.route('/', fileApiRoutes(ctx, guards));
  app.route('/', clearCacheRoutes(ctx, guards));
  app.route('/', jobRoutes(ctx, guards));
  app.route('/', jobDownloadRoutes(ctx, guards));
  app.route('/', firecrawlRoutes(ctx, guards));
  app.route('/', firecrawlJobRoutes(ctx, guards));

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'An API key (pk_...) or a session token',
  });
  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Pluck API',
      version: '1.0.0',
      description: 'Web content extraction: screenshots, PDFs, HTML, markdown, scraping, search and more.',
    },
    servers: [{ url: ctx.config.publicBaseUrl }],
  });
  mountApiDocs(app);
  // Last, so every API route wins; it answers only non-API GETs (the dashboard's files and pages).
  app.get(
    '*',
    serveDashboard({
      dashboardDir: ctx.config.dashboardDir,
      fileBaseUrls: [ctx.config.publicBaseUrl, ctx.config.s3?.publicUrl],
      logger: ctx.logger,
    }),
  );

  app.notFound(handleNotFound);
  app.onError(handleError);
  return app;
}

export type App = ReturnType<typeof createApp>;
