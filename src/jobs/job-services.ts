import type { Logger } from 'pino';
import type { CreditStore } from '../accounts/credits.js';
import type { Authenticator } from '../auth/authenticator.js';
import type { BrowserEngine } from '../browser/browser-engine.js';
import type { Config } from '../config.js';
import type { DatabaseHandle } from '../db/database.js';
import type { PageOperations } from '../web/page-operations.js';
import { JobQueue } from './job-queue.js';
import { JobRunner } from './job-runner.js';
import { JobService } from './job.service.js';
import { JobStore } from './job-store.js';
import { SiteDiscovery } from './site-discovery.js';
import { WebhookSender } from './webhooks.js';

/** Batch, crawl and map jobs (docs/jobs.md). */
export interface JobServices {
  jobs: JobService;
  /** Runs jobs in this process (JOBS_RUNNER=embedded, the default); started here, stopped by closeContext. */
  jobRunner: JobRunner | undefined;
  /** With REDIS_URL (JOBS_QUEUE=auto or bullmq): announces new jobs to the runners through BullMQ. */
  jobQueue: JobQueue | undefined;
}

export interface JobDependencies {
  config: Config;
  database: DatabaseHandle;
  logger: Logger;
  credits: CreditStore;
  authenticator: Authenticator;
  pages: PageOperations;
  engine: BrowserEngine;
}

/** The jobs, and in an instance that runs them, the runner, started. */
export function createJobServices({ config, database, logger, credits, authenticator, pages, engine }: JobDependencies): JobServices {
  const store = new JobStore(database.db, credits, config.jobs);
  const jobQueue =
    config.jobs.queue === 'bullmq' && config.redisUrl
      ? new JobQueue({ redisUrl: config.redisUrl, keyPrefix: config.redis.keyPrefix }, logger.child({ component: 'job-queue' }))
      : undefined;
  const jobRunner =
    config.jobs.runner === 'embedded'
      ? new JobRunner({
          store,
          pages,
          policy: engine.addressPolicy,
          discovery: new SiteDiscovery(engine.guardedFetch.fetch, logger),
          config: config.jobs,
          plans: config.plans,
          loadUser: (userId) => authenticator.loadUser(userId),
          logger,
          webhooks: new WebhookSender(engine.guardedFetch.fetch, config.jobs, logger.child({ component: 'webhooks' })),
          queue: jobQueue,
        })
      : undefined;
  const jobs = new JobService(store, engine.addressPolicy, config, (jobId) => {
    void jobQueue?.add(jobId);
    jobRunner?.wake();
  });
  jobRunner?.start();
  return { jobs, jobRunner, jobQueue };
}
