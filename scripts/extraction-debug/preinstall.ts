import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type CDPSession, chromium, type Page } from 'playwright-core';
import { extractMarkdown, prepareExtractor } from '../../src/extract/extract.js';
import { finishMarkdown } from '../../src/extract/in-page/text.js';
import { BENCH_LAUNCH_OPTIONS, listStoredPages, openStoredPage, percentile, readStoredHtml } from '../bench-extraction.js';

/**
 * Whether putting the extractor into every new document ahead of the call pays on the whole
 * request, not only in the call: npx tsx scripts/extraction-debug/preinstall.ts DATA_DIR [LIMIT] [--js]
 *
 * Each page is loaded twice, in alternating order: once as the service does it (the session
 * attached ahead, the extractor sent with the call), once with the extractor registered for the
 * world `pluck` of every new document (`Page.addScriptToEvaluateOnNewDocument`, which needs the
 * `Page` domain enabled on our session) and the call only invoking it. Printed: medians of the
 * load (new page to `load`), of the call, of both, and of the per-page differences.
 */

interface Preinstalled {
  session: CDPSession;
  frameId: string;
}

const INSTALLED = '__pluckExtract';

/**
 * A session of its own, with the registration sent beside the attach's first command: through the
 * page's shared session (`withPageSession`, which looks up the frame first) the registration came
 * one round trip later, after the stored document was created, and every page missed it.
 */
async function preinstall(page: Page, script: string): Promise<Preinstalled> {
  const session = await page.context().newCDPSession(page);
  const [{ frameTree }] = await Promise.all([
    session.send('Page.getFrameTree'),
    session.send('Page.enable'),
    session.send('Page.addScriptToEvaluateOnNewDocument', { source: `if (window === window.top) globalThis.${INSTALLED} = ${script};`, worldName: 'pluck' }),
  ]);
  return { session, frameId: frameTree.frame.id };
}

/** The call against an installed extractor; the whole script again when the document missed it. */
async function callInstalled(ready: Promise<Preinstalled>, script: string, url: string): Promise<{ markdown: string; installed: boolean }> {
  const { session, frameId } = await ready;
  const { executionContextId } = await session.send('Page.createIsolatedWorld', { frameId, worldName: 'pluck', grantUniveralAccess: false });
  const argument = { value: { url, onlyMainContent: true, includeTags: [], excludeTags: [] } };
  const call = (functionDeclaration: string) =>
    session.send('Runtime.callFunctionOn', { functionDeclaration, executionContextId, arguments: [argument], returnByValue: true });
  const invoked = await call(`(a) => globalThis.${INSTALLED} ? { value: globalThis.${INSTALLED}(a) } : { missing: true }`);
  const answer = invoked.result.value as { value?: { markdown: string }; missing?: true };
  if (answer.value) return { markdown: finishMarkdown(answer.value.markdown), installed: true };
  const sent = await call(script);
  return { markdown: finishMarkdown((sent.result.value as { markdown: string }).markdown), installed: false };
}

const positional = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const [dataDir = '', limit = '120'] = positional;
const javaScriptEnabled = process.argv.includes('--js');
const script = await prepareExtractor();
const browser = await chromium.launch(BENCH_LAUNCH_OPTIONS);
const context = await browser.newContext({ javaScriptEnabled });
type Timing = { load: number; call: number };
const rows: { current: Timing; preinstalled: Timing }[] = [];
let missed = 0;
let differentOutput = 0;
for (const [index, stored] of (await listStoredPages(resolve(dataDir))).slice(0, Number(limit)).entries()) {
  const html = await readStoredHtml(stored.file);
  const row: Partial<(typeof rows)[number]> = {};
  const outputs: string[] = [];
  try {
    for (const variant of index % 2 === 0 ? (['current', 'preinstalled'] as const) : (['preinstalled', 'current'] as const)) {
      const start = performance.now();
      let ready: Promise<Preinstalled> | undefined;
      const page = await openStoredPage(context, stored.url, html, (opened) => {
        if (variant === 'preinstalled') {
          ready = preinstall(opened, script);
          ready.catch(() => undefined);
        }
      });
      const loaded = performance.now();
      let markdown: string;
      if (ready) {
        const answer = await callInstalled(ready, script, stored.url);
        if (!answer.installed) missed += 1;
        markdown = answer.markdown;
      } else {
        markdown = (await extractMarkdown(page, { url: stored.url })).markdown;
      }
      row[variant] = { load: loaded - start, call: performance.now() - loaded };
      outputs.push(markdown);
      await page.close();
    }
  } catch (error) {
    process.stderr.write(`${stored.name}: ${String(error).split('\n')[0]}\n`);
    continue;
  }
  if (outputs[0] !== outputs[1]) differentOutput += 1;
  rows.push(row as (typeof rows)[number]);
}
await browser.close();
const median = (values: number[]) => percentile(values, 0.5).toFixed(1);
const measures: [string, (t: Timing) => number][] = [
  ['load', (t) => t.load],
  ['call', (t) => t.call],
  ['load + call', (t) => t.load + t.call],
];
console.log(`${rows.length} pages, scripts ${javaScriptEnabled ? 'on' : 'off'}; documents that missed the installed extractor: ${missed}; outputs that differ: ${differentOutput}`);
for (const [label, of] of measures) {
  const current = rows.map((row) => of(row.current));
  const installed = rows.map((row) => of(row.preinstalled));
  const differences = rows.map((row) => of(row.preinstalled) - of(row.current));
  console.log(`${label.padEnd(12)} current ${median(current)}  preinstalled ${median(installed)}  median difference ${median(differences)} ms`);
}
