import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gunzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { prepareExtractor } from '../../src/extract/extract.js';
import { bundlePageFunction, runPageFunction, siblingModule } from '../../src/extract/page-script.js';
import { BENCH_LAUNCH_OPTIONS, listStoredPages, openStoredPage, percentile } from '../bench-extraction.js';

/** Where extraction time goes: npx tsx scripts/extraction-debug/profile.ts DATA_DIR [LIMIT] */
const [dataDir = '', limit = '40'] = process.argv.slice(2);
const script = await bundlePageFunction(siblingModule(import.meta.url, './profile.page'), 'profile');
await prepareExtractor();
const browser = await chromium.launch(BENCH_LAUNCH_OPTIONS);
const context = await browser.newContext({ javaScriptEnabled: false });
const rows: Record<string, number>[] = [];
for (const stored of (await listStoredPages(resolve(dataDir))).slice(0, Number(limit))) {
  const bytes = await readFile(stored.file);
  const page = await openStoredPage(context, stored.url, stored.file.endsWith('.gz') ? gunzipSync(bytes) : bytes);
  const n0 = performance.now();
  await page.evaluate('1');
  const noop = performance.now() - n0;
  const first = performance.now();
  const phases = await runPageFunction<Record<string, number>>(page, script, { url: stored.url });
  const total = performance.now() - first;
  const again = performance.now();
  await runPageFunction<Record<string, number>>(page, script, { url: stored.url });
  rows.push({ ...phases, noop, total, second: performance.now() - again });
  await page.close();
}
await browser.close();
for (const key of Object.keys(rows[0] ?? {})) {
  const values = rows.map((row) => row[key] ?? 0);
  console.log(`${key.padEnd(10)} median ${percentile(values, 0.5).toFixed(1)} p95 ${percentile(values, 0.95).toFixed(1)}`);
}
