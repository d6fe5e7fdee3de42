import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { siblingModule } from '../../src/extract/page-script.js';
import { BENCH_LAUNCH_OPTIONS, listStoredPages, openStoredPage, percentile, readStoredHtml } from '../bench-extraction.js';

/**
 * Where the time of one extraction goes: npx tsx scripts/extraction-debug/profile.ts DATA_DIR [LIMIT]
 *
 * The real extractor, bundled with `step` (work-budget.ts) timing each named step, so the steps
 * are the ones a fallback's log names. Also printed: `in page`, the whole `extractInPage`;
 * `module`, from the function's first line to the extractor's (mostly V8 compiling the bundle's
 * module body); `call`, the whole evaluate as Node sees it; `empty call`, a round trip that runs
 * nothing. `call - in page - module - empty call` is compiling the function and moving the answer.
 * Steps nest (the markdown inside the hidden-content retry), so they need not add up.
 */

const TIMED_STEP = `currentStep = name;
  checkBudget();
  const started = performance.now();
  try {
    return work();
  } finally {
    const times = (globalThis as { __pluckSteps?: Record<string, number> }).__pluckSteps ?? {};
    times[name] = (times[name] ?? 0) + performance.now() - started;
    (globalThis as { __pluckSteps?: Record<string, number> }).__pluckSteps = times;
  }`;

async function timedBundle(): Promise<string> {
  const bundled = await build({
    entryPoints: [siblingModule(import.meta.url, '../../src/extract/in-page/entry')],
    bundle: true, write: false, format: 'iife', globalName: '__pluckModule', platform: 'browser', target: 'chrome110', minify: true, logLevel: 'silent',
    plugins: [{
      name: 'timed-steps',
      setup(builder) {
        builder.onLoad({ filter: /work-budget\.ts$/ }, async (args) => {
          const source = await readFile(args.path, 'utf8');
          const timed = source.replace('currentStep = name;\n  checkBudget();\n  return work();', TIMED_STEP);
          if (timed === source) throw new Error('step() in work-budget.ts changed: update TIMED_STEP');
          return { contents: timed, loader: 'ts' };
        });
      },
    }],
  });
  const code = bundled.outputFiles[0]?.text ?? '';
  return `(function (argument) {
const moduleStart = performance.now();
${code}
const start = performance.now();
globalThis.__pluckSteps = {};
__pluckModule.extractInPage(argument);
return { ...globalThis.__pluckSteps, 'in page': performance.now() - start, module: start - moduleStart };
})`;
}

const [dataDir = '', limit = '40'] = process.argv.slice(2);
const script = await timedBundle();
const browser = await chromium.launch(BENCH_LAUNCH_OPTIONS);
const context = await browser.newContext({ javaScriptEnabled: false });
const rows: Record<string, number>[] = [];
for (const stored of (await listStoredPages(resolve(dataDir))).slice(0, Number(limit))) {
  const page = await openStoredPage(context, stored.url, await readStoredHtml(stored.file));
  // The first layout pass, outside the timings as in the bench (whose placeholder check has no
  // part here: these calls run in the page's own world, which exists already).
  await page.evaluate('document.documentElement.getBoundingClientRect().height');
  const emptyStart = performance.now();
  await page.evaluate('1');
  const emptyCall = performance.now() - emptyStart;
  const callStart = performance.now();
  const steps = (await page.evaluate(`${script}(${JSON.stringify({ url: stored.url, onlyMainContent: true, includeTags: [], excludeTags: [] })})`)) as Record<string, number>;
  rows.push({ ...steps, call: performance.now() - callStart, 'empty call': emptyCall });
  await page.close();
}
await browser.close();
const names = [...new Set(rows.flatMap((row) => Object.keys(row)))];
const column = (name: string) => rows.map((row) => row[name] ?? 0);
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
console.log(`${rows.length} pages; ms per page`);
for (const name of names.sort((a, b) => mean(column(b)) - mean(column(a)))) {
  const values = column(name);
  console.log(`${name.padEnd(20)} mean ${mean(values).toFixed(2).padStart(7)}  median ${percentile(values, 0.5).toFixed(2).padStart(7)}  p95 ${percentile(values, 0.95).toFixed(2).padStart(7)}`);
}
