import { chromium } from 'playwright-core';
import { bundlePageFunction, runPageFunction, siblingModule } from '../../src/extract/page-script.js';
import { BENCH_LAUNCH_OPTIONS, listStoredPages, openStoredPage, readStoredHtml } from '../bench-extraction.js';

/**
 * The ancestor chains of the texts holding a phrase, to find which block a stray line of output
 * came from: npx tsx scripts/extraction-debug/where.ts DATA_DIR NAME PHRASE
 */
const [data = '', name = '', phrase = ''] = process.argv.slice(2);
const stored = (await listStoredPages(data)).find((candidate) => candidate.name === name);
if (!stored) throw new Error(`no stored page ${name} in ${data}`);
const script = await bundlePageFunction(siblingModule(import.meta.url, './where.page'), 'where');
const browser = await chromium.launch(BENCH_LAUNCH_OPTIONS);
const context = await browser.newContext({ javaScriptEnabled: false });
const page = await openStoredPage(context, stored.url, await readStoredHtml(stored.file));
for (const chain of await runPageFunction<string[]>(page, script, { phrase })) console.log(`${chain}\n`);
await browser.close();
