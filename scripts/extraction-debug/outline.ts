import { chromium } from 'playwright-core';
import { BENCH_LAUNCH_OPTIONS, listStoredPages, openStoredPage, readStoredHtml } from '../bench-extraction.js';
/** Outline of the elements matching a selector, with [text/link text] sizes: npx tsx scripts/extraction-debug/outline.ts DATA_DIR NAME SELECTOR [DEPTH] */
const [data, name, selector, depth = '4'] = process.argv.slice(2);
const browser = await chromium.launch(BENCH_LAUNCH_OPTIONS);
const context = await browser.newContext({ javaScriptEnabled: false });
const stored = (await listStoredPages(data!)).find((p) => p.name === name)!;
const page = await openStoredPage(context, stored.url, await readStoredHtml(stored.file));
console.log(await page.evaluate(`(() => {
  const out = [];
  const walk = (el, d) => {
    const t = (el.textContent||'').replace(/\\s+/g,' ').trim();
    if (t.length < 20) return;
    const links = Array.from(el.querySelectorAll('a')).reduce((s,a)=>s+(a.textContent||'').replace(/\\s+/g,' ').trim().length,0);
    out.push('  '.repeat(d) + el.localName + (el.id?'#'+el.id:'') + '.' + (el.getAttribute('class')||'').trim().split(/\\s+/).slice(0,3).join('.') + ' [' + t.length + '/' + links + '] ' + t.slice(0,70));
    if (d < ${Number(depth)}) for (const c of el.children) walk(c, d+1);
  };
  for (const el of document.querySelectorAll(${JSON.stringify(selector)})) walk(el, 0);
  return out.slice(0,80).join('\\n');
})()`));
await browser.close();
