import { chromium } from 'playwright-core';
import { BENCH_LAUNCH_OPTIONS, listStoredPages, openStoredPage, readStoredHtml } from '../bench-extraction.js';
import { readTruth, shingles } from './truth.js';

/** How much of the text under a selector the truth holds, per page: npx tsx selector-truth.ts DATA_DIR SELECTOR */
const [dataDir = '', selector = ''] = process.argv.slice(2);
const truth = await readTruth(dataDir);
const browser = await chromium.launch(BENCH_LAUNCH_OPTIONS);
const context = await browser.newContext({ javaScriptEnabled: false });
for (const stored of await listStoredPages(dataDir)) {
  const page = await openStoredPage(context, stored.url, await readStoredHtml(stored.file));
  const texts = await page.evaluate((sel) => {
    const all = Array.from(document.querySelectorAll(sel));
    return all.filter((el) => !all.some((other) => other !== el && other.contains(el))).map((el) => (el as HTMLElement).innerText ?? el.textContent ?? '');
  }, selector);
  await page.close();
  if (texts.length === 0) continue;
  const entry = truth[stored.name];
  const inTruth = new Set(shingles(entry?.articleBody ?? ''));
  const items = texts.flatMap((text) => shingles(text));
  if (items.length === 0) continue;
  const held = items.filter((item) => inTruth.has(item)).length;
  console.log(`${stored.name}\t${entry?.pageType}\t${texts.length}\t${items.length}\t${(held / items.length).toFixed(2)}`);
}
await browser.close();
