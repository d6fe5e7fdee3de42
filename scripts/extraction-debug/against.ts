import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium, type Page } from 'playwright-core';
import { extractMarkdown, prepareExtractor } from '../../src/extract/extract.js';
import { BENCH_LAUNCH_OPTIONS, listStoredPages, openStoredPage, percentile, readStoredHtml, settleForExtraction } from '../bench-extraction.js';

/**
 * This checkout's extraction against another checkout's, page by page in one browser:
 *   git worktree add /tmp/before REV && ln -s "$PWD/node_modules" /tmp/before/node_modules
 *   npx tsx scripts/extraction-debug/against.ts DATA_DIR /tmp/before [EVERY_NTH]
 * Each page is loaded once for each side, in alternating order, and each side's own bench prepares
 * it as that bench did (older benches had no `settleForExtraction`: a main-world layout pass). The
 * host's speed drifts 2-3x over a day, so whole runs taken apart compare badly; paired loads of the
 * same page, minutes apart at most, do not. Prints both medians and the median of the differences.
 */

type Bench = typeof import('../bench-extraction.js');
type Extract = typeof import('../../src/extract/extract.js');

const [dataDir = '', otherTree = '', every = '1'] = process.argv.slice(2);
if (!otherTree) throw new Error('usage: against.ts DATA_DIR OTHER_CHECKOUT [EVERY_NTH]');
const other = {
  bench: (await import(resolve(otherTree, 'scripts/bench-extraction.ts'))) as Partial<Bench> & Pick<Bench, 'openStoredPage'>,
  extract: (await import(resolve(otherTree, 'src/extract/extract.ts'))) as Extract,
};
const sides = [
  {
    name: otherTree,
    open: other.bench.openStoredPage,
    settle: other.bench.settleForExtraction ?? ((page: Page) => page.evaluate('document.documentElement.getBoundingClientRect().height')),
    extract: other.extract.extractMarkdown,
  },
  { name: 'this checkout', open: openStoredPage, settle: settleForExtraction, extract: extractMarkdown },
];
await Promise.all([prepareExtractor(), other.extract.prepareExtractor()]);
const browser = await chromium.launch(BENCH_LAUNCH_OPTIONS);
const context = await browser.newContext({ javaScriptEnabled: false });
const times: number[][] = [[], []];
let differing = 0;
const pages = (await listStoredPages(resolve(dataDir))).filter((_, index) => index % Number(every) === 0);
for (const [index, stored] of pages.entries()) {
  const html = await readStoredHtml(stored.file);
  const markdown: string[] = [];
  for (const which of index % 2 === 0 ? [0, 1] : [1, 0]) {
    const side = sides[which]!;
    const page = await side.open(context, stored.url, html);
    await side.settle(page);
    const start = performance.now();
    markdown[which] = (await side.extract(page, { url: stored.url })).markdown;
    times[which]!.push(performance.now() - start);
    await page.close();
  }
  if (markdown[0] !== markdown[1]) differing += 1;
}
await browser.close();
const [before, after] = times as [number[], number[]];
const medians = [percentile(before, 0.5), percentile(after, 0.5)] as const;
for (const [which, side] of sides.entries()) console.log(`${side.name}: median ${medians[which]!.toFixed(2)} ms, p95 ${percentile(times[which]!, 0.95).toFixed(1)}`);
console.log(`ratio of medians ${(medians[1] / medians[0]).toFixed(3)}; paired difference (this - other) median ${percentile(after.map((ms, i) => ms - before[i]!), 0.5).toFixed(2)} ms over ${before.length} pages; markdown differs on ${differing}`);
