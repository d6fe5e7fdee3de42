import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { type RecordingServer, type RouteHandler, startRecordingServer } from '../helpers/recording-server.js';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { startWorkerProcess } from './worker-process.js';
import { allResults, waitForJob } from './job-client.js';

const PAGES = 24;

describe('a job outlives the process running it', () => {
  let site: RecordingServer;
  let dataDir: string;
  const processes: ServerProcess[] = [];

  beforeAll(async () => {
    const index = `<main><h1>Items</h1><p>Every item of the site.</p>${Array.from({ length: PAGES }, (_, i) => `<a href="/item/${i}">Item ${i}</a>`).join(' ')}</main>`;
    const routes: Record<string, RouteHandler> = { '/': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(index) };
    for (let i = 0; i < PAGES; i += 1) {
      routes[`/item/${i}`] = (_req, res) => void setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(`<main><h1>Item ${i}</h1><p>Item ${i} text.</p></main>`), 300);
    }
    site = await startRecordingServer(routes);
    dataDir = await mkdtemp(join(tmpdir(), 'pluck-jobs-resume-'));
  });
  afterAll(async () => {
    for (const child of processes) child.child.kill('SIGKILL');
    await site?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const env = () => ({
    DATA_DIR: dataDir,
    PUBLIC_BASE_URL: 'http://127.0.0.1:1',
    AUTH_SECRET: 'resume-test-secret-long-enough-for-better-auth',
    ALLOW_PRIVATE_HOSTS: site.hostPort,
    JOB_LEASE_SECONDS: '2',
    JOB_POLL_INTERVAL_MS: '200',
    JOB_CONCURRENCY: '2',
  });
  const start = async (extra: Record<string, string> = {}) => {
    const started = await startServerProcess({ ...env(), ...extra });
    processes.push(started);
    return started;
  };
  const startWorker = async () => {
    const worker = await startWorkerProcess(env());
    processes.push({ ...worker, baseUrl: '' });
    return worker;
  };

  it('is taken up by a worker process after its server is killed mid-run, and completes with each URL once', async () => {
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

    // An API process that runs no jobs, and a worker that does: only the worker can finish it.
    const [second, worker] = await Promise.all([start({ JOBS_RUNNER: 'off' }), startWorker()]);
    api = apiClient(second.baseUrl, null);
    const job = await waitForJob(api, key, id, 90_000);
    expect(job).toMatchObject({ status: 'completed', progress: { total: PAGES, completed: PAGES, failed: 0 } });
    const results = await allResults(api, key, id);
    expect(results.map((result) => result.url).sort()).toEqual([...urls].sort());
    expect(results.every((result) => result.data.markdown.includes('text.'))).toBe(true);
    // A worker stops cleanly on SIGTERM.
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  }, 180_000);

  it('is taken over by another worker when the worker running a crawl is killed mid-crawl', async () => {
    // An API process that runs no jobs: workers run them.
    const api = apiClient((await start({ JOBS_RUNNER: 'off' })).baseUrl, null);
    const { key } = await api.signUpWithKey();
    const doomed = await startWorker();
    const create = await api.post('/v1/jobs/crawl', { url: `${site.origin}/`, sitemap: 'skip', formats: ['markdown'], waitUntil: 'domcontentloaded' }, key);
    expect(create.status, create.text).toBe(201);
    const id = create.body.data.id as string;
    let progress = { completed: 0 };
    let state = '';
    for (let polls = 0; ; polls += 1) {
      ({ progress, status: state } = (await api.get(`/v1/jobs/${id}`, key)).body.data);
      if (progress.completed >= 4) break;
      if (polls > 600) throw new Error(`the crawl made no progress: ${state} ${JSON.stringify(progress)} ${doomed.output.join('').slice(-3000)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    expect(progress.completed).toBeLessThan(PAGES + 1);

    const successor = await startWorker();
    const job = await waitForJob(api, key, id, 90_000);
    expect(job).toMatchObject({ status: 'completed', progress: { total: PAGES + 1, completed: PAGES + 1, failed: 0 } });
    const crawled = (await allResults(api, key, id)).map((result) => result.url);
    expect(new Set(crawled).size).toBe(crawled.length);
    expect(crawled.sort()).toEqual([`${site.origin}/`, ...Array.from({ length: PAGES }, (_, i) => `${site.origin}/item/${i}`)].sort());
    successor.child.kill('SIGTERM');
    expect(await successor.exited).toBe(0);
  }, 180_000);

});
