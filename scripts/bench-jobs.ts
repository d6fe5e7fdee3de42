/**
 * `npm run bench:jobs`: pages per minute of a crawl of a loopback site through POST /v1/jobs/crawl,
 * and the API process's memory over it.
 *
 *   npm run bench:jobs -- [--pages 500] [--workers 0|N] [--concurrency 4]
 *
 * `--workers 0` (the default): the API process runs the crawl (embedded runner, SQLite).
 * `--workers N`: the API runs no jobs (JOBS_RUNNER=off) and N `src/worker.ts` processes do,
 * sharing its SQLite file; with REDIS_URL set, new jobs reach them through BullMQ.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { serve } from '@hono/node-server';
import pino from 'pino';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { closeContext, createContext } from '../src/container.js';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '500' },
    workers: { type: 'string', default: '0' },
    concurrency: { type: 'string', default: '4' },
  },
});
const PAGES = Number(values.pages);
const WORKERS = Number(values.workers);
const CONCURRENCY = values.concurrency;
const AUTH_SECRET = 'bench-jobs-secret-long-enough-for-better-auth';

/** A site of `count` small pages, each linking the next three, with a sitemap of the first tenth. */
async function startSite(count: number): Promise<{ server: Server; origin: string; hostPort: string }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    const origin = `http://${req.headers.host}`;
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(`User-agent: *\nDisallow: /private\nSitemap: ${origin}/sitemap.xml\n`);
    if (path === '/sitemap.xml') {
      const locs = Array.from({ length: Math.ceil(count / 10) }, (_, i) => `<url><loc>${origin}/p/${i * 10}</loc></url>`).join('');
      return void res.writeHead(200, { 'content-type': 'application/xml' }).end(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs}</urlset>`);
    }
    const match = /^\/p\/(\d+)$/.exec(path);
    const index = path === '/' ? 0 : match ? Number(match[1]) : -1;
    if (index < 0 || index >= count) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<p>not found</p>');
    const links = [1, 2, 3].map((step) => `<a href="/p/${(index + step) % count}">next ${step}</a>`).join(' ');
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Page ${index}</title><main><h1>Page ${index}</h1><p>Text of page ${index}.</p>${links} <a href="/private/x">x</a></main>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}`, hostPort: `127.0.0.1:${port}` };
}

function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], { env: { ...process.env, LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('pluck worker running jobs')) resolve(child);
    });
    child.once('exit', () => reject(new Error('a worker exited before it started')));
  });
}

async function main() {
  const site = await startSite(PAGES);
  const dataDir = await mkdtemp(join(tmpdir(), 'pluck-bench-jobs-'));
  const env = {
    DATA_DIR: dataDir,
    AUTH_SECRET,
    ALLOW_PRIVATE_HOSTS: site.hostPort,
    JOB_CONCURRENCY: CONCURRENCY,
    JOBS_GLOBAL_CONCURRENCY: CONCURRENCY,
    JOB_POLL_INTERVAL_MS: '500',
    PRO_JOB_MAX_PAGES: String(PAGES + 10),
    PRO_CONCURRENCY: String(Number(CONCURRENCY) * Math.max(1, WORKERS) + 1),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL, REDIS_KEY_PREFIX: `pluck-bench-${process.pid}:` } : {}),
  };
  const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'warn', PORT: '0', ...env, JOBS_RUNNER: WORKERS > 0 ? 'off' : 'embedded' });
  const ctx = await createContext(config, { logger: pino({ level: 'warn' }) });
  const http = serve({ fetch: createApp(ctx).fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => http.once('listening', () => resolve()));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const workers = await Promise.all(Array.from({ length: WORKERS }, () => startWorker(env)));
  try {
    const call = async (method: string, path: string, token?: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return (await res.json()) as any;
    };
    const signUp = await call('POST', '/v1/auth/sign-up/email', undefined, { email: `bench-${Date.now()}@example.com`, password: 'a long bench passphrase', name: 'Bench' });
    await ctx.database.db.updateTable('user').set({ plan: 'pro' }).where('id', '=', signUp.user.id).execute();
    const token = signUp.token as string;
    const rss: number[] = [];
    const sampler = setInterval(() => rss.push(process.memoryUsage().rss), 1000);
    const started = Date.now();
    const created = await call('POST', '/v1/jobs/crawl', token, { url: `${site.origin}/`, limit: PAGES, formats: ['markdown'], waitUntil: 'domcontentloaded' });
    if (!created.success) throw new Error(JSON.stringify(created));
    let job: any;
    for (;;) {
      job = (await call('GET', `/v1/jobs/${created.data.id}?limit=1`, token)).data;
      if (!['queued', 'active'].includes(job.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    clearInterval(sampler);
    const seconds = (Date.now() - started) / 1000;
    const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
    const mode = WORKERS > 0 ? `${WORKERS} worker process(es)${process.env.REDIS_URL ? ' on BullMQ' : ''}` : 'embedded runner';
    process.stdout.write(
      `${mode}: ${job.status}, ${job.progress.completed} pages (${job.progress.failed} failed) in ${seconds.toFixed(1)} s = ${Math.round((job.progress.completed / seconds) * 60)} pages/minute; ` +
        `API process RSS ${mb(rss[0] ?? 0)} MB at the start, ${mb(Math.max(...rss))} MB at most, ${mb(rss.at(-1) ?? 0)} MB at the end\n`,
    );
  } finally {
    for (const worker of workers) worker.kill('SIGTERM');
    await new Promise<void>((resolve) => http.close(() => resolve()));
    await closeContext(ctx);
    site.server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
