/**
 * `npm run bench:pages`: the product path on real stored pages. Every page of the dev sets is
 * served on loopback under its own host name (`<original host>.<set>-<name>.stored.test`, at its
 * original path, so the extractor sees the same path and a host that starts as the original's),
 * its scripts on, every other host left as it is: on this machine third-party hosts do not
 * resolve, as a dead tracker or a blocked ad host does not answer. Not the original host itself:
 * Chromium upgrades names on its HSTS preload list (all of `.dev`, Google's) to https, which a
 * loopback server without their certificates cannot answer.
 *
 * Printed, in one run:
 * - 5xx answers (must be 0) and empty answers (fewer than 5 words) of `POST /v1/web/markdown`,
 *   and its time and CPU per page (the first request of the run included);
 * - shingle F1 of that markdown beside the extraction bench's (JavaScript off, other requests
 *   refused) on the same pages;
 * - time per page of `POST /v1/web/content` against plain playwright-core on the same Chromium
 *   (a fresh context, `goto` until `load`, `content()`), page by page in alternating order:
 *   total, median and p90.
 *
 * - with `--jobs`: pages per minute of one batch job of every page (POST /v1/jobs/batch, markdown,
 *   4 pages at a time) with each `--engines` value (`engine: auto` against `engine: browser`, in
 *   alternating order over `--rounds`), and the shingle F1 of each engine's answers per set.
 *
 *   npm run bench:pages -- [--sets wcxb-dev,extraction-dev] [--only NAME,NAME] [--limit N]
 *                          [--out DIR] [--no-timing] [--no-quality] [--dns system|nxdomain]
 *                          [--jobs [--engines auto,browser] [--rounds 1]]
 */
import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { serve } from '@hono/node-server';
import pino from 'pino';
import { type Browser, chromium } from 'playwright-core';
import { createApp } from '../src/app.js';
import { processesOfBrowser } from '../src/browser/chromium-process.js';
import { loadConfig } from '../src/config.js';
import { closeContext, createContext } from '../src/container.js';
import { type HostResolver, systemResolver } from '../src/net/address-policy.js';
import { BASELINE_CHROMIUM_ARGS, BENCH_CHROMIUM_PATH } from './baseline-chromium.js';
import { BENCH_LAUNCH_OPTIONS, listStoredPages, percentile, readStoredHtml, runExtractionBench } from './bench-extraction.js';

const { values } = parseArgs({
  options: {
    sets: { type: 'string', default: 'wcxb-dev,extraction-dev' },
    only: { type: 'string' },
    limit: { type: 'string' },
    out: { type: 'string' },
    'no-timing': { type: 'boolean', default: false },
    'no-quality': { type: 'boolean', default: false },
    dns: { type: 'string', default: 'system' },
    jobs: { type: 'boolean', default: false },
    engines: { type: 'string', default: 'auto,browser' },
    rounds: { type: 'string', default: '1' },
  },
});
if (values.dns !== 'system' && values.dns !== 'nxdomain') throw new Error('--dns takes system or nxdomain');
/**
 * `system`: third-party names go to this machine's resolver, for both sides. `nxdomain`: they fail
 * at once, for both sides, so that no resolver's timeouts (this machine's loses some queries and
 * waits 5 s for them) weigh on either side: what is left is each side's own time.
 */
const DNS_MODE = values.dns;

const BENCH_ROOT = fileURLToPath(new URL('../../shared/bench/', import.meta.url));
// By its real path: the scorer runs only when called by it (a checkout's `../shared` may be a link).
const SCORER = realpathSync(join(BENCH_ROOT, 'score-extraction.mjs'));
const STORED_SUFFIX = '.stored.test';
/** Below this many words an answer is empty for the report (the service's own warning has its own rule). */
const EMPTY_WORDS = 5;

interface BenchPage {
  set: string;
  name: string;
  file: string;
  /** The page's original URL, as the ground truth gives it. */
  originalUrl: string;
  host: string;
  /** Path and query the stored site answers with the page. */
  path: string;
}

async function listPages(): Promise<BenchPage[]> {
  const only = values.only?.split(',');
  const pages: BenchPage[] = [];
  for (const set of values.sets!.split(',')) {
    for (const stored of await listStoredPages(join(BENCH_ROOT, set))) {
      if (only && !only.includes(stored.name)) continue;
      const original = new URL(stored.url);
      // A DNS label holds 63 characters; the extraction-dev names are 64-character hashes.
      const host = `${original.hostname}.${set}-${stored.name.slice(0, 16)}${STORED_SUFFIX}`.toLowerCase();
      pages.push({ set, name: stored.name, file: stored.file, originalUrl: stored.url, host, path: `${original.pathname}${original.search}` });
    }
  }
  const limit = values.limit ? Number(values.limit) : undefined;
  return limit ? pages.slice(0, limit) : pages;
}

/** The stored site: each page under its own host name; anything else on it a quick 404. */
async function startStoredSite(pages: BenchPage[]) {
  const byHost = new Map(pages.map((page) => [page.host, page]));
  const server = createServer((req, res) => {
    const page = byHost.get((req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase());
    if (!page || req.url !== page.path) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not stored');
      return;
    }
    readStoredHtml(page.file).then(
      (html) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as AddressInfo).port;
  return { port, urlOf: (page: BenchPage) => `http://${page.host}:${port}${page.path}`, close: () => server.close() };
}

/** The stored pages' host names resolve to loopback; every other name as `--dns` says. */
function storedResolver(pages: BenchPage[]): HostResolver {
  const stored = new Set(pages.map((page) => page.host));
  return async (hostname) => {
    if (stored.has(hostname)) return ['127.0.0.1'];
    if (DNS_MODE === 'nxdomain') throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return systemResolver(hostname);
  };
}

async function startPluck(pages: BenchPage[], port: number) {
  const dataDir = await mkdtemp(join(tmpdir(), 'pluck-bench-pages-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ALLOW_PRIVATE_HOSTS: pages.map((page) => `${page.host}:${port}`).join(','),
    FREE_REQUESTS_PER_HOUR: '1000000',
    FREE_MONTHLY_CREDITS: '1000000',
    FREE_JOB_MAX_PAGES: '100000',
    FREE_JOB_PAGES_PER_HOUR: '10000000',
    JOB_CONCURRENCY: '4',
    JOBS_GLOBAL_CONCURRENCY: '4',
    AUTH_SECRET: 'bench-secret-bench-secret-bench-secret',
    CHROMIUM_PATH: BENCH_CHROMIUM_PATH,
  });
  const logger = pino({ level: process.env.BENCH_LOG_LEVEL ?? 'silent' }, pino.destination(2));
  const ctx = await createContext(config, { logger, hostResolver: storedResolver(pages) });
  const server = serve({ fetch: createApp(ctx).fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((done) => server.once('listening', done));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const user = await ctx.auth.api.signUpEmail({ body: { email: 'bench@example.com', password: 'bench-password-123', name: 'bench' } });
  const { key } = await ctx.apiKeys.create(user.user.id, 'bench');
  const call = async (operation: string, body: Record<string, unknown>) => {
    const started = performance.now();
    const res = await fetch(`${base}/v1/web/${operation}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ maxAge: 0, ...body }),
    });
    const json = (await res.json()) as any;
    return { status: res.status, body: json, ms: performance.now() - started };
  };
  const job = async (body: Record<string, unknown>) => {
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const created = (await (await fetch(`${base}/v1/jobs/batch`, { method: 'POST', headers, body: JSON.stringify(body) })).json()) as any;
    if (!created.data?.id) throw new Error(`the batch job was refused: ${JSON.stringify(created).slice(0, 300)}`);
    const id = created.data.id as string;
    for (;;) {
      await new Promise((done) => setTimeout(done, 250));
      const status = (await (await fetch(`${base}/v1/jobs/${id}?limit=1`, { headers })).json()) as any;
      if (['completed', 'failed', 'cancelled'].includes(status.data.status)) break;
    }
    const results: Array<{ url: string; status: string; data?: { markdown?: string; metadata?: { engine?: string } }; error?: { code: string } }> = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page = (await (await fetch(`${base}/v1/jobs/${id}?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { headers })).json()) as any;
      results.push(...page.data.results);
      cursor = page.data.next;
    }
    return results;
  };
  return {
    call,
    job,
    /** CPU used so far by this process and Pluck's Chromium (its live processes and the ones they reaped), in ms. */
    cpuMs: async () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000 + (await chromiumCpuMs(ctx.browser.stats().browserPid));
    },
    close: async () => {
      server.close();
      await closeContext(ctx);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** All the CPU the Chromium whose browser is `browserPid` has used: its live processes' and those they reaped. */
async function chromiumCpuMs(browserPid: number | undefined): Promise<number> {
  const ticks = (await processesOfBrowser(browserPid)).reduce((sum, entry) => sum + entry.cpuTicks, 0);
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** The baseline: plain playwright-core, a fresh context per page, `goto` until `load`, `content()`. */
async function plainContent(browser: Browser, url: string): Promise<{ ms: number; ok: boolean }> {
  const started = performance.now();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
    await page.content();
    return { ms: performance.now() - started, ok: true };
  } catch {
    return { ms: performance.now() - started, ok: false };
  } finally {
    await context.close();
  }
}

/** Chromium's rules for the same resolution: the first rule that matches a name applies. */
function baselineResolverRules(pages: BenchPage[]): string {
  const stored = pages.map((page) => `MAP ${page.host} 127.0.0.1`);
  return [...stored, ...(DNS_MODE === 'nxdomain' ? ['MAP * ~NOTFOUND'] : [])].join(',');
}

/** Progress on a terminal only: a log file gets the report alone. */
function progress(label: string, done: number, total: number): void {
  if (process.stderr.isTTY) process.stderr.write(`\r${label} ${done}/${total}${done === total ? '\n' : ''}`);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function summary(label: string, times: number[]): string {
  const total = times.reduce((sum, t) => sum + t, 0);
  return `${label.padEnd(26)} total ${seconds(total).padStart(9)}  median ${seconds(percentile(times, 0.5)).padStart(8)}  p90 ${seconds(percentile(times, 0.9)).padStart(8)}  max ${seconds(Math.max(...times)).padStart(8)}`;
}

async function timing(pages: BenchPage[], site: Awaited<ReturnType<typeof startStoredSite>>, pluck: Awaited<ReturnType<typeof startPluck>>) {
  const browser = await chromium.launch({
    executablePath: BENCH_CHROMIUM_PATH,
    // Chromium's own DNS client (AsyncDns) off: it then asks the system resolver, as Pluck's egress
    // proxy does. On this machine its own client waits 1-5 s on every dead host, which would make
    // the baseline look slow for a reason that has nothing to do with Pluck.
    args: [...BASELINE_CHROMIUM_ARGS, `--host-resolver-rules=${baselineResolverRules(pages)}`, '--disable-features=AsyncDns'],
  });
  const plain: number[] = [];
  const ours: number[] = [];
  const slower: string[] = [];
  let plainFailures = 0;
  const pluckFailures: string[] = [];
  try {
    // Both sides warm: Chromium launched, the extractor bundled.
    await plainContent(browser, site.urlOf(pages[0]!));
    await pluck.call('content', { url: site.urlOf(pages[0]!) });
    for (const [index, page] of pages.entries()) {
      const url = site.urlOf(page);
      const runPlain = () => plainContent(browser, url);
      const runPluck = () => pluck.call('content', { url });
      // Alternating order, so load from elsewhere on the machine falls on both sides alike.
      const [a, b] = index % 2 === 0 ? [await runPlain(), await runPluck()] : (([y, x]) => [x, y] as const)([await runPluck(), await runPlain()]);
      const base = a as Awaited<ReturnType<typeof plainContent>>;
      const answer = b as Awaited<ReturnType<typeof pluck.call>>;
      plain.push(base.ms);
      ours.push(answer.ms);
      if (!base.ok) plainFailures += 1;
      if (answer.status !== 200) pluckFailures.push(`${page.set}/${page.name} ${answer.status} ${answer.body?.error?.code ?? ''}`);
      if (answer.ms - base.ms > 2_000) slower.push(`${page.set}/${page.name}: plain ${seconds(base.ms)}, pluck ${seconds(answer.ms)}`);
      progress('timing', index + 1, pages.length);
    }
  } finally {
    await browser.close();
  }
  const total = (times: number[]) => times.reduce((sum, t) => sum + t, 0);
  const lines = [
    `== time per page: POST /v1/web/content (JavaScript on) against plain playwright-core, ${pages.length} pages, sequential, third-party DNS: ${DNS_MODE} ==`,
    summary('plain playwright-core', plain),
    summary('pluck /v1/web/content', ours),
    `pluck / plain: total ${(total(ours) / total(plain)).toFixed(2)}x, p90 ${(percentile(ours, 0.9) / percentile(plain, 0.9)).toFixed(2)}x`,
    `plain failures (no load within 30 s): ${plainFailures}; pluck non-200: ${pluckFailures.length}${pluckFailures.length ? ` (${pluckFailures.join(', ')})` : ''}`,
    `pages more than 2 s slower through pluck: ${slower.length}${slower.length ? `\n  ${slower.join('\n  ')}` : ''}`,
  ];
  return lines.join('\n');
}

function score(predictionDir: string, truth: string): string {
  const result = spawnSync(process.execPath, [SCORER, predictionDir, truth], { encoding: 'utf8' });
  return `${result.stdout}`.trim().split('\n').at(-1) ?? '';
}

async function quality(pages: BenchPage[], site: Awaited<ReturnType<typeof startStoredSite>>, pluck: Awaited<ReturnType<typeof startPluck>>, outDir: string) {
  const serverErrors: string[] = [];
  const otherFailures: string[] = [];
  const empty: string[] = [];
  const warned: string[] = [];
  const times: number[] = [];
  const cpuBefore = await pluck.cpuMs();
  for (const [index, page] of pages.entries()) {
    const answer = await pluck.call('markdown', { url: site.urlOf(page) });
    times.push(answer.ms);
    const dir = join(outDir, 'api', page.set);
    await mkdir(dir, { recursive: true });
    const label = `${page.set}/${page.name}`;
    progress('markdown', index + 1, pages.length);
    if (answer.status !== 200) {
      const failure = `${label} ${answer.status} ${answer.body?.error?.code} ${answer.body?.error?.message ?? ''}`.slice(0, 300);
      (answer.status >= 500 ? serverErrors : otherFailures).push(failure);
      continue;
    }
    const { markdown, metadata } = answer.body.data as { markdown: string; metadata: { wordCount: number; warnings?: Array<{ code: string }> } };
    await writeFile(join(dir, `${page.name}.md`), markdown);
    if (metadata.wordCount < EMPTY_WORDS) empty.push(`${label} (${metadata.wordCount} words)`);
    if (metadata.warnings?.length) warned.push(`${label}: ${metadata.warnings.map((warning) => warning.code).join(',')}`);
  }
  const cpuAfter = await pluck.cpuMs();
  const lines = [
    `== POST /v1/web/markdown (JavaScript on), ${pages.length} pages ==`,
    `5xx answers: ${serverErrors.length}${serverErrors.length ? `\n  ${serverErrors.join('\n  ')}` : ''}`,
    `other failed answers: ${otherFailures.length}${otherFailures.length ? `\n  ${otherFailures.join('\n  ')}` : ''}`,
    `empty answers (< ${EMPTY_WORDS} words): ${empty.length}${empty.length ? `\n  ${empty.join('\n  ')}` : ''}`,
    `answers with warnings: ${warned.length}${warned.length ? `\n  ${warned.join('\n  ')}` : ''}`,
    summary('time per page (sequential)', times),
    `CPU per page (Pluck's Chromium and this process): ${((cpuAfter - cpuBefore) / pages.length).toFixed(0)} ms`,
    '',
    '== shingle F1: through the API (JavaScript on) beside the extraction bench (JavaScript off, other requests refused) ==',
  ];
  const browser = await chromium.launch(BENCH_LAUNCH_OPTIONS);
  try {
    for (const set of new Set(pages.map((page) => page.set))) {
      const names = pages.filter((page) => page.set === set).map((page) => page.name);
      const benchDir = join(outDir, 'bench', set);
      await runExtractionBench(browser, { dataDir: join(BENCH_ROOT, set), outDir: benchDir, only: names });
      const truth = await subsetTruth(set, names, outDir);
      const api = score(join(outDir, 'api', set), truth);
      const bench = score(benchDir, truth);
      const f1 = (line: string) => Number(/F1 ([\d.]+)/.exec(line)?.[1]);
      lines.push(`${set.padEnd(15)} api   ${api}`, `${''.padEnd(15)} bench ${bench}`, `${''.padEnd(15)} api - bench: ${(f1(api) - f1(bench)).toFixed(4)}`);
    }
  } finally {
    await browser.close();
  }
  return lines.join('\n');
}

/** The ground truth of the pages in this run only, so a partial run is scored on its own pages. */
async function subsetTruth(set: string, names: string[], outDir: string): Promise<string> {
  const truth = JSON.parse(await readFile(join(BENCH_ROOT, set, 'ground-truth.json'), 'utf8')) as Record<string, unknown>;
  const path = join(outDir, `${set}-truth.json`);
  await writeFile(path, JSON.stringify(Object.fromEntries(names.map((name) => [name, truth[name]]))));
  return path;
}

/** One batch job of every page per engine, alternating; pages per minute, and each engine's F1 per set. */
async function jobs(pages: BenchPage[], site: Awaited<ReturnType<typeof startStoredSite>>, pluck: Awaited<ReturnType<typeof startPluck>>, outDir: string) {
  const engines = values.engines!.split(',');
  const rounds = Number(values.rounds);
  const minutes = new Map<string, number[]>(engines.map((engine) => [engine, []]));
  const lines = [`== one batch job of ${pages.length} pages (markdown, 4 at a time), by engine ==`];
  const byUrl = new Map(pages.map((page) => [site.urlOf(page), page]));
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? engines : [...engines].reverse();
    for (const engine of order) {
      const started = performance.now();
      const nodeBefore = process.cpuUsage();
      const results = await pluck.job({ urls: pages.map((page) => site.urlOf(page)), formats: ['markdown'], engine, maxAge: 0 });
      const elapsedMin = (performance.now() - started) / 60_000;
      // Node's only: Chromium's count restarts when the browser is recycled in the middle of a job.
      const nodeUsed = process.cpuUsage(nodeBefore);
      const nodePerPage = (nodeUsed.user + nodeUsed.system) / 1000 / pages.length;
      minutes.get(engine)!.push(elapsedMin);
      const used = new Map<string, number>();
      let failed = 0;
      for (const result of results) {
        const page = byUrl.get(result.url);
        if (!page) continue;
        if (result.status !== 'completed') {
          failed += 1;
          continue;
        }
        used.set(result.data?.metadata?.engine ?? '?', (used.get(result.data?.metadata?.engine ?? '?') ?? 0) + 1);
        const dir = join(outDir, `job-${engine}`, page.set);
        await mkdir(dir, { recursive: true });
        await writeFile(join(dir, `${page.name}.md`), result.data?.markdown ?? '');
      }
      const engineCounts = [...used].map(([name, count]) => `${name} ${count}`).join(', ');
      lines.push(`round ${round + 1} engine=${engine}: ${(pages.length / elapsedMin).toFixed(0)} pages/min (${(elapsedMin * 60).toFixed(1)} s), Node CPU ${nodePerPage.toFixed(0)} ms/page, failed ${failed}; read by ${engineCounts}`);
    }
  }
  const rate = (engine: string) => pages.length / (minutes.get(engine)!.reduce((sum, value) => sum + value, 0) / rounds);
  if (engines.length === 2) lines.push(`${engines[0]} / ${engines[1]}: ${(rate(engines[0]!) / rate(engines[1]!)).toFixed(2)}x pages per minute`);
  for (const set of new Set(pages.map((page) => page.set))) {
    const names = pages.filter((page) => page.set === set).map((page) => page.name);
    const truth = await subsetTruth(set, names, outDir);
    const f1s = engines.map((engine) => Number(/F1 ([\d.]+)/.exec(score(join(outDir, `job-${engine}`, set), truth))?.[1]));
    lines.push(`${set.padEnd(15)} F1 ${engines.map((engine, index) => `${engine} ${f1s[index]!.toFixed(4)}`).join(', ')}${engines.length === 2 ? `; difference ${(f1s[0]! - f1s[1]!).toFixed(4)}` : ''}`);
  }
  return lines.join('\n');
}

async function main() {
  const pages = await listPages();
  if (pages.length === 0) throw new Error('No stored pages matched');
  const outDir = resolve(values.out ?? (await mkdtemp(join(tmpdir(), 'pluck-bench-pages-out-'))));
  const site = await startStoredSite(pages);
  const pluck = await startPluck(pages, site.port);
  const report: string[] = [];
  try {
    if (values.jobs) report.push(await jobs(pages, site, pluck, outDir));
    else if (!values['no-quality']) report.push(await quality(pages, site, pluck, outDir));
    if (!values['no-timing'] && !values.jobs) report.push(await timing(pages, site, pluck));
  } finally {
    await pluck.close();
    site.close();
  }
  process.stdout.write(`\n${report.join('\n\n')}\n\n(markdown written under ${outDir})\n`);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
