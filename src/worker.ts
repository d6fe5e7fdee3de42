import { ConfigError, loadConfig } from './config.js';
import { closeContext, createContext } from './container.js';

/**
 * `npm run worker`: a process that runs jobs and serves nothing. It shares the database (and the
 * file store) with the API instances, which may then run with JOBS_RUNNER=off; any number of
 * workers can run, on other machines too with PostgreSQL, since each job is leased to one runner.
 */
async function main() {
  const config = loadConfig({ ...process.env, JOBS_RUNNER: 'embedded' });
  const ctx = await createContext(config);
  ctx.logger.info({ runner: ctx.jobRunner?.owner, database: ctx.database.dialect }, 'pluck worker running jobs');
  // The runner's timers do not hold a process open (an API process or a test ends when it is
  // done); a worker has nothing else to hold it while no job runs, and would exit at once.
  const keepAlive = setInterval(() => undefined, 60_000);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    clearInterval(keepAlive);
    ctx.logger.info({ signal }, 'worker stopping: giving running jobs back');
    const deadline = setTimeout(() => process.exit(1), config.shutdownGraceMs + 10_000);
    deadline.unref();
    void closeContext(ctx).then(() => process.exit(0));
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error) => {
  process.stderr.write(error instanceof ConfigError ? `${error.message}\n` : `pluck worker failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
