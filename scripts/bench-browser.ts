/**
 * Browser engine benchmark: the pool (egress proxy, prepared contexts) against plain
 * playwright-core on the same Chromium with a new context per page, both fetching the rendered
 * HTML of one ~30 KB loopback page. Rounds alternate so load from elsewhere hits both sides.
 *
 *   npx tsx scripts/bench-browser.ts [--pages 40] [--concurrency 1,4] [--rounds 2]
 */
import { readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import pino from 'pino';
import { BrowserPool } from '../src/browser/browser-pool.js';
import { loadConfig } from '../src/config.js';
import { AddressPolicy } from '../src/net/address-policy.js';
import { BASELINE_CHROMIUM_ARGS, BENCH_CHROMIUM_PATH } from './baseline-chromium.js';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '40' },
    concurrency: { type: 'string', default: '1,4' },
    rounds: { type: 'string', default: '2' },
  },
});
const pagesPerRun = Number(values.pages);
const levels = values.concurrency.split(',').map(Number);
const rounds = Number(values.rounds);
const defaults = loadConfig({}).browser;
const chromiumPath = BENCH_CHROMIUM_PATH;
const baselineArgs = BASELINE_CHROMIUM_ARGS;

type Visit = (url: string) => Promise<number>;

/**
 * CPU milliseconds used so far by the Chromium whose processes carry `marker` in their command
 * line (reaped renderers included, via their parents' cutime/cstime) plus this Node process
 * (Playwright and the egress proxy). Unlike wall time, barely moved by other load on the machine.
 */
async function cpuMs(marker: string): Promise<number> {
  let ticks = 0;
  for (const name of (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (!(await readFile(`/proc/${name}/cmdline`, 'utf8')).includes(marker)) continue;
      const stat = await readFile(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0);
    } catch {
      // exited meanwhile
    }
  }
  const node = process.cpuUsage();
  return ticks * 10 + (node.user + node.system) / 1000;
}

const paragraph = '<p>Pluck benchmark paragraph with <a href="/x">a link</a> and some <em>emphasis</em> to parse.</p>\n';
const html = `<!doctype html><html><head><title>Bench</title></head><body><main>${paragraph.repeat(300)}</main></body></html>`;
const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
const port = (server.address() as AddressInfo).port;
const url = `http://127.0.0.1:${port}/page`;

/** Runs `total` visits with `concurrency` workers: each visit's latency, the wall time and the CPU used. */
async function run(visit: Visit, total: number, concurrency: number, marker: () => string) {
  const latencies: number[] = [];
  const cpuBefore = await cpuMs(marker());
  let started = 0;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started < total) {
        started += 1;
        const t0 = performance.now();
        const length = await visit(url);
        if (length < html.length / 2) throw new Error(`short page: ${length} bytes`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const wallMs = performance.now() - began;
  // Let background work (closing used contexts, preparing the next ones) land in this run's CPU.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return { latencies, wallMs, cpuMs: (await cpuMs(marker())) - cpuBefore };
}

function summary({ latencies, wallMs, cpuMs: cpu }: { latencies: number[]; wallMs: number; cpuMs: number }) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: at(0.5), p95: at(0.95), perSecond: (latencies.length / wallMs) * 1000, cpuPerPage: cpu / latencies.length };
}

const baselineTag = `--bench-baseline=${process.pid}`;
const baselineBrowser = await chromium.launch({ executablePath: chromiumPath, args: [...baselineArgs, baselineTag] });
const baselineMarker = await profileOf(baselineTag);

/** The `--user-data-dir=...` argument of the browser tagged `tag`: every child process carries it. */
async function profileOf(tag: string): Promise<string> {
  for (const name of (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry))) {
    const args = (await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '')).split('\0');
    if (args.includes(tag)) return args.find((arg) => arg.startsWith('--user-data-dir=')) ?? tag;
  }
  return tag;
}
const baseline: Visit = async (target) => {
  const context = await baselineBrowser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(target);
    return (await page.content()).length;
  } finally {
    await context.close();
  }
};

const results: string[] = [];
for (const concurrency of levels) {
  const pool = new BrowserPool({
    executablePath: chromiumPath,
    sandbox: false,
    maxPages: Math.max(concurrency, defaults.maxPages),
    maxQueue: 100,
    queueTimeoutMs: 60_000,
    recycleAfter: 100_000,
    preparedContexts: defaults.preparedContexts,
    navigationTimeoutMaxMs: 30_000,
    policy: new AddressPolicy({ allowPrivateHosts: [`127.0.0.1:${port}`] }),
    logger: pino({ level: 'silent' }),
  });
  const pooled: Visit = (target) => pool.withLoadedPage({}, { url: target }, async ({ page }) => (await page.content()).length);
  const poolMarker = () => `--user-data-dir=${pool.stats().userDataDir ?? 'not-started'}`;
  const markers = { baseline: () => baselineMarker, pool: poolMarker };
  await run(baseline, 4, concurrency, markers.baseline); // warm both sides up
  await run(pooled, 4, concurrency, markers.pool);
  const samples = { baseline: { latencies: [] as number[], wallMs: 0, cpuMs: 0 }, pool: { latencies: [] as number[], wallMs: 0, cpuMs: 0 } };
  for (let round = 0; round < rounds; round += 1) {
    for (const [name, visit] of round % 2 === 0 ? ([['baseline', baseline], ['pool', pooled]] as const) : ([['pool', pooled], ['baseline', baseline]] as const)) {
      const { latencies, wallMs, cpuMs: cpu } = await run(visit, pagesPerRun, concurrency, markers[name]);
      samples[name].latencies.push(...latencies);
      samples[name].wallMs += wallMs;
      samples[name].cpuMs += cpu;
    }
  }
  await pool.close();
  const base = summary(samples.baseline);
  const ours = summary(samples.pool);
  results.push(
    `concurrency ${concurrency}: baseline p50 ${base.p50.toFixed(0)} ms, p95 ${base.p95.toFixed(0)} ms, ${base.perSecond.toFixed(2)} pages/s, ${base.cpuPerPage.toFixed(0)} CPU ms/page | ` +
      `pool p50 ${ours.p50.toFixed(0)} ms, p95 ${ours.p95.toFixed(0)} ms, ${ours.perSecond.toFixed(2)} pages/s, ${ours.cpuPerPage.toFixed(0)} CPU ms/page | ` +
      `throughput ${(ours.perSecond / base.perSecond).toFixed(2)}x, p50 ${ours.p50 - base.p50 >= 0 ? '+' : ''}${(ours.p50 - base.p50).toFixed(0)} ms, CPU ${(ours.cpuPerPage / base.cpuPerPage).toFixed(2)}x`,
  );
  process.stdout.write(`${results.at(-1)}\n`);
}

await baselineBrowser.close();
server.close();
