/**
 * `npm run bench`: page-operation latency and throughput through Pluck's HTTP API, against a
 * baseline measured in the same run: plain playwright-core on the same Chromium, doing the same
 * work with a new context per page. Everything runs on loopback; figures are printed as ratios.
 *
 *   npm run bench -- [--requests N] [--ops content,markdown,screenshot,pdf] [--concurrency 1,4,8]
 */
import { mkdtemp, rm } from 'node:fs/promises';
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
import { BASELINE_CHROMIUM_ARGS } from './baseline-chromium.js';

type Operation = 'content' | 'markdown' | 'screenshot' | 'pdf';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '24' },
    ops: { type: 'string', default: 'content,markdown,screenshot,pdf' },
    concurrency: { type: 'string', default: '1,4,8' },
    'multi-requests': { type: 'string', default: '12' },
  },
});
const REQUESTS = Number(values.requests);
const OPERATIONS = values.ops!.split(',') as Operation[];
const LEVELS = values.concurrency!.split(',').map(Number);
const MULTI_REQUESTS = Number(values['multi-requests']);

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

  const browser = await chromium.launch({ executablePath: config.browser.chromiumPath, args: BASELINE_CHROMIUM_ARGS });
  // Warm both sides so neither pays for a first launch or bundle inside the measurement.
  await viaApi('markdown')();
  await baselineOnce(browser, pageUrl, 'markdown');

  const rows: string[] = [];
  process.stdout.write(`Page operations, ${REQUESTS} requests per cell, ~${Math.round(html.length / 1024)} KB page, on loopback\n`);
  for (const operation of OPERATIONS) {
    for (const concurrency of LEVELS) {
      const baseline = await measure(concurrency, REQUESTS, () => baselineOnce(browser, pageUrl, operation));
      const pluck = await measure(concurrency, REQUESTS, viaApi(operation));
      rows.push(
        [
          operation.padEnd(10),
          String(concurrency).padStart(3),
          `${baseline.pagesPerSecond.toFixed(2)}/s`.padStart(9),
          `${pluck.pagesPerSecond.toFixed(2)}/s`.padStart(9),
          `${(pluck.pagesPerSecond / baseline.pagesPerSecond).toFixed(2)}x`.padStart(7),
          `${baseline.p50.toFixed(0)}`.padStart(7),
          `${pluck.p50.toFixed(0)}`.padStart(7),
          `${(pluck.p50 - baseline.p50 >= 0 ? '+' : '')}${(pluck.p50 - baseline.p50).toFixed(0)}`.padStart(7),
          `${baseline.p95.toFixed(0)}`.padStart(7),
          `${pluck.p95.toFixed(0)}`.padStart(7),
          `${baseline.failures + pluck.failures}`.padStart(5),
        ].join(' '),
      );
      process.stdout.write(`${rows.at(-1)}\n`);
    }
  }
  process.stdout.write(
    '\noperation  conc  baseline     pluck   ratio  base50 pluck50  Δp50ms  base95 pluck95 fails\n' + rows.join('\n') + '\n',
  );
  if (MULTI_REQUESTS > 0) await compareMultiFormat(base, key, pageUrl);

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

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
