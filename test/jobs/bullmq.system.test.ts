import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { TEST_REDIS_URL, testBackends } from '../helpers/redis.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { waitForJob } from './job-client.js';
import { startWorkerProcess, type WorkerProcess } from './worker-process.js';

const withRedis = (await testBackends()).includes('redis');

describe.skipIf(!withRedis)('jobs on BullMQ: an API process that runs none, two worker processes', () => {
  let site: RecordingServer;
  let server: TestServer;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    site = await startRecordingServer();
    const shared = {
      REDIS_URL: TEST_REDIS_URL,
      REDIS_KEY_PREFIX: `pluck-jobs-${process.pid}-${Date.now()}:`,
      ALLOW_PRIVATE_HOSTS: site.hostPort,
      // The database poll looks only at startup, and leaves queued jobs to the queue for 60 s:
      // a job that finishes sooner came through BullMQ.
      JOB_POLL_INTERVAL_MS: '600000',
      JOB_LEASE_SECONDS: '60',
    };
    server = await startTestServer('sqlite', { ...shared, JOBS_RUNNER: 'off', FREE_JOBS_AT_ONCE: '5', LOG_LEVEL: 'warn' });
    const workerEnv = { ...shared, DATA_DIR: server.ctx.config.dataDir, AUTH_SECRET: 'test-secret-that-is-long-enough-for-better-auth', JOB_CONCURRENCY: '2' };
    workers.push(...(await Promise.all([startWorkerProcess(workerEnv), startWorkerProcess(workerEnv)])));
  }, 120_000);
  afterAll(async () => {
    for (const worker of workers) worker.child.kill('SIGKILL');
    await server?.close();
    await site?.close();
  });

  it('hands each new job to a worker through the queue, which runs it to completion', async () => {
    expect(server.ctx.jobQueue).toBeDefined();
    expect(server.ctx.jobRunner).toBeUndefined();
    const api = apiClient(server.baseUrl);
    const { key } = await api.signUpWithKey();
    const ids: string[] = [];
    for (const batch of ['a', 'b', 'c']) {
      const urls = Array.from({ length: 4 }, (_, i) => `${site.origin}/${batch}/${i}`);
      const create = await api.post('/v1/jobs/batch', { urls, formats: ['markdown'], waitUntil: 'domcontentloaded' }, key);
      expect(create.status, create.text).toBe(201);
      ids.push(create.body.data.id);
    }
    for (const id of ids) {
      const job = await waitForJob(api, key, id, 45_000);
      expect(job).toMatchObject({ status: 'completed', progress: { total: 4, completed: 4, failed: 0 } });
    }
    const logs = workers.map((worker) => worker.output.join(''));
    for (const id of ids) expect(logs.filter((log) => log.includes(`"jobId":"${id}","runner"`)), `job ${id} ran on exactly one worker`).toHaveLength(1);
    for (const worker of workers) {
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
    }
  }, 120_000);
});
