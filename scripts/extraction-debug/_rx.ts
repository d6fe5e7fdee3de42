import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../bench-extraction.js';
const md = readFileSync('/tmp/out-base/2835.md', 'utf8') + readFileSync('/tmp/out-base/3006.md', 'utf8');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
const ctx = await browser.newContext({ javaScriptEnabled: false });
const probe = (body: string) => `((md) => { const t0 = performance.now(); const n = (${body})(md); const t1 = performance.now(); (${body})(md); return [n, +(t1 - t0).toFixed(3), +(performance.now() - t1).toFixed(3)]; })(${JSON.stringify(md)})`;
const bodies = {
  unicodeMatch: `(t) => t.match(/[\\p{L}\\p{N}_]+/gu)?.length ?? 0`,
  asciiMatch: `(t) => t.match(/[A-Za-z0-9_]+/g)?.length ?? 0`,
  unicodeTestOnly: `(t) => /[\\p{L}\\p{N}]/u.test('x')`,
  loop: `(t) => { let n = 0, w = false; for (let i = 0; i < t.length; i++) { const c = t.charCodeAt(i); const x = (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 122) || c === 95; if (x && !w) n++; w = x; } return n; }`,
};
console.log('chars', md.length);
for (let round = 0; round < 3; round++) for (const [name, body] of Object.entries(bodies)) {
  const page = await ctx.newPage();
  await page.setContent('<p>hi</p>');
  console.log(name, await page.evaluate(probe(body)));
  await page.close();
}
await browser.close();
