import { serve } from '@hono/node-server';
import { createApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { closeContext, createContext } from './container.js';

/** Time allowed after the drain to close browsers, pools and connections. */
const SHUTDOWN_CLEANUP_MS = 10_000;
/** While draining, how often connections whose last answer went out are closed. */
const IDLE_SWEEP_MS = 250;

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
    // /ready answers 503 from now on; load balancers that poll it get SHUTDOWN_DELAY_MS to notice.
    ctx.lifecycle.startDraining();
    ctx.logger.info({ signal, delayMs: config.shutdownDelayMs }, 'shutting down: draining in-flight requests');
    // Whatever hangs (a stuck dependency while closing), the process is gone by then.
    const deadline = setTimeout(() => {
      ctx.logger.error('shutdown did not finish in time; exiting');
      process.exit(1);
    }, config.shutdownDelayMs + config.shutdownGraceMs + SHUTDOWN_CLEANUP_MS);
    deadline.unref();
    setTimeout(() => {
      const force = setTimeout(() => {
        ctx.logger.warn('drain timed out; closing remaining connections');
        if ('closeAllConnections' in server) server.closeAllConnections();
      }, config.shutdownGraceMs);
      force.unref();
      // No new connections from here on; answers already being worked on still go out.
      server.close(async () => {
        await closeContext(ctx);
        ctx.logger.info('stopped');
        process.exit(0);
      });
      // A keep-alive connection (a load balancer's) turns idle once its answer is out; without
      // this sweep it would hold the process until its keep-alive timeout.
      const idleSweep = setInterval(() => {
        if ('closeIdleConnections' in server) server.closeIdleConnections();
      }, IDLE_SWEEP_MS);
      idleSweep.unref();
      if ('closeIdleConnections' in server) server.closeIdleConnections();
    }, config.shutdownDelayMs);
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
