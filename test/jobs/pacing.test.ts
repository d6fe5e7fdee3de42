import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { waitForJob } from './job-client.js';

const PAGES = ['/p1', '/p2', '/p3', '/p4', '/p5'];
const DELAY_MS = 400;

describe('jobs are paced: a politeness delay per host, and pages per hour per plan', () => {
  let site: RecordingServer;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  const pageStarts: number[] = [];

  beforeAll(async () => {
    const page = (body: string) => (_req: IncomingMessage, res: ServerResponse) => {
      pageStarts.push(Date.now());
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${body}</title><main><h1>${body}</h1><p>${body} has a few words of its own.</p>${PAGES.map((path) => `<a href="${path}">${path}</a>`).join(' ')}</main>`);
    };
    site = await startRecordingServer({ '/': page('Home'), ...Object.fromEntries(PAGES.map((path) => [path, page(`Page ${path}`)])) });
    server = await startTestServer('sqlite', {
      ALLOW_PRIVATE_HOSTS: site.hostPort,
      JOB_CONCURRENCY: '3',
      JOB_POLL_INTERVAL_MS: '200',
      FREE_JOB_PAGES_PER_HOUR: '4',
      LOG_LEVEL: 'warn',
    });
    api = apiClient(server.baseUrl, null);
  });
  afterAll(async () => {
    await server?.close();
    await site?.close();
  });

  it('loads pages of one host one at a time, delayMs apart, whatever the job concurrency', async () => {
    const { key } = await api.signUpWithKey();
    pageStarts.length = 0;
    const created = await api.post('/v1/jobs/crawl', { url: `${site.origin}/`, limit: 4, delayMs: DELAY_MS, sitemap: 'skip', waitUntil: 'domcontentloaded' }, key);
    expect(created.status, created.text).toBe(201);
    const job = await waitForJob(api, key, created.body.data.id);
    expect(job.progress).toMatchObject({ completed: 4, failed: 0 });
    expect(pageStarts).toHaveLength(4);
    const gaps = pageStarts.slice(1).map((start, index) => start - pageStarts[index]!);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(DELAY_MS - 10);
  });

  it("holds an account's jobs at the plan's pages per hour, as a pause rather than a failure", async () => {
    const { key } = await api.signUpWithKey();
    const urls = PAGES.map((path) => `${site.origin}${path}?budget=1`);
    const created = await api.post('/v1/jobs/batch', { urls, waitUntil: 'domcontentloaded' }, key);
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id;
    const deadline = Date.now() + 20_000;
    let job = (await api.get(`/v1/jobs/${id}?limit=1`, key)).body.data;
    while (job.progress.completed < 4 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      job = (await api.get(`/v1/jobs/${id}?limit=1`, key)).body.data;
    }
    expect(job.progress.completed).toBe(4);
    // The fifth page waits for the hour's window to move: still active, nothing more loaded.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    job = (await api.get(`/v1/jobs/${id}?limit=1`, key)).body.data;
    expect(job).toMatchObject({ status: 'active', progress: { total: 5, completed: 4, failed: 0 } });

    // Another account has its own budget.
    const other = await api.signUpWithKey();
    const theirs = await api.post('/v1/jobs/batch', { urls: [`${site.origin}/p1?other=1`], waitUntil: 'domcontentloaded' }, other.key);
    expect((await waitForJob(api, other.key, theirs.body.data.id)).status).toBe('completed');

    const cancelled = await api.request('DELETE', `/v1/jobs/${id}`, { token: key });
    expect(cancelled.body.data.status).toBe('cancelled');
  });
});
