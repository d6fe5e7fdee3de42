import { chromium } from 'playwright-core';
import { BENCH_LAUNCH_OPTIONS, CHROMIUM_ARGS, listStoredPages, percentile, runExtractionBench } from '../bench-extraction.js';

/**
 * Extraction time under extra Chromium flags (V8 tiers, say), each set run twice in turn on every
 * Nth page: npx tsx scripts/extraction-debug/flags.ts DATA_DIR OUT_DIR PAGES FLAGS... ('' = none).
 * The flags come after the bench's own; Chromium keeps the last of a repeated switch, so a set
 * with --disable-features must repeat the bench's list.
 */
const [dataDir, outDir, count, ...flagSets] = process.argv.slice(2);
const only = (await listStoredPages(dataDir!)).map((p) => p.name).filter((_, i) => i % Math.ceil(340 / Number(count)) === 0);
const results = new Map<string, number[]>();
for (let round = 0; round < 2; round++) {
  for (const flags of flagSets) {
    const args = [...CHROMIUM_ARGS, ...(flags ? flags.split(' ') : [])];
    const browser = await chromium.launch({ ...BENCH_LAUNCH_OPTIONS, args });
    const timings = await runExtractionBench(browser, { dataDir: dataDir!, outDir: outDir!, only });
    await browser.close();
    const list = results.get(flags) ?? [];
    list.push(...timings.map((t) => t.ms));
    results.set(flags, list);
  }
}
for (const [flags, ms] of results) console.log(`${flags || '(none)'}: median ${percentile(ms, 0.5).toFixed(1)} p95 ${percentile(ms, 0.95).toFixed(1)} N ${ms.length}`);
