import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { bundlePageFunction, runPageFunction, siblingModule } from '../../src/extract/page-script.js';
import { BENCH_LAUNCH_OPTIONS, listStoredPages, openStoredPage, readStoredHtml } from '../bench-extraction.js';

/**
 * What the main-content finder chose on some pages: npx tsx scripts/extraction-debug/explain.ts DATA_DIR NAME[,NAME] [--hidden]
 * With --hidden, the second pass's choice: hidden content read too, as when the visible page is near empty.
 */
const [dataDir = '', names = '', hidden = ''] = process.argv.slice(2);
const script = await bundlePageFunction(siblingModule(import.meta.url, './explain.page'), 'explain');
const browser = await chromium.launch(BENCH_LAUNCH_OPTIONS);
const context = await browser.newContext({ javaScriptEnabled: false });
for (const stored of (await listStoredPages(resolve(dataDir))).filter((page) => names.split(',').includes(page.name))) {
  const page = await openStoredPage(context, stored.url, await readStoredHtml(stored.file));
  console.log(`===== ${stored.name} ${stored.url}`);
  for (const line of await runPageFunction<string[]>(page, script, { url: stored.url, showHidden: hidden === '--hidden' })) console.log(line);
  await page.close();
}
await browser.close();
