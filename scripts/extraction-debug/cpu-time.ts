import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { bundlePageFunction, runPageFunction } from '../../src/extract/page-script.js';
import { BENCH_LAUNCH_OPTIONS, CHROMIUM_ARGS, listStoredPages, openStoredPage, percentile, readStoredHtml } from '../bench-extraction.js';

/**
 * Renderer main-thread CPU time of one extraction (Performance.getMetrics ThreadTime), which a
 * busy machine disturbs far less than wall time: npx tsx scripts/extraction-debug/cpu-time.ts DATA_DIR LIMIT ENTRY...
 * Extra Chromium flags, separated by '|', come from EXTRA_CHROMIUM_ARGS (they replace the --js-flags of the bench).
 * Each ENTRY (a path to an in-page entry module exporting extractInPage) runs on a fresh load of every page.
 */
const [dataDir = '', limit = '40', ...entries] = process.argv.slice(2);
const scripts = await Promise.all(entries.map((entry) => bundlePageFunction(resolve(entry), 'extractInPage')));
const extraArgs = process.env.EXTRA_CHROMIUM_ARGS ? process.env.EXTRA_CHROMIUM_ARGS.split('|') : [];
const browser = await chromium.launch({ ...BENCH_LAUNCH_OPTIONS, args: [...CHROMIUM_ARGS.filter((arg) => !extraArgs.length || !arg.startsWith('--js-flags')), ...extraArgs] });
const context = await browser.newContext({ javaScriptEnabled: false });
type Metrics = Record<string, number>;
const rows: Metrics[][] = entries.map(() => []);
const all = await listStoredPages(resolve(dataDir));
const step = Math.max(1, Math.floor(all.length / Number(limit)));
for (const stored of all.filter((_, i) => i % step === 0)) {
  const html = await readStoredHtml(stored.file);
  for (const [index, script] of scripts.entries()) {
    const page = await openStoredPage(context, stored.url, html);
    await page.evaluate('document.documentElement.getBoundingClientRect().height');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const read = async (): Promise<Metrics> =>
      Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
    const before = await read();
    await runPageFunction(page, script, { url: stored.url, onlyMainContent: true, includeTags: [], excludeTags: [] });
    const after = await read();
    const delta = (name: string) => ((after[name] ?? 0) - (before[name] ?? 0)) * 1000;
    rows[index]?.push({ thread: delta('ThreadTime'), script: delta('ScriptDuration'), compile: delta('V8CompileDuration'), style: delta('RecalcStyleDuration'), layout: delta('LayoutDuration'), task: delta('TaskDuration') });
    await cdp.detach();
    await page.close();
  }
}
await browser.close();
for (const [index, entry] of entries.entries()) {
  const list = rows[index] ?? [];
  const summary = Object.keys(list[0] ?? {}).map((key) => {
    const values = list.map((row) => row[key] ?? 0);
    return `${key} ${percentile(values, 0.5).toFixed(1)}/${percentile(values, 0.95).toFixed(1)}`;
  });
  console.log(`${entry}: median/p95 ms: ${summary.join('  ')}  (N ${list.length})`);
}
