import { resolve } from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { siblingModule } from '../../src/extract/page-script.js';
import { BENCH_LAUNCH_OPTIONS, listStoredPages, openStoredPage, readStoredHtml } from '../bench-extraction.js';

/**
 * Sampled CPU profile of the first extraction on each page, self time by function (unminified
 * bundle, so names are readable): npx tsx scripts/extraction-debug/cpu-profile.ts DATA_DIR [LIMIT]
 */
const [dataDir = '', limit = '40'] = process.argv.slice(2);
const bundled = await build({
  entryPoints: [siblingModule(import.meta.url, '../../src/extract/in-page/entry')],
  bundle: true, write: false, format: 'iife', globalName: '__pluckModule', platform: 'browser', target: 'chrome110', logLevel: 'silent',
});
const code = bundled.outputFiles[0]?.text ?? '';
const script = `(function (argument) {\n${code}\nreturn __pluckModule.extractInPage(argument);\n})`;
const browser = await chromium.launch(BENCH_LAUNCH_OPTIONS);
const context = await browser.newContext({ javaScriptEnabled: false });
const selfTime = new Map<string, number>();
/** Time with a function anywhere on the stack (each function counted once per sample). */
const inclusiveTime = new Map<string, number>();
let total = 0;
interface ProfileNode { id: number; callFrame: { functionName: string; lineNumber: number }; children?: number[] }
for (const stored of (await listStoredPages(resolve(dataDir))).slice(0, Number(limit))) {
  const page = await openStoredPage(context, stored.url, await readStoredHtml(stored.file));
  await page.evaluate('document.documentElement.getBoundingClientRect().height');
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: Number(process.env.PROFILE_INTERVAL_US ?? 200) });
  await cdp.send('Profiler.start');
  await page.evaluate(`${script}(${JSON.stringify({ url: stored.url, onlyMainContent: true, includeTags: [], excludeTags: [] })})`);
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] } };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  profile.samples.forEach((id, index) => {
    const node = byId.get(id);
    const name = node ? `${node.callFrame.functionName || '(anon)'}:${node.callFrame.lineNumber}` : '?';
    const delta = (profile.timeDeltas[index + 1] ?? 0) / 1000;
    selfTime.set(name, (selfTime.get(name) ?? 0) + delta);
    const onStack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const frame = byId.get(at);
      if (frame) onStack.add(`${frame.callFrame.functionName || '(anon)'}:${frame.callFrame.lineNumber}`);
    }
    for (const frame of onStack) inclusiveTime.set(frame, (inclusiveTime.get(frame) ?? 0) + delta);
    total += delta;
  });
  await cdp.detach();
  await page.close();
}
await browser.close();
const pages = Number(limit);
console.log(`total sampled ${(total / pages).toFixed(1)} ms/page`);
console.log('-- inclusive --');
for (const [name, ms] of [...inclusiveTime].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${(ms / pages).toFixed(2).padStart(7)} ms/page  ${name}`);
console.log('-- self --');
for (const [name, ms] of [...selfTime].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${(ms / pages).toFixed(2).padStart(7)} ms/page  ${name}`);
