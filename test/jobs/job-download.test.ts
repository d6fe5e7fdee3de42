import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markdownFileName, type NameBook, uniqueName } from '../../src/jobs/job-download.js';
import { apiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { type FixtureSite, startFixtureSite } from './fixture-site.js';
import { allResults, waitForJob } from './job-client.js';

describe('GET /v1/jobs/{id}/download: a job in one file', () => {
  let site: FixtureSite;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let owner: { key: string };
  let jobId: string;
  let urls: string[];

  beforeAll(async () => {
    site = await startFixtureSite('http://127.0.0.1:9');
    server = await startTestServer('sqlite', { ALLOW_PRIVATE_HOSTS: site.server.hostPort, JOB_POLL_INTERVAL_MS: '200', LOG_LEVEL: 'warn' });
    api = apiClient(server.baseUrl, null);
    owner = await api.signUpWithKey();
    const origin = site.server.origin;
    // More pages than one step of the download reads (50), a page given twice under two names, and one that fails.
    urls = [...Array.from({ length: 60 }, (_, i) => `${origin}/page/${i % 10}-${Math.floor(i / 10)}`), `${origin}/page/0-0?copy=1`, 'http://169.254.169.254/'];
    const created = await api.post('/v1/jobs/batch', { urls, formats: ['markdown'], waitUntil: 'domcontentloaded' }, owner.key);
    expect(created.status, created.text).toBe(201);
    jobId = created.body.data.id;
    await waitForJob(api, owner.key, jobId);
  });
  afterAll(async () => {
    await server?.close();
    await site?.close();
  });

  const download = (format: string, key = owner.key) => fetch(`${server.baseUrl}/v1/jobs/${jobId}/download?format=${format}`, { headers: { authorization: `Bearer ${key}` } });

  it('streams JSON lines: every result once, as the status route answers them', async () => {
    const res = await download('jsonl');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="pluck-job-${jobId}.jsonl"`);
    expect(res.headers.get('x-job-status')).toBe('completed');
    const lines = (await res.text()).trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(lines).toEqual(await allResults(api, owner.key, jobId, 100));
    expect(lines).toHaveLength(urls.length);
  });

  it("answers a zip of each page's markdown, named after its URL, with the failures listed", async () => {
    const res = await download('zip');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const names = Object.keys(files);
    expect(names).toHaveLength(urls.length - 1 + 1); // every page that loaded, and failed.jsonl
    const host = new URL(site.server.origin).hostname;
    const first = new TextDecoder().decode(files[`${host}/page/0-0.md`]);
    expect(first).toContain('Content of page 0-0');
    expect(names).toContain(`${host}/page/0-0_copy_1.md`);
    const failed = new TextDecoder().decode(files['failed.jsonl']).trim().split('\n').map((line) => JSON.parse(line));
    expect(failed).toEqual([{ url: 'http://169.254.169.254/', error: expect.objectContaining({ code: 'URL_NOT_ALLOWED' }) }]);
  });

  it("refuses another account's job and a format it does not make", async () => {
    const stranger = await api.signUpWithKey();
    expect((await download('zip', stranger.key)).status).toBe(404);
    const bad = await download('tar');
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_ERROR');
  });

  it('names files safely whatever the URL', () => {
    expect(markdownFileName('https://example.com/')).toBe('example.com/index.md');
    expect(markdownFileName('https://example.com/a/../../etc/passwd')).toBe('example.com/etc/passwd.md');
    expect(markdownFileName('https://example.com/%2e%2e/%2e%2e/x')).not.toMatch(/\.\.\//);
    expect(markdownFileName('https://example.com/docs/?q=a b&c=<d>')).toBe('example.com/docs/_q_a_20b_c_3Cd_3E.md');
  });

  it("names a crawled site's hostile URLs in linear time", () => {
    // A run of slashes that does not end the URL: `/\/+$/` tried it from each slash (10 s here).
    const started = performance.now();
    expect(markdownFileName(`https://example.com/?q=${'/'.repeat(100_000)}a/`)).toBe("example.com/_q_/a.md");
    // 5,000 URLs alike in their first 150 characters: counting copies up from 2 each time took 15 s.
    const book: NameBook = { taken: new Set(), nextCopy: new Map() };
    const name = markdownFileName(`https://example.com/${'a'.repeat(200)}`);
    const names = Array.from({ length: 5000 }, () => uniqueName(book, name));
    expect(names[0]).toBe(name);
    expect(names[4999]).toBe(name.replace(/\.md$/, '-5000.md'));
    expect(new Set(names).size).toBe(5000);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
