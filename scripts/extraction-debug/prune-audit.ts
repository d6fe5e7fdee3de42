import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { bundlePageFunction, runPageFunction, siblingModule } from '../../src/extract/page-script.js';
import { BENCH_LAUNCH_OPTIONS, listStoredPages, openStoredPage, readStoredHtml } from '../bench-extraction.js';
import { readTruth, shingles } from './truth.js';

/**
 * Which pruning rules cost recall: for every pruned element, how much of its text the ground truth
 * holds, summed by rule: npx tsx scripts/extraction-debug/prune-audit.ts DATA_DIR [NAME,...]
 */
const [dataDir = '', names = ''] = process.argv.slice(2);
const truth = await readTruth(dataDir);
const script = await bundlePageFunction(siblingModule(import.meta.url, './prune-audit.page'), 'pruneAudit');
const browser = await chromium.launch(BENCH_LAUNCH_OPTIONS);
const context = await browser.newContext({ javaScriptEnabled: false });
const byReason = new Map<string, { lost: number; dropped: number; pages: Set<string> }>();
const worst: Array<{ page: string; what: string; reason: string; lost: number; total: number; share: number }> = [];
const wanted = names ? names.split(',') : null;
for (const stored of await listStoredPages(resolve(dataDir))) {
  if (wanted && !wanted.includes(stored.name)) continue;
  const truthSet = new Set(shingles(truth[stored.name]?.articleBody ?? ''));
  const page = await openStoredPage(context, stored.url, await readStoredHtml(stored.file));
  const audit = await runPageFunction<{ pageType: string; pruned: Array<{ what: string; reason: string; text: string }> }>(page, script, { url: stored.url });
  await page.close();
  for (const element of audit.pruned) {
    const own = shingles(element.text);
    const lost = own.filter((s) => truthSet.has(s)).length;
    const key = `${truth[stored.name]?.pageType ?? '?'}\t${element.reason}`;
    const row = byReason.get(key) ?? { lost: 0, dropped: 0, pages: new Set() };
    row.lost += lost / Math.max(1, truthSet.size);
    row.dropped += own.length - lost;
    if (lost > 0) row.pages.add(stored.name);
    byReason.set(key, row);
    if (lost >= 10) worst.push({ page: stored.name, what: element.what, reason: element.reason, lost, total: own.length, share: lost / Math.max(1, truthSet.size) });
  }
}
await browser.close();
console.log('type\treason\trecall lost (sum of page shares)\tpages\tcorrectly dropped shingles');
for (const [key, row] of [...byReason].sort((a, b) => b[1].lost - a[1].lost)) console.log(`${key}\t${row.lost.toFixed(2)}\t${row.pages.size}\t${row.dropped}`);
console.log('\nworst prunes (page, element, rule, share of the truth lost, truth shingles lost / its shingles)');
for (const row of worst.sort((a, b) => b.share - a.share).slice(0, 80)) console.log(`${row.page}\t${row.what}\t${row.reason}\t${row.share.toFixed(2)}\t${row.lost}/${row.total}`);
