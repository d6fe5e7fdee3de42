import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { bundlePageFunction, runPageFunction, siblingModule } from '../../src/extract/page-script.js';
import { BENCH_LAUNCH_OPTIONS, listStoredPages, openStoredPage, readStoredHtml } from '../bench-extraction.js';
import { readTruth, shingles } from './truth.js';
import type { KeptBlock } from './keep-audit.page.js';

/**
 * What the kept content holds that the ground truth does not: the outermost kept blocks whose text
 * is nearly all outside the truth, ranked by the share of the page's output they take, and their
 * class words summed over pages: npx tsx scripts/extraction-debug/keep-audit.ts DATA_DIR [TYPE]
 */
const [dataDir = '', type = ''] = process.argv.slice(2);
const truth = await readTruth(dataDir);
const script = await bundlePageFunction(siblingModule(import.meta.url, './keep-audit.page'), 'keepAudit');
const browser = await chromium.launch(BENCH_LAUNCH_OPTIONS);
const context = await browser.newContext({ javaScriptEnabled: false });
const rows: Array<{ page: string; what: string; share: number; size: number }> = [];
const words = new Map<string, { share: number; pages: Set<string> }>();
for (const stored of await listStoredPages(resolve(dataDir))) {
  const entry = truth[stored.name];
  if (!entry?.articleBody || (type && entry.pageType !== type)) continue;
  const truthSet = new Set(shingles(entry.articleBody));
  const page = await openStoredPage(context, stored.url, await readStoredHtml(stored.file));
  const { blocks } = await runPageFunction<{ pageType: string; blocks: KeptBlock[] }>(page, script, { url: stored.url });
  await page.close();
  const outside = blocks.map((block) => {
    const own = shingles(block.text);
    return { size: own.length, outside: own.length > 0 && own.filter((s) => !truthSet.has(s)).length >= own.length * 0.9 };
  });
  const total = blocks.reduce((sum, block, i) => sum + (block.parent === -1 ? (outside[i]?.size ?? 0) : 0), 0) || 1;
  blocks.forEach((block, i) => {
    const mine = outside[i];
    if (!mine?.outside || mine.size < 20 || (block.parent >= 0 && outside[block.parent]?.outside)) return;
    const share = mine.size / total;
    rows.push({ page: stored.name, what: block.what, share, size: mine.size });
    for (const word of new Set(block.tokens)) {
      const row = words.get(word) ?? { share: 0, pages: new Set() };
      row.share += share;
      row.pages.add(stored.name);
      words.set(word, row);
    }
  });
}
await browser.close();
console.log('class word\tsum of output shares outside the truth\tpages');
for (const [word, row] of [...words].filter(([, row]) => row.pages.size >= 3).sort((a, b) => b[1].share - a[1].share).slice(0, 40)) console.log(`${word}\t${row.share.toFixed(2)}\t${row.pages.size}`);
console.log('\nlargest kept blocks outside the truth (page, element, share of output, shingles)');
for (const row of rows.sort((a, b) => b.share - a.share).slice(0, 60)) console.log(`${row.page}\t${row.what}\t${row.share.toFixed(2)}\t${row.size}`);
