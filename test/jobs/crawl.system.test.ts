import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { type FixtureSite, ORPHANS, startFixtureSite } from './fixture-site.js';
import { allResults, waitForJob } from './job-client.js';

/** The cheapest output (a crawl reads links anyway) and no settle wait: 200 pages take seconds, not minutes. */
const FAST = { formats: ['links'], waitUntil: 'domcontentloaded' };

describe('crawl and map jobs over a fixture site on loopback', () => {
  let site: FixtureSite;
  let refused: RecordingServer;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let key: string;

  beforeAll(async () => {
    refused = await startRecordingServer();
    site = await startFixtureSite(refused.origin);
    server = await startTestServer('sqlite', {
      ALLOW_PRIVATE_HOSTS: site.server.hostPort,
      JOB_CONCURRENCY: '4',
      JOBS_GLOBAL_CONCURRENCY: '4',
      JOB_POLL_INTERVAL_MS: '200',
      LOG_LEVEL: 'warn',
    });
    api = apiClient(server.baseUrl);
    ({ key } = await api.signUpWithKey());
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all([site?.close(), refused?.close()]);
  });

  it('crawls 200+ pages: sitemaps, robots.txt, loops, URL variants, a redirect, a broken link, and never a refused address', async () => {
    const balanceBefore = (await api.get('/v1/user/credits', key)).body.data.balance as number;
    const started = Date.now();
    const create = await api.post('/v1/jobs/crawl', { url: `${site.server.origin}/`, limit: 400, ...FAST }, key);
    expect(create.status, create.text).toBe(201);
    expect(create.body.data).toMatchObject({ kind: 'crawl', status: 'queued' });
    const job = await waitForJob(api, key, create.body.data.id, 120_000);
    const seconds = (Date.now() - started) / 1000;
    expect(job.status, JSON.stringify(job)).toBe('completed');
    const results = await allResults(api, key, job.id, 37);
    const byUrl = new Map(results.map((result) => [result.url, result]));
    expect(byUrl.size, 'each URL once').toBe(results.length);
    const loaded = results.filter((result) => result.status === 'completed').map((result) => result.url);
    expect(loaded).toEqual(expect.arrayContaining(site.pageUrls));
    // Robots: nothing under /private was loaded (nor asked of the site).
    expect(results.some((result) => result.url.includes('/private'))).toBe(false);
    expect(site.server.hits.some((hit) => hit.path.startsWith('/private'))).toBe(false);
    // The refused loopback port and the metadata address: checked, refused, never connected to.
    expect(refused.hits).toHaveLength(0);
    expect(byUrl.get(`${refused.origin}/evil`)).toMatchObject({ status: 'failed', error: { code: 'URL_NOT_ALLOWED' }, creditsCost: 0 });
    expect([...byUrl.keys()].some((url) => url.includes('169.254.169.254')), 'off-site links are not followed').toBe(false);
    // The broken link answers with its status; the redirect ends on a page already known.
    expect(byUrl.get(`${site.server.origin}/missing`)).toMatchObject({ status: 'completed', data: { metadata: { statusCode: 404 } } });
    expect(byUrl.get(`${site.server.origin}/old`)?.data?.metadata?.finalUrl).toBe(`${site.server.origin}/page/0-0`);
    // URL variants (fragment, trailing slash) are one page: loaded once, plus once through the redirect.
    expect(site.server.hitsTo('/page/0-0').length).toBeLessThanOrEqual(2);
    expect(loaded.filter((url) => url.startsWith(`${site.server.origin}/orphan/`))).toHaveLength(ORPHANS);
    // Progress and credits add up, and each page was charged like a single request.
    expect(job.progress).toEqual({ total: results.length, completed: loaded.length, failed: results.length - loaded.length });
    const spent = results.reduce((sum, result) => sum + result.creditsCost, 0);
    expect(job.creditsUsed).toBe(spent);
    expect(spent).toBe(loaded.length);
    const balanceAfter = (await api.get('/v1/user/credits', key)).body.data.balance as number;
    expect(balanceBefore - balanceAfter).toBe(spent);
    expect(byUrl.get(`${site.server.origin}/page/5-5`)?.data?.links).toContain(`${site.server.origin}/page/5-6`);
    process.stdout.write(`crawl: ${loaded.length} pages in ${seconds.toFixed(1)} s = ${Math.round((loaded.length / seconds) * 60)} pages/minute\n`);
  }, 150_000);
});
