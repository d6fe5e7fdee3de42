import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { type FixtureSite, ORPHANS, startFixtureSite } from './fixture-site.js';
import { allResults, waitForJob } from './job-client.js';

const FAST = { waitUntil: 'domcontentloaded' };

describe('jobs: batch, map, crawl bounds, limits, ownership', () => {
  let site: FixtureSite;
  let slow: RecordingServer;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    slow = await startRecordingServer({
      // Holds every page for a while: jobs against it stay open long enough to be counted and cancelled.
      '/slow': (_req, res) => void setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>slow</p>'), 1500),
    });
    site = await startFixtureSite(slow.origin);
    server = await startTestServer('sqlite', {
      ALLOW_PRIVATE_HOSTS: `${site.server.hostPort},${slow.hostPort}`,
      FREE_JOBS_AT_ONCE: '2',
      FREE_JOB_MAX_PAGES: '50',
      JOB_CONCURRENCY: '2',
      JOB_LEASE_SECONDS: '3',
      JOB_POLL_INTERVAL_MS: '200',
      LOG_LEVEL: 'warn',
    });
    api = apiClient(server.baseUrl);
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all([site?.close(), slow?.close()]);
  });

  it('runs a batch of URLs with the formats of /v1/web/page, one result per URL, and only its owner sees it', async () => {
    const owner = await api.signUpWithKey();
    const other = await api.signUpWithKey();
    const origin = site.server.origin;
    const urls = [`${origin}/page/1-1`, `${origin}/page/1-1#again`, `${origin}/page/1-2`, `${origin}/missing`, 'http://169.254.169.254/latest/meta-data/'];
    const create = await api.post('/v1/jobs/batch', { urls, formats: ['markdown', 'links'], ...FAST }, owner.key);
    expect(create.status, create.text).toBe(201);
    const job = await waitForJob(api, owner.key, create.body.data.id);
    expect(job).toMatchObject({ kind: 'batch', status: 'completed', progress: { total: 4, completed: 3, failed: 1 }, creditsUsed: 3 });
    const results = await allResults(api, owner.key, job.id, 2);
    expect(results.map((result) => result.url).sort()).toEqual([urls[0], urls[2], urls[3], urls[4]].sort());
    const page = results.find((result) => result.url === urls[0])!;
    expect(page.data.markdown).toContain('Content of page 1-1');
    expect(page.data.links).toContain(`${origin}/page/1-2`);
    expect(page.data.metadata).toMatchObject({ statusCode: 200, finalUrl: urls[0] });
    expect(results.find((result) => result.url === urls[4])).toMatchObject({ status: 'failed', error: { code: 'URL_NOT_ALLOWED' }, creditsCost: 0 });

    expect((await api.get(`/v1/jobs/${job.id}`, other.key)).status).toBe(404);
    expect((await api.request('DELETE', `/v1/jobs/${job.id}`, { token: other.key })).status).toBe(404);
    const mine = await api.get('/v1/jobs', owner.key);
    expect(mine.body.data.jobs.map((listed: { id: string }) => listed.id)).toEqual([job.id]);
    expect((await api.get('/v1/jobs', other.key)).body.data.jobs).toEqual([]);
    expect((await api.get(`/v1/jobs/${job.id}`)).status).toBe(401);
  }, 60_000);

  it("maps a site from its sitemaps and the start page's links without loading its pages", async () => {
    const { key } = await api.signUpWithKey();
    const pagesBefore = site.server.hits.filter((hit) => hit.path.startsWith('/page/')).length;
    const create = await api.post('/v1/jobs/map', { url: `${site.server.origin}/` }, key);
    expect(create.status, create.text).toBe(201);
    const job = await waitForJob(api, key, create.body.data.id);
    expect(job).toMatchObject({ kind: 'map', status: 'completed', creditsUsed: 1 });
    const urls = (await allResults(api, key, job.id)).map((result) => result.url);
    const origin = site.server.origin;
    expect(urls).toEqual(expect.arrayContaining([`${origin}/`, `${origin}/section/0`, `${origin}/section/9`, `${origin}/orphan/0`, `${origin}/orphan/${ORPHANS - 1}`, `${origin}/page/3-3?a=1&b=2`]));
    expect(urls.some((url) => url.includes('/private'))).toBe(false);
    expect(new Set(urls).size).toBe(urls.length);
    expect(site.server.hits.filter((hit) => hit.path.startsWith('/page/')).length).toBe(pagesBefore);

    const limited = await api.post('/v1/jobs/map', { url: `${site.server.origin}/`, limit: 5 }, key);
    const limitedJob = await waitForJob(api, key, limited.body.data.id);
    expect(limitedJob.progress.total).toBe(5);
  }, 60_000);

  it('keeps a crawl within its limit, depth and path patterns', async () => {
    const { key } = await api.signUpWithKey();
    const create = await api.post(
      '/v1/jobs/crawl',
      { url: `${site.server.origin}/`, maxDepth: 1, includePaths: ['^/section/'], excludePaths: ['/section/9$'], sitemap: 'skip', formats: ['links'], ...FAST },
      key,
    );
    expect(create.status, create.text).toBe(201);
    const job = await waitForJob(api, key, create.body.data.id);
    const urls = (await allResults(api, key, job.id)).map((result) => result.url).sort();
    const origin = site.server.origin;
    expect(urls).toEqual([`${origin}/`, ...Array.from({ length: 9 }, (_, s) => `${origin}/section/${s}`)].sort());

    const limited = await api.post('/v1/jobs/crawl', { url: `${site.server.origin}/`, limit: 7, formats: ['links'], ...FAST }, key);
    const limitedJob = await waitForJob(api, key, limited.body.data.id);
    expect(limitedJob.progress).toMatchObject({ total: 7, completed: 7 });
  }, 60_000);

  it('refuses bad jobs with clear 4xx answers', async () => {
    const { key } = await api.signUpWithKey();
    const origin = site.server.origin;
    const badPattern = await api.post('/v1/jobs/crawl', { url: `${origin}/`, includePaths: ['(unclosed'] }, key);
    expect(badPattern.status, badPattern.text).toBe(422);
    expect(badPattern.body.error.issues[0].path).toEqual(['includePaths', 0]);
    const longPattern = await api.post('/v1/jobs/crawl', { url: `${origin}/`, excludePaths: ['a'.repeat(201)] }, key);
    expect(longPattern.status).toBe(422);
    const tooMany = await api.post('/v1/jobs/batch', { urls: Array.from({ length: 51 }, (_, i) => `${origin}/page/0-${i}`) }, key);
    expect(tooMany.status, tooMany.text).toBe(422);
    expect(tooMany.body.error.issues[0]).toMatchObject({ path: ['urls'], message: 'At most 50 pages per job on the free plan' });
    const overLimit = await api.post('/v1/jobs/crawl', { url: `${origin}/`, limit: 51 }, key);
    expect(overLimit.status).toBe(422);
    const refused = await api.post('/v1/jobs/crawl', { url: 'http://169.254.169.254/' }, key);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.error.code).toBe('URL_NOT_ALLOWED');
    const refusedHook = await api.post('/v1/jobs/map', { url: `${origin}/`, webhook: { url: 'http://127.0.0.1:9/hook' } }, key);
    expect(refusedHook.status, refusedHook.text).toBe(400);
    const unknownFormat = await api.post('/v1/jobs/batch', { urls: [`${origin}/`], formats: ['video'] }, key);
    expect(unknownFormat.status).toBe(422);
    expect((await api.get('/v1/jobs/not-a-job', key)).status).toBe(404);
    expect((await api.get(`/v1/jobs/x?cursor=abc`, key)).status).toBe(422);
  });

  it('bounds the jobs an account has open at once, and cancels a running job', async () => {
    const { key } = await api.signUpWithKey();
    const slowBatch = { urls: Array.from({ length: 10 }, (_, i) => `${slow.origin}/slow?n=${i}`), formats: ['links'] };
    const first = await api.post('/v1/jobs/batch', slowBatch, key);
    const second = await api.post('/v1/jobs/batch', slowBatch, key);
    expect([first.status, second.status]).toEqual([201, 201]);
    const third = await api.post('/v1/jobs/batch', slowBatch, key);
    expect(third.status, third.text).toBe(429);
    expect(third.body.error.code).toBe('JOB_LIMIT_REACHED');

    const cancel = await api.request('DELETE', `/v1/jobs/${first.body.data.id}`, { token: key });
    expect(cancel.status, cancel.text).toBe(200);
    expect(cancel.body.data.status).toBe('cancelled');
    const after = await api.post('/v1/jobs/batch', slowBatch, key);
    expect(after.status, after.text).toBe(201);
    // The cancelled job's runner lets go of it: no results are written after a short while.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const settled = (await api.get(`/v1/jobs/${first.body.data.id}`, key)).body.data;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const later = (await api.get(`/v1/jobs/${first.body.data.id}`, key)).body.data;
    expect(later.status).toBe('cancelled');
    expect(later.progress).toEqual(settled.progress);
    expect(later.progress.completed).toBeLessThan(10);
    for (const id of [second.body.data.id, after.body.data.id]) await api.request('DELETE', `/v1/jobs/${id}`, { token: key });
  }, 60_000);
});
