import { spawn } from 'node:child_process';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { createPostgresDatabase, testDialects } from '../helpers/databases.js';
import { type RecordingServer, type RouteHandler, startRecordingServer } from '../helpers/recording-server.js';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { waitForJob } from './job-client.js';

const dialects = await testDialects();
/** The workload: 16 pages of about 2 MB, each read as markdown, html and rawHtml (about 6 MB of JSON a result). */
const PAGES = 16;
const PARAGRAPHS = 2000;
/** JOB_ANSWER_MAX_BYTES's default: no status body may pass it (a single result bigger than it apart; none is here). */
const ANSWER_MAX_BYTES = 10_000_000;
const READERS = 3;
/** The bound on the server's memory while the results are read. */
const MEMORY_GROWTH_MAX = 1.5 * 1024 ** 3;
/** The bound on /health while the results are read. */
const HEALTH_MAX_MS = 1000;

/** About 1 KB of words, different in every paragraph of every page so nothing compresses into a shortcut. */
const paragraph = (page: number, index: number) =>
  `<p>Page ${page} paragraph ${index}: ${Array.from({ length: 150 }, (_, word) => `w${(page * 7919 + index * 104_729 + word * 31) % 100_000}`).join(' ')}.</p>`;

/**
 * Asks `url` every 100 ms from a process of its own, printing each answer's status and time: the
 * test's own process parses megabytes of JSON meanwhile, which would otherwise delay the timing.
 * A first request, untimed, loads the process's HTTP client.
 */
const HEALTH_PROBE = `
const url = process.argv[1];
const probe = async () => {
  const sent = performance.now();
  const res = await fetch(url);
  await res.arrayBuffer();
  process.stdout.write(JSON.stringify({ status: res.status, ms: performance.now() - sent }) + '\\n');
  setTimeout(probe, 100);
};
fetch(url).then((res) => res.arrayBuffer()).then(() => { process.stdout.write('ready\\n'); probe(); });
`;

async function startHealthProbe(url: string) {
  const child = spawn(process.execPath, ['-e', HEALTH_PROBE, url], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  for (let waited = 0; !output.startsWith('ready\n'); waited += 50) {
    if (waited > 60_000) throw new Error('the health probe did not start');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    /** Stops the probe; answers every probe's status and time. */
    stop: async (): Promise<Array<{ status: number; ms: number }>> => {
      child.kill('SIGTERM');
      await exited;
      return output.trim().split('\n').slice(1).filter((line) => line.endsWith('}')).map((line) => JSON.parse(line));
    },
  };
}

/** The server process's resident memory, in bytes, from /proc. */
async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

for (const dialect of dialects) {
  describe(`big job results read in bounded memory (${dialect})`, () => {
    let site: RecordingServer;
    let dataDir: string;
    let postgres: { url: string; drop: () => Promise<void> } | undefined;
    let server: ServerProcess;
    /** Kept so that a start still under way when the suite gives up is stopped too. */
    let starting: Promise<ServerProcess> | undefined;

    beforeAll(async () => {
      const routes: Record<string, RouteHandler> = {};
      for (let page = 0; page < PAGES; page += 1) {
        const body = `<main><h1>Big page ${page}</h1>${Array.from({ length: PARAGRAPHS }, (_, index) => paragraph(page, index)).join('')}</main>`;
        routes[`/big/${page}`] = (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><head><title>Big ${page}</title></head><body>${body}</body></html>`);
      }
      site = await startRecordingServer(routes);
      dataDir = await mkdtemp(join(tmpdir(), 'pluck-big-results-'));
      postgres = dialect === 'postgres' ? await createPostgresDatabase() : undefined;
      starting = startServerProcess({
        DATA_DIR: dataDir,
        ...(postgres ? { DATABASE_URL: postgres.url } : {}),
        PUBLIC_BASE_URL: 'http://127.0.0.1:1',
        AUTH_SECRET: 'big-results-test-secret-long-enough-for-better-auth',
        ALLOW_PRIVATE_HOSTS: site.hostPort,
        JOB_POLL_INTERVAL_MS: '200',
      });
      server = await starting;
    }, 300_000);
    afterAll(async () => {
      const started = await starting?.catch(() => undefined);
      started?.child.kill('SIGKILL');
      await started?.exited;
      await site?.close();
      await postgres?.drop();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('pages the status by size for three readers at once and streams the download, within 1.5 GB and with /health answering', async () => {
      const pid = server.child.pid!;
      const startRss = await rssOf(pid);
      let peakRss = startRss;
      const sampler = setInterval(() => void rssOf(pid).then((rss) => (peakRss = Math.max(peakRss, rss)), () => undefined), 100);
      try {
        const api = apiClient(server.baseUrl, null);
        const { key } = await api.signUpWithKey();
        const urls = Array.from({ length: PAGES }, (_, page) => `${site.origin}/big/${page}`);
        const created = await api.post('/v1/jobs/batch', { urls, formats: ['markdown', 'html', 'rawHtml'], waitUntil: 'domcontentloaded' }, key);
        expect(created.status, created.text).toBe(201);
        const id = created.body.data.id as string;
        const job = await waitForJob(api, key, id, 600_000);
        expect(job, JSON.stringify(job)).toMatchObject({ status: 'completed', progress: { total: PAGES, completed: PAGES, failed: 0 } });
        const auth = { authorization: `Bearer ${key}` };

        const readStartRss = await rssOf(pid);
        const probe = await startHealthProbe(`${server.baseUrl}/health`);

        /** One reader walking the cursor with the largest count the route takes: each body's size and the URLs it held. */
        const readAll = async () => {
          const pages: Array<{ bytes: number; urls: string[] }> = [];
          for (let cursor: string | null = '0'; cursor !== null; ) {
            const res = await fetch(`${server.baseUrl}/v1/jobs/${id}?limit=100&cursor=${cursor}`, { headers: auth });
            const text = await res.text();
            expect(res.status, text.slice(0, 500)).toBe(200);
            const data = JSON.parse(text).data as { results: Array<{ url: string; data: { markdown: string; html: string; rawHtml: string } }>; next: string | null };
            for (const result of data.results) {
              const page = Number(result.url.split('/').pop());
              expect(result.data.markdown).toContain(`Page ${page} paragraph ${PARAGRAPHS - 1}:`);
              expect(result.data.rawHtml).toContain(`<h1>Big page ${page}</h1>`);
            }
            pages.push({ bytes: Buffer.byteLength(text), urls: data.results.map((result) => result.url) });
            expect(data.results.length > 0 || data.next === null, 'a page with nothing still points further').toBe(true);
            cursor = data.next;
          }
          return pages;
        };

        /** The JSON-lines download, read as it streams: its lines, parsed one at a time. */
        const download = async () => {
          const res = await fetch(`${server.baseUrl}/v1/jobs/${id}/download?format=jsonl`, { headers: auth });
          expect(res.status).toBe(200);
          const lines: string[] = [];
          const decoder = new TextDecoder();
          let pending = '';
          const reader = res.body!.getReader();
          for (let read = await reader.read(); !read.done; read = await reader.read()) {
            pending += decoder.decode(read.value, { stream: true });
            for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
              lines.push((JSON.parse(pending.slice(0, end)) as { url: string }).url);
              pending = pending.slice(end + 1);
            }
          }
          expect(pending).toBe('');
          return lines;
        };

        let walks: Awaited<ReturnType<typeof readAll>>[];
        let downloaded: string[];
        let probes: Array<{ status: number; ms: number }>;
        try {
          [walks, downloaded] = await Promise.all([Promise.all(Array.from({ length: READERS }, readAll)), download()]);
        } finally {
          probes = await probe.stop();
        }
        const healthTimes = probes.map((answer) => answer.ms);
        const growth = peakRss - startRss;
        // The figures docs/jobs.md quotes, before the assertions, so a failing run shows them too.
        process.stderr.write(
          `[big-results ${dialect}] rss at start ${(startRss / 2 ** 20).toFixed(0)} MB, when the reads began ${(readStartRss / 2 ** 20).toFixed(0)} MB, peak ${(peakRss / 2 ** 20).toFixed(0)} MB; ` +
            `body sizes ${walks[0]!.map((page) => (page.bytes / 1e6).toFixed(1)).join('/')} MB; /health max ${Math.max(...healthTimes).toFixed(0)} ms over ${healthTimes.length} checks\n`,
        );

        // Results are numbered in the order pages finished: every reader sees that one order.
        const order = walks[0]!.flatMap((page) => page.urls);
        expect([...order].sort(), 'each result once').toEqual([...urls].sort());
        for (const pages of walks) {
          expect(pages.flatMap((page) => page.urls)).toEqual(order);
          const sizes = pages.map((page) => page.bytes);
          expect(Math.max(...sizes), `body sizes: ${sizes.join(', ')}`).toBeLessThanOrEqual(ANSWER_MAX_BYTES);
          expect(pages.length, 'the results took several pages').toBeGreaterThan(1);
        }
        expect(downloaded).toEqual(order);
        expect(growth, `rss ${startRss} -> ${peakRss}`).toBeLessThan(MEMORY_GROWTH_MAX);
        expect(probes.length).toBeGreaterThan(0);
        expect(new Set(probes.map((answer) => answer.status))).toEqual(new Set([200]));
        expect(Math.max(...healthTimes), `/health times (ms): ${healthTimes.map((ms) => ms.toFixed(0)).join(', ')}`).toBeLessThan(HEALTH_MAX_MS);
      } finally {
        clearInterval(sampler);
      }
    }, 900_000);
  });
}
