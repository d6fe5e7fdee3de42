import { serve } from '@hono/node-server';
import { createApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { closeContext, createContext } from './container.js';

/** Entry point: config -> context -> app -> listen; drains in-flight requests on SIGTERM. */
async function main() {
  const config = loadConfig(process.env);
  const ctx = await createContext(config);
  const app = createApp(ctx);
  ctx.fileSweeper.start(config.files.sweepIntervalSeconds);
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    ctx.logger.info({ host: config.host, port: info.port, database: ctx.database.dialect }, 'pluck listening');
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    ctx.logger.info({ signal }, 'shutting down: draining in-flight requests');
    const force = setTimeout(() => {
      ctx.logger.warn('drain timed out; closing remaining connections');
      if ('closeAllConnections' in server) server.closeAllConnections();
    }, config.shutdownGraceMs);
    force.unref();
    server.close(async () => {
      await closeContext(ctx);
      ctx.logger.info('stopped');
      process.exit(0);
    });
    if ('closeIdleConnections' in server) server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`pluck failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  }
  process.exit(1);
});
