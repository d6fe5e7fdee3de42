import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { allResults, waitForJob } from './job-client.js';

const PAGES = 24;

describe('a job outlives the process running it', () => {
  let site: RecordingServer;
  let dataDir: string;
  const processes: ServerProcess[] = [];

  beforeAll(async () => {
    site = await startRecordingServer(
      Object.fromEntries(
        Array.from({ length: PAGES }, (_, i) => [
          `/item/${i}`,
          (_req, res) => void setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(`<main><h1>Item ${i}</h1><p>Item ${i} text.</p></main>`), 300),
        ]),
      ),
    );
    dataDir = await mkdtemp(join(tmpdir(), 'pluck-jobs-resume-'));
  });
  afterAll(async () => {
    for (const child of processes) child.child.kill('SIGKILL');
    await site?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const start = async () => {
    const started = await startServerProcess({
      DATA_DIR: dataDir,
      PUBLIC_BASE_URL: 'http://127.0.0.1:1',
      AUTH_SECRET: 'resume-test-secret-long-enough-for-better-auth',
      ALLOW_PRIVATE_HOSTS: site.hostPort,
      JOB_LEASE_SECONDS: '2',
      JOB_POLL_INTERVAL_MS: '200',
      JOB_CONCURRENCY: '2',
    });
    processes.push(started);
    return started;
  };

  it('is taken up again after its server is killed mid-run, and completes with each URL once', async () => {
    const first = await start();
    let api = apiClient(first.baseUrl, null);
    const { key } = await api.signUpWithKey();
    const urls = Array.from({ length: PAGES }, (_, i) => `${site.origin}/item/${i}`);
    const create = await api.post('/v1/jobs/batch', { urls, formats: ['markdown'], waitUntil: 'domcontentloaded' }, key);
    expect(create.status, create.text).toBe(201);
    const id = create.body.data.id as string;
    // Kill it once some pages are done and others are not: no shutdown, no lease given back.
    let progress = { completed: 0 };
    for (let polls = 0; ; polls += 1) {
      progress = (await api.get(`/v1/jobs/${id}`, key)).body.data.progress;
      if (progress.completed >= 3) break;
      if (polls > 600) throw new Error('the job made no progress');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    first.child.kill('SIGKILL');
    await first.exited;
    expect(progress.completed).toBeLessThan(PAGES);

    const second = await start();
    api = apiClient(second.baseUrl, null);
    const job = await waitForJob(api, key, id, 90_000);
    expect(job).toMatchObject({ status: 'completed', progress: { total: PAGES, completed: PAGES, failed: 0 } });
    const results = await allResults(api, key, id);
    expect(results.map((result) => result.url).sort()).toEqual([...urls].sort());
    expect(results.every((result) => result.data.markdown.includes('text.'))).toBe(true);
  }, 180_000);
});
