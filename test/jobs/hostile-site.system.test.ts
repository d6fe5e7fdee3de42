import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { type RecordingServer, type RouteHandler, startRecordingServer } from '../helpers/recording-server.js';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { allResults, waitForJob } from './job-client.js';

/** The report's robots rule: turned into a RegExp, it held the server's thread for hours on a 1,500-character path. */
const HOSTILE_RULE = '/*a*a*a*a*a*a*a*a*a*b';
/** The report's sitemap: 30,000 spaces after a <loc> (the old pattern is cubic in them). */
const HOSTILE_SPACES = 30_000;
/** Sitemap entries, each a path of many `a`s that the robots rule is tried on. */
const SITEMAP_ENTRIES = 20_000;
/** The issue's acceptance bound for /health all through such jobs. */
const HEALTH_BOUND_MS = 1000;

/** How long one /health request may take before the server is taken for stalled (the test then fails at once). */
const STALLED_MS = 10_000;

/**
 * Polls /health from this process (the server runs in its own) and keeps each answer's latency.
 * `stalled` rejects when one request gets no answer within STALLED_MS, so a server that stopped
 * answering fails the test with that, not with a timeout of its job polls.
 */
function watchHealth(baseUrl: string) {
  const latencies: number[] = [];
  let stopped = false;
  let reportStall: (error: Error) => void = () => undefined;
  const stalled = new Promise<never>((_, reject) => (reportStall = reject));
  stalled.catch(() => undefined);
  const done = (async () => {
    while (!stopped) {
      const started = performance.now();
      const ok = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(STALLED_MS) }).then(
        (res) => res.ok,
        () => false,
      );
      latencies.push(ok ? performance.now() - started : Number.POSITIVE_INFINITY);
      if (!ok) reportStall(new Error(`/health gave no answer within ${STALLED_MS} ms after ${latencies.length - 1} answers`));
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  return {
    stalled,
    async stop() {
      stopped = true;
      await done;
      return { polls: latencies.length, maxMs: Math.max(...latencies) };
    },
  };
}

describe('a hostile site cannot stall the server', () => {
  let site: RecordingServer;
  let dataDir: string;
  let server: ServerProcess;

  const along = (as: number, tail = '') => `/${'a'.repeat(as)}${tail}`;

  beforeAll(async () => {
    const routes: Record<string, RouteHandler> = {};
    site = await startRecordingServer(routes);
    const origin = site.origin;
    const links = [along(1500), along(8000), along(1500, 'b'), along(1499, 'b/more'), '/plain/1', '/plain/2'];
    routes['/'] = (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Home</title><main><h1>Home</h1>${links.map((href, i) => `<a href="${href}">Link ${i}</a>`).join(' ')}</main>`);
    routes['/robots.txt'] = (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end(`User-agent: *\nDisallow: ${HOSTILE_RULE}\n`);
    // Encoded once: serving it must not hold this process (its /health watch) either.
    const sitemap = Buffer.from(
      `<?xml version="1.0" encoding="UTF-8"?><urlset><url><loc>${' '.repeat(HOSTILE_SPACES)}</url>` +
        Array.from({ length: SITEMAP_ENTRIES }, (_, i) => `<url><loc>${origin}${along(100, `/item-${i}`)}</loc></url>`).join('\n') +
        '</urlset>',
    );
    routes['/sitemap.xml'] = (_req, res) => void res.writeHead(200, { 'content-type': 'application/xml' }).end(sitemap);
    dataDir = await mkdtemp(join(tmpdir(), 'pluck-hostile-site-'));
    server = await startServerProcess({
      DATA_DIR: dataDir,
      PUBLIC_BASE_URL: 'http://127.0.0.1:1',
      AUTH_SECRET: 'hostile-site-test-secret-long-enough-for-better-auth',
      ALLOW_PRIVATE_HOSTS: site.hostPort,
      JOB_POLL_INTERVAL_MS: '100',
    });
  }, 120_000);
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await server?.exited;
    await site?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it(`answers /health within ${HEALTH_BOUND_MS} ms all through a crawl under a hostile robots.txt and a map of a hostile sitemap`, async () => {
    const api = apiClient(server.baseUrl, null);
    const { key } = await api.signUpWithKey();
    const origin = site.origin;
    const health = watchHealth(server.baseUrl);
    const crawl = await api.post('/v1/jobs/crawl', { url: `${origin}/`, limit: 20, sitemap: 'skip', formats: ['links'], waitUntil: 'domcontentloaded' }, key);
    expect(crawl.status, crawl.text).toBe(201);
    const map = await api.post('/v1/jobs/map', { url: `${origin}/`, limit: 5000 }, key);
    expect(map.status, map.text).toBe(201);
    const [crawled, mapped] = await Promise.race([Promise.all([waitForJob(api, key, crawl.body.data.id, 60_000), waitForJob(api, key, map.body.data.id, 60_000)]), health.stalled]);
    const { polls, maxMs } = await health.stop();
    process.stdout.write(`hostile site: ${polls} /health answers during a crawl and a map, the slowest in ${maxMs.toFixed(0)} ms\n`);

    // The crawl: the long paths without `b` after the `a`s are loaded, those with one are not.
    expect(crawled.status, JSON.stringify(crawled)).toBe('completed');
    const crawledUrls = (await allResults(api, key, crawled.id)).map((result) => result.url);
    expect(crawledUrls.sort()).toEqual([`${origin}/`, `${origin}${along(1500)}`, `${origin}${along(8000)}`, `${origin}/plain/1`, `${origin}/plain/2`].sort());
    expect(site.hits.filter((hit) => /^\/a+b/.test(hit.path))).toEqual([]);

    // The map: the start page, then sitemap URLs up to its limit (the entry of spaces skipped); none disallowed.
    expect(mapped.status, JSON.stringify(mapped)).toBe('completed');
    const mappedUrls = (await allResults(api, key, mapped.id)).map((result) => result.url);
    expect(mappedUrls).toHaveLength(5000);
    expect(mappedUrls[0]).toBe(`${origin}/`);
    expect(mappedUrls.slice(1, 3)).toEqual([`${origin}${along(100, '/item-0')}`, `${origin}${along(100, '/item-1')}`]);
    expect(mappedUrls.some((url) => /a+b/.test(new URL(url).pathname))).toBe(false);

    expect(polls).toBeGreaterThan(10);
    expect(maxMs).toBeLessThan(HEALTH_BOUND_MS);
  }, 150_000);
});
