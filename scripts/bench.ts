/**
 * `npm run bench`: page-operation latency and throughput through Pluck's HTTP API, against a
 * baseline measured in the same run: plain playwright-core on the same Chromium, doing the same
 * work with a new context per page. Everything runs on loopback; figures are printed as ratios.
 * Each (operation, concurrency) cell is measured `--rounds` times, the order of the two sides
 * alternating between rounds so load from elsewhere hits both, with the peak memory (PSS) of each
 * side, sampled while it ran the cell once more before its timed run. `--memory-series N` then
 * sends N markdown requests and prints Pluck's memory every 500, to show whether it stays flat.
 *
 *   npm run bench -- [--requests N] [--ops content,markdown,screenshot,pdf] [--concurrency 1,4,8]
 *                    [--rounds 2] [--multi-requests 12] [--memory-series 0]
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { serve } from '@hono/node-server';
import pino from 'pino';
import { type Browser, chromium, type Page } from 'playwright-core';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { closeContext, createContext } from '../src/container.js';
import { extractMarkdown } from '../src/extract/extract.js';
import { BASELINE_CHROMIUM_ARGS, BENCH_CHROMIUM_PATH } from './baseline-chromium.js';

type Operation = 'content' | 'markdown' | 'screenshot' | 'pdf';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '24' },
    ops: { type: 'string', default: 'content,markdown,screenshot,pdf' },
    concurrency: { type: 'string', default: '1,4,8' },
    'multi-requests': { type: 'string', default: '12' },
    rounds: { type: 'string', default: '2' },
    'memory-series': { type: 'string', default: '0' },
  },
});
const REQUESTS = Number(values.requests);
const OPERATIONS = values.ops!.split(',').filter(Boolean) as Operation[]; // --ops '': the memory series alone
const LEVELS = values.concurrency!.split(',').map(Number);
const MULTI_REQUESTS = Number(values['multi-requests']);
const ROUNDS = Number(values.rounds);
const MEMORY_SERIES = Number(values['memory-series']);
/** How often memory is sampled while a side runs, and how many requests apart the series prints. */
const SAMPLE_MS = 250;
const SERIES_STEP = 500;

/**
 * The host's draw, in one figure: milliseconds per start of a trivial process. The baseline's
 * extra work per page is a new context and renderer process, so a host slow at making processes
 * would slow the baseline more than Pluck and raise every ratio; printed at the start and the end of
 * a run, so runs on different days can be told apart: 1.8 ms on 2026-11-27, a slow day, when the
 * baseline ran at about half its rate of earlier days (the first day with the figure).
 */
function processStartMs(count = 500): number {
  // From a small shell: forking this process would time its own size (its page tables are
  // copied) along with the host, 12 ms a start that day.
  const started = performance.now();
  spawnSync('/bin/sh', ['-c', `i=0; while [ $i -lt ${count} ]; do /bin/true; i=$((i+1)); done`]);
  return (performance.now() - started) / count;
}

/** A ~30 KB article page, like the measurement. */
function fixturePage(): string {
  const paragraph = (i: number) =>
    `<p>Paragraph ${i}: ${'The quick brown fox jumps over the lazy dog while the benchmark measures the service. '.repeat(4)}</p>`;
  const body = Array.from({ length: 80 }, (_, i) => paragraph(i)).join('\n');
  return `<!doctype html><html lang="en"><head><title>Bench page</title><meta name="description" content="bench"></head>
<body><nav><a href="/a">A</a> <a href="/b">B</a></nav><main><article><h1>Benchmark article</h1>${body}</article></main>
<footer>footer</footer></body></html>`;
}

interface Figures {
  p50: number;
  p95: number;
  pagesPerSecond: number;
  failures: number;
}

async function measure(concurrency: number, total: number, once: () => Promise<void>): Promise<Figures> {
  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next += 1;
        const t0 = performance.now();
        try {
          await once();
          latencies.push(performance.now() - t0);
        } catch (error) {
          failures += 1;
          if (failures === 1) process.stderr.write(`first failure: ${error instanceof Error ? error.message : String(error)}\n`);
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { p50: at(0.5), p95: at(0.95), pagesPerSecond: latencies.length / seconds, failures };
}

async function baselineOnce(browser: Browser, url: string, operation: Operation): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page: Page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    if (operation === 'content') await page.content();
    if (operation === 'markdown') await extractMarkdown(page, { url });
    if (operation === 'screenshot') await page.screenshot({ type: 'png' });
    if (operation === 'pdf') await page.pdf({ format: 'A4', printBackground: true });
  } finally {
    await context.close();
  }
}

interface ProcessInfo {
  pid: number;
  ppid: number;
  args: string[];
}

/**
 * Processes already read, with how many scans have read them. A process's parent and arguments
 * settle within milliseconds of its start (exec, the zygote's retitling), so after a few reads
 * they are kept rather than read again: reading two files of every process four times a second
 * cost ~17 ms of CPU per scan on this machine, taken from whichever side was being measured.
 */
const seen = new Map<number, { info: ProcessInfo; reads: number }>();
const READS_BEFORE_SETTLED = 3;

/** Every process's parent and arguments, from /proc: one scan serves a whole memory sample. */
async function processTable(): Promise<ProcessInfo[]> {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name)).map(Number);
  const alive = new Set(pids);
  for (const pid of seen.keys()) if (!alive.has(pid)) seen.delete(pid);
  await Promise.all(
    pids.map(async (pid) => {
      const known = seen.get(pid);
      if (known && known.reads >= READS_BEFORE_SETTLED) return;
      try {
        const [cmdline, stat] = await Promise.all([readFile(`/proc/${pid}/cmdline`, 'utf8'), readFile(`/proc/${pid}/stat`, 'utf8')]);
        // The command name in stat may hold spaces or parentheses; the fields after its last ')' do not.
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        // Processes forked from Chromium's zygote rewrite their title: one string, spaces between arguments.
        seen.set(pid, { info: { pid, ppid, args: cmdline.split(/[\0 ]+/) }, reads: (known?.reads ?? 0) + 1 });
      } catch {
        seen.delete(pid); // exited meanwhile
      }
    }),
  );
  return [...seen.values()].map((entry) => entry.info);
}

/**
 * The processes whose arguments include one of `markers`, and all their descendants: a flag given at
 * launch reaches the browser process but not every child it starts. Chromium's crash handlers
 * are left out (re-parented to init, no marker; a few MB each, on both sides alike).
 */
function treeOf(table: ProcessInfo[], markers: Iterable<string>): Set<number> {
  const wanted = [...markers];
  const tree = new Set(table.filter((entry) => wanted.some((marker) => entry.args.includes(marker))).map((entry) => entry.pid));
  for (let grown = true; grown; ) {
    grown = false;
    for (const entry of table) {
      if (!tree.has(entry.pid) && tree.has(entry.ppid)) {
        tree.add(entry.pid);
        grown = true;
      }
    }
  }
  return tree;
}

/**
 * Proportional set size of one process, kB: shared pages (Chromium's binary, shared memory
 * between its processes) count once across the processes sharing them, so PSS adds up where RSS
 * would count them many times. 0 for a process gone or a zombie.
 */
async function pssKb(pid: number): Promise<number> {
  const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '');
  return Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0);
}

async function totalPssKb(pids: Iterable<number>): Promise<number> {
  return (await Promise.all([...pids].map(pssKb))).reduce((sum, kb) => sum + kb, 0);
}

/** Runs `work` while sampling `sampleKb` every SAMPLE_MS: its result and the highest sample, in MB. */
async function withPeakMemory<T>(sampleKb: () => Promise<number>, work: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peakKb = await sampleKb();
  let running = true;
  const sampling = (async () => {
    while (running) {
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
      peakKb = Math.max(peakKb, await sampleKb());
    }
  })();
  let result: T;
  try {
    result = await work();
  } finally {
    running = false;
    await sampling; // one more sample, taken as the work ends
  }
  return { result, peakMb: peakKb / 1024 };
}

type Measured = { result: Figures; peakMb: number };

/**
 * A side's cell, run twice: once with its memory sampled, for the peak, then again with nothing
 * else running, for the figures. Reading `smaps_rollup` walks a process's page tables under its
 * memory-map lock: one sample of Pluck's side (this Node process, Chromium's browser, GPU, network
 * and renderer processes) took ~110 ms, ~45 ms of it kernel CPU, on this 2-core machine, while
 * holding up the sampled processes' own memory work. Sampled while timed, screenshots at
 * concurrency 1 took 181 ms each instead of 161 (same code, same minute). The first run also
 * warms the side for the second; the row's failures are both runs'.
 */
async function sampledThenTimed(sampleKb: () => Promise<number>, run: () => Promise<Figures>): Promise<Measured> {
  const { result: sampled, peakMb } = await withPeakMemory(sampleKb, run);
  const result = await run();
  return { result: { ...result, failures: result.failures + sampled.failures }, peakMb };
}

const TABLE_HEADER = [
  'operation'.padEnd(10),
  'conc'.padStart(4),
  'rnd',
  'baseline'.padStart(9),
  'pluck'.padStart(9),
  'ratio'.padStart(7),
  'base50'.padStart(7),
  'pluck50'.padStart(7),
  'Δp50ms'.padStart(7),
  'base95'.padStart(7),
  'pluck95'.padStart(7),
  'baseMB'.padStart(7),
  'pluckMB*'.padStart(8),
  'fails'.padStart(5),
].join(' ');
const TABLE_NOTE =
  `baseMB, pluckMB: peak PSS while that side ran the cell once more, sampled every ${SAMPLE_MS} ms (the timed run is not sampled). *pluckMB includes this bench's Node ` +
  "process (it hosts Pluck's server, pool and egress proxy) with Pluck's Chromium; baseMB is the baseline's Chromium alone.";

/** One round of one cell, in TABLE_HEADER's columns. */
function tableRow(operation: Operation, concurrency: number, round: number, baseline: Measured, pluck: Measured): string {
  const [b, p] = [baseline.result, pluck.result];
  return [
    operation.padEnd(10),
    String(concurrency).padStart(4),
    String(round).padStart(3),
    `${b.pagesPerSecond.toFixed(2)}/s`.padStart(9),
    `${p.pagesPerSecond.toFixed(2)}/s`.padStart(9),
    `${(p.pagesPerSecond / b.pagesPerSecond).toFixed(2)}x`.padStart(7),
    `${b.p50.toFixed(0)}`.padStart(7),
    `${p.p50.toFixed(0)}`.padStart(7),
    `${p.p50 - b.p50 >= 0 ? '+' : ''}${(p.p50 - b.p50).toFixed(0)}`.padStart(7),
    `${b.p95.toFixed(0)}`.padStart(7),
    `${p.p95.toFixed(0)}`.padStart(7),
    baseline.peakMb.toFixed(0).padStart(7),
    pluck.peakMb.toFixed(0).padStart(8),
    `${b.failures + p.failures}`.padStart(5),
  ].join(' ');
}

async function main() {
  const html = fixturePage();
  const site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const sitePort = (site.address() as AddressInfo).port;
  const pageUrl = `http://127.0.0.1:${sitePort}/article`;

  const dataDir = await mkdtemp(join(tmpdir(), 'pluck-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ALLOW_PRIVATE_HOSTS: `127.0.0.1:${sitePort}`,
    FREE_REQUESTS_PER_HOUR: '1000000',
    FREE_CONCURRENCY: '64',
    FREE_MONTHLY_CREDITS: '1000000',
    CACHE_TTL_SECONDS: '0',
    AUTH_SECRET: 'bench-secret-bench-secret-bench-secret',
    CHROMIUM_PATH: BENCH_CHROMIUM_PATH,
  });
  const ctx = await createContext(config, { logger: pino({ level: process.env.BENCH_LOG_LEVEL ?? 'silent' }) });
  const server = serve({ fetch: createApp(ctx).fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const user = await ctx.auth.api.signUpEmail({ body: { email: 'bench@example.com', password: 'bench-password-123', name: 'bench' } });
  const { key } = await ctx.apiKeys.create(user.user.id, 'bench');

  const viaApi = (operation: Operation) => async () => {
    const res = await fetch(`${base}/v1/web/${operation}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: pageUrl, maxAge: 0 }),
    });
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200) throw new Error(`HTTP ${res.status} ${body.toString('utf8', 0, 300)}`);
  };

  // Pluck's side: this process (it hosts the server, the pool and the egress proxy) and its
  // Chromium, found by profile directory. The pool relaunches Chromium when it recycles, the new
  // one starting while the old one drains, so every profile seen is kept: a retired browser's
  // processes are gone once it has closed.
  const pluckProfiles = new Set<string>();
  const pluckPssKb = async () => {
    const userDataDir = ctx.browser.stats().userDataDir;
    if (userDataDir) pluckProfiles.add(`--user-data-dir=${userDataDir}`);
    return totalPssKb(new Set([process.pid, ...treeOf(await processTable(), pluckProfiles)]));
  };
  // The baseline's Chromium, tagged by a flag it ignores (Playwright refuses --user-data-dir in args).
  const baselineMarker = `--bench-baseline-marker=${process.pid}`;
  const baselinePssKb = async () => totalPssKb(treeOf(await processTable(), [baselineMarker]));
  const browser = await chromium.launch({ executablePath: config.browser.chromiumPath, args: [...BASELINE_CHROMIUM_ARGS, baselineMarker] });
  // Warm both sides so neither pays for a first launch or bundle inside the measurement.
  await viaApi('markdown')();
  await baselineOnce(browser, pageUrl, 'markdown');

  const rows: string[] = [];
  process.stdout.write(`Page operations, ${REQUESTS} requests per cell, ${ROUNDS} rounds, ~${Math.round(html.length / 1024)} KB page, on loopback\n`);
  process.stdout.write(`host: ${processStartMs().toFixed(2)} ms per start of /bin/true\n`);
  for (const operation of OPERATIONS) {
    for (const concurrency of LEVELS) {
      const sides = {
        baseline: () => sampledThenTimed(baselinePssKb, () => measure(concurrency, REQUESTS, () => baselineOnce(browser, pageUrl, operation))),
        pluck: () => sampledThenTimed(pluckPssKb, () => measure(concurrency, REQUESTS, viaApi(operation))),
      };
      for (let round = 1; round <= ROUNDS; round += 1) {
        // Odd rounds run the baseline first, even rounds Pluck first, so a burst of load from
        // elsewhere is as likely to land on either side.
        const order = round % 2 === 1 ? (['baseline', 'pluck'] as const) : (['pluck', 'baseline'] as const);
        const measured: Partial<Record<'baseline' | 'pluck', Measured>> = {};
        for (const side of order) measured[side] = await sides[side]();
        rows.push(tableRow(operation, concurrency, round, measured.baseline!, measured.pluck!));
        process.stdout.write(`${rows.at(-1)}\n`);
      }
    }
  }
  process.stdout.write(`\n${TABLE_HEADER}\n${rows.join('\n')}\n${TABLE_NOTE}\nhost at the end of the cells: ${processStartMs().toFixed(2)} ms per start of /bin/true\n`);
  if (MULTI_REQUESTS > 0) await compareMultiFormat(base, key, pageUrl);
  if (MEMORY_SERIES > 0) await memorySeries(MEMORY_SERIES, viaApi('markdown'), pluckPssKb);

  await browser.close();
  server.close();
  site.close();
  await closeContext(ctx);
  await rm(dataDir, { recursive: true, force: true });
}

/**
 * One `/v1/web/page` request for markdown, links, rawHtml and a screenshot against the same four
 * outputs asked of the four spec endpoints one after another, alternating, the cache off: time
 * and credits per set of outputs.
 */
async function compareMultiFormat(base: string, key: string, pageUrl: string): Promise<void> {
  const call = async (path: string, body: Record<string, unknown>) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: pageUrl, maxAge: 0, ...body }),
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status}`);
    return Number(res.headers.get('x-credits-cost') ?? 0) || 0;
  };
  const credits = async (path: string, body: Record<string, unknown>) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: pageUrl, maxAge: 0, ...body }),
    });
    const answer = (await res.json()) as { creditsCost: number };
    return answer.creditsCost;
  };
  const separate = async () =>
    (await credits('/v1/web/markdown', {})) + (await credits('/v1/web/links', {})) + (await credits('/v1/web/content', {})) + (await call('/v1/web/screenshot', {}));
  const together = () => credits('/v1/web/page', { formats: ['markdown', 'links', 'rawHtml', 'screenshot'] });
  const times = { separate: [] as number[], together: [] as number[] };
  const cost = { separate: 0, together: 0 };
  for (let i = 0; i < MULTI_REQUESTS; i += 1) {
    for (const [name, run] of (i % 2 === 0 ? [['separate', separate], ['together', together]] : [['together', together], ['separate', separate]]) as Array<
      ['separate' | 'together', () => Promise<number>]
    >) {
      const started = performance.now();
      cost[name] = await run();
      times[name].push(performance.now() - started);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
  const [apart, one] = [median(times.separate), median(times.together)];
  process.stdout.write(
    `\nmarkdown + links + rawHtml + screenshot of one page, ${MULTI_REQUESTS} times each, alternating:\n` +
      `  four spec requests: median ${apart.toFixed(0)} ms, ${cost.separate} credits\n` +
      `  one /v1/web/page:   median ${one.toFixed(0)} ms, ${cost.together} credits (${(one / apart).toFixed(2)}x the time)\n`,
  );
}

/**
 * `total` markdown requests through the API at concurrency 4, the cache off, printing Pluck's
 * memory every SERIES_STEP requests: whether it stays flat over thousands of requests. Only
 * counters are kept, no latencies, so a long series holds nothing per request.
 */
async function memorySeries(total: number, once: () => Promise<void>, pluckPssKb: () => Promise<number>): Promise<void> {
  const concurrency = 4;
  process.stdout.write(
    `\nMemory over ${total} markdown requests, concurrency ${concurrency}, cache off; pluckMB is PSS of this Node process and Pluck's Chromium:\n` +
      `${'requests'.padStart(9)} ${'pluckMB'.padStart(8)} ${'heapMB'.padStart(8)} ${'pages/s'.padStart(8)}\n`,
  );
  let [started, done, pages, failures] = [0, 0, 0, 0];
  let stretch = { at: performance.now(), pages: 0 };
  const pss = { first: NaN, last: NaN, peak: 0 };
  const heap = { first: NaN, last: NaN, peak: 0 };
  let printing = Promise.resolve();
  // Called as request `done` completes; the figures that need no await are taken at once.
  const mark = () => {
    const now = performance.now();
    const perSecond = ((pages - stretch.pages) / (now - stretch.at)) * 1000;
    stretch = { at: now, pages };
    const heapMb = process.memoryUsage().heapUsed / 1024 / 1024;
    const requests = done;
    printing = printing.then(async () => {
      const pssMb = (await pluckPssKb()) / 1024;
      if (Number.isNaN(pss.first)) [pss.first, heap.first] = [pssMb, heapMb];
      [pss.last, pss.peak] = [pssMb, Math.max(pss.peak, pssMb)];
      [heap.last, heap.peak] = [heapMb, Math.max(heap.peak, heapMb)];
      process.stdout.write(
        `${String(requests).padStart(9)} ${pssMb.toFixed(0).padStart(8)} ${heapMb.toFixed(1).padStart(8)} ${perSecond.toFixed(2).padStart(8)}\n`,
      );
    });
  };
  const { peakMb } = await withPeakMemory(pluckPssKb, () =>
    Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (started < total) {
          started += 1;
          try {
            await once();
            pages += 1;
          } catch (error) {
            failures += 1;
            if (failures === 1) process.stderr.write(`first failure: ${error instanceof Error ? error.message : String(error)}\n`);
          }
          done += 1;
          if (done % SERIES_STEP === 0 || done === total) mark();
        }
      }),
    ),
  );
  await printing;
  process.stdout.write(
    `pluckMB first ${pss.first.toFixed(0)}, last ${pss.last.toFixed(0)}, peak ${Math.max(peakMb, pss.peak).toFixed(0)} (sampled every ${SAMPLE_MS} ms); ` +
      `heap used MB first ${heap.first.toFixed(1)}, last ${heap.last.toFixed(1)}, peak ${heap.peak.toFixed(1)} (at the lines above); ${failures} failures\n`,
  );
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
