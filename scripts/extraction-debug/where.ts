import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { BENCH_LAUNCH_OPTIONS, listStoredPages, openStoredPage } from '../bench-extraction.js';

/**
 * The ancestor chains of every element whose own text holds a phrase, to find which block a stray
 * line of output came from: npx tsx scripts/extraction-debug/where.ts DATA_DIR NAME PHRASE
 */
const [data = '', name = '', phrase = ''] = process.argv.slice(2);
const browser = await chromium.launch(BENCH_LAUNCH_OPTIONS);
const context = await browser.newContext({ javaScriptEnabled: false });
const stored = (await listStoredPages(data)).find((candidate) => candidate.name === name);
if (!stored) throw new Error(`no stored page ${name} in ${data}`);
const bytes = await readFile(stored.file);
const page = await openStoredPage(context, stored.url, stored.file.endsWith('.gz') ? gunzipSync(bytes) : bytes);
// A string, not a function: tsx would wrap a function's inner functions in a helper the page lacks.
const chains = await page.evaluate<string[]>(`(() => {
  const wanted = ${JSON.stringify(phrase)};
  const describe = (element) => {
    const classes = (element.getAttribute('class') || '').trim().split(/\\s+/).filter(Boolean).slice(0, 3);
    const id = element.getAttribute('id');
    return element.localName + (id ? '#' + id : '') + classes.map((word) => '.' + word).join('');
  };
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node && found.length < 5; node = walker.nextNode()) {
    if (!(node.nodeValue || '').includes(wanted)) continue;
    const chain = [];
    for (let element = node.parentElement; element && element !== document.body; element = element.parentElement) chain.push(describe(element));
    found.push(chain.reverse().join(' > '));
  }
  return found;
})()`);
for (const chain of chains) console.log(`${chain}\n`);
await browser.close();
