import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { prepareExtractor } from '../../src/extract/extract.js';
import { BENCH_LAUNCH_OPTIONS, listStoredPages, openStoredPage, percentile, readStoredHtml } from '../bench-extraction.js';

/**
 * Where the round trip of one extraction goes: npx tsx scripts/extraction-debug/overhead.ts DATA_DIR [LIMIT]
 * `inPage` is the extractor's own time measured inside the page; `roundTrip - inPage` is the
 * evaluate call, compile and result transfer; `second*` is the same extraction again on the page.
 */
const [dataDir = '', limit = '40'] = process.argv.slice(2);
const script = await prepareExtractor();
const browser = await chromium.launch(BENCH_LAUNCH_OPTIONS);
const context = await browser.newContext({ javaScriptEnabled: false });
const rows: Record<string, number>[] = [];
const timedCall = (url: string) =>
  `(() => { const t0 = performance.now(); const r = ${script}(${JSON.stringify({ url, onlyMainContent: true, includeTags: [], excludeTags: [] })}); return { inPage: performance.now() - t0, r }; })()`;
for (const stored of (await listStoredPages(resolve(dataDir))).slice(0, Number(limit))) {
  const page = await openStoredPage(context, stored.url, await readStoredHtml(stored.file));
  await page.evaluate('document.documentElement.getBoundingClientRect().height');
  const n0 = performance.now();
  await page.evaluate('1');
  const noop = performance.now() - n0;
  const first = performance.now();
  const one = (await page.evaluate(timedCall(stored.url))) as { inPage: number };
  const roundTrip = performance.now() - first;
  const again = performance.now();
  const two = (await page.evaluate(timedCall(stored.url))) as { inPage: number };
  rows.push({ noop, roundTrip, inPage: one.inPage, secondRoundTrip: performance.now() - again, secondInPage: two.inPage });
  await page.close();
}
await browser.close();
for (const key of Object.keys(rows[0] ?? {})) {
  const values = rows.map((row) => row[key] ?? 0);
  console.log(`${key.padEnd(16)} median ${percentile(values, 0.5).toFixed(1)} p95 ${percentile(values, 0.95).toFixed(1)}`);
}
