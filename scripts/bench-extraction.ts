import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { FEATURE_LAUNCH_OPTIONS, RENDERER_V8_FLAGS } from '../src/browser/chromium-process.js';
import { extractMarkdown, prepareExtractor } from '../src/extract/extract.js';
import { showsPlaceholder } from '../src/browser/page-settle.js';
import { attachDevtoolsAhead, bundlePageFunction, evaluateFunction, runPageFunction, siblingModule } from '../src/extract/page-script.js';
import { BASELINE_CHROMIUM_ARGS, BENCH_CHROMIUM_PATH } from './baseline-chromium.js';

/**
 * Extraction quality bench: every stored page of a data set folder is loaded into Chromium (the
 * ground truth's URL answered with the stored bytes, every other request refused), converted by
 * `extractMarkdown` — the function `/v1/web/markdown` runs — and written to OUT_DIR/NAME.md; then
 * the shared scorer grades the folder. `--baseline` also runs Readability + turndown on the same
 * loaded pages, written to OUT_DIR/baseline/NAME.md, so both are measured in one run.
 *
 *   npm run bench:extraction -- DATA_DIR OUT_DIR [--baseline] [--js] [--only NAME,NAME]
 */

/** The shared scorer, beside the project folder (`../shared/bench`). */
const SCORER = fileURLToPath(new URL('../../shared/bench/score-extraction.mjs', import.meta.url));
/**
 * The renderer tuning and feature switch the service launches Chromium with apply here too: the
 * same extraction, the same V8, no per-window browser UI competing for the CPU.
 */
export const CHROMIUM_ARGS = [...BASELINE_CHROMIUM_ARGS, ...RENDERER_V8_FLAGS, ...FEATURE_LAUNCH_OPTIONS.args];

/** How the bench and the debugging scripts beside it launch Chromium. */
export const BENCH_LAUNCH_OPTIONS = {
  executablePath: BENCH_CHROMIUM_PATH,
  args: CHROMIUM_ARGS,
  ignoreDefaultArgs: FEATURE_LAUNCH_OPTIONS.ignoreDefaultArgs,
};

export interface BenchOptions {
  dataDir: string;
  outDir: string;
  /** Also run the Readability + turndown baseline into OUT_DIR/baseline. */
  baseline?: boolean;
  /** Run the stored pages' own scripts (default off: their resources cannot load here). */
  javaScript?: boolean;
  /** Restrict the run to these page names. */
  only?: string[];
}

export interface PageTiming {
  name: string;
  /** The extraction: `extractMarkdown` on the rendered page. */
  ms: number;
  /** What comes before the extraction in the service (`settleForExtraction`), not part of `ms`. */
  renderMs?: number;
  baselineMs?: number;
}

interface GroundTruthEntry {
  url: string;
  pageType?: string;
}

interface StoredPage {
  name: string;
  file: string;
  url: string;
}

export async function listStoredPages(dataDir: string): Promise<StoredPage[]> {
  const truth = JSON.parse(await readFile(join(dataDir, 'ground-truth.json'), 'utf8')) as Record<string, GroundTruthEntry>;
  const pages: StoredPage[] = [];
  for (const file of (await readdir(dataDir)).sort()) {
    const name = /^(.+)\.html(\.gz)?$/.exec(file)?.[1];
    const entry = name === undefined ? undefined : truth[name];
    // A page without a usable URL still needs one for Chromium: a name that can never resolve.
    const url = /^https?:\/\//.test(entry?.url ?? '') ? (entry?.url ?? '') : `http://stored-page.invalid/${name}`;
    if (name !== undefined && entry) pages.push({ name, file: join(dataDir, file), url });
  }
  return pages;
}

export async function readStoredHtml(file: string): Promise<Buffer> {
  const bytes = await readFile(file);
  return file.endsWith('.gz') ? gunzipSync(bytes) : bytes;
}

/**
 * Opens `url` in a new page of `context` with `html` as the document. Subresources are refused;
 * later top-level navigations (meta refresh, scripts) get 204 so the stored document stays.
 * `prepare` runs on the new page before it navigates; by default it is what the service does for
 * every page it takes (context-supply.ts), so extraction times compare.
 */
export async function openStoredPage(
  context: BrowserContext,
  url: string,
  html: Buffer,
  prepare: (page: Page) => void = attachDevtoolsAhead,
): Promise<Page> {
  const page = await context.newPage();
  prepare(page);
  let served = false;
  await page.route('**/*', async (route) => {
    const request = route.request();
    const isTopNavigation = request.isNavigationRequest() && request.frame() === page.mainFrame();
    if (isTopNavigation && !served) {
      served = true;
      await route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html });
    } else if (isTopNavigation) {
      await route.fulfill({ status: 204 });
    } else {
      await route.abort('blockedbyclient');
    }
  });
  await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
  return page;
}

/**
 * What a page has had in the service when its extraction starts, done here untimed by `ms`: the
 * default wait's last step, its placeholder check (page-settle.ts), whose call creates the page's
 * world that the extractor's call then shares (Chromium keeps one world of a name per document),
 * and the first style and layout pass (a page shown in a browser has had it; a stored page loaded
 * here has not yet).
 */
export async function settleForExtraction(page: Page): Promise<void> {
  await showsPlaceholder(page);
  await evaluateFunction(page, () => document.documentElement.getBoundingClientRect().height, null);
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: performance.now() - start };
}

/** The bench core: extracts every page of the data set into `outDir` and returns the timings. */
export async function runExtractionBench(browser: Browser, options: BenchOptions): Promise<PageTiming[]> {
  const pages = (await listStoredPages(options.dataDir)).filter((page) => !options.only || options.only.includes(page.name));
  const baselineDir = join(options.outDir, 'baseline');
  await mkdir(options.baseline ? baselineDir : options.outDir, { recursive: true });
  const baselineScript = options.baseline
    ? await bundlePageFunction(siblingModule(import.meta.url, './extraction-baseline.page'), 'extractBaseline')
    : '';
  await prepareExtractor();
  const context = await browser.newContext({ javaScriptEnabled: options.javaScript ?? false });
  const timings: PageTiming[] = [];
  try {
    for (const stored of pages) {
      const page = await openStoredPage(context, stored.url, await readStoredHtml(stored.file)).catch((error: unknown) => {
        process.stderr.write(`${stored.name}: could not load: ${String(error).split('\n')[0]}\n`);
        return undefined;
      });
      if (!page) continue;
      try {
        const rendering = await timed(() => settleForExtraction(page));
        const ours = await timed(() => extractMarkdown(page, { url: stored.url }));
        await writeFile(join(options.outDir, `${stored.name}.md`), ours.value.markdown);
        const timing: PageTiming = { name: stored.name, ms: ours.ms, renderMs: rendering.ms };
        if (options.baseline) {
          const base = await timed(() => runPageFunction<{ markdown: string }>(page, baselineScript, null));
          await writeFile(join(baselineDir, `${stored.name}.md`), base.value.markdown);
          timing.baselineMs = base.ms;
        }
        timings.push(timing);
      } finally {
        await page.close();
      }
    }
  } finally {
    await context.close();
  }
  return timings;
}

export function percentile(values: number[], fraction: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

function describeTimes(label: string, values: number[]): string {
  const f = (x: number) => x.toFixed(1);
  return `${label}: extraction ms per page: median ${f(percentile(values, 0.5))} p95 ${f(percentile(values, 0.95))} max ${f(Math.max(...values))} (N ${values.length})`;
}

async function hasPageTypes(dataDir: string): Promise<boolean> {
  const truth = JSON.parse(await readFile(join(dataDir, 'ground-truth.json'), 'utf8')) as Record<string, GroundTruthEntry>;
  return Object.values(truth).some((entry) => entry.pageType !== undefined);
}

function score(predictionDir: string, dataDir: string, byType: boolean, extra: string[]): string {
  const args = [SCORER, predictionDir, join(dataDir, 'ground-truth.json'), ...(byType ? ['--by', 'pageType'] : []), ...extra];
  const result = spawnSync(process.execPath, args, { encoding: 'utf8' });
  return `${result.stdout}${result.stderr}`;
}

function parseArgs(argv: string[]): BenchOptions & { scorerArgs: string[] } {
  const positional: string[] = [];
  const options: BenchOptions & { scorerArgs: string[] } = { dataDir: '', outDir: '', scorerArgs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--baseline') options.baseline = true;
    else if (arg === '--js') options.javaScript = true;
    else if (arg === '--only') options.only = (argv[++i] ?? '').split(',');
    else if (arg === '--per-page') options.scorerArgs.push('--per-page');
    else if (arg === '--') continue;
    else positional.push(arg);
  }
  if (positional.length !== 2) {
    process.stderr.write('usage: npm run bench:extraction -- DATA_DIR OUT_DIR [--baseline] [--js] [--only NAME,NAME] [--per-page]\n');
    process.exit(2);
  }
  options.dataDir = resolve(positional[0] ?? '');
  options.outDir = resolve(positional[1] ?? '');
  return options;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const browser = await chromium.launch(BENCH_LAUNCH_OPTIONS);
  let timings: PageTiming[];
  try {
    timings = await runExtractionBench(browser, options);
  } finally {
    await browser.close();
  }
  const byType = await hasPageTypes(options.dataDir);
  const out = process.stdout;
  if (options.baseline) {
    out.write(`\n== baseline (Readability 0.6.0 + turndown 7.2.5, in the page) ==\n`);
    out.write(`${describeTimes('baseline', timings.map((t) => t.baselineMs ?? 0))}\n`);
    out.write(score(join(options.outDir, 'baseline'), options.dataDir, byType, options.scorerArgs));
  }
  out.write(`\n== pluck extractMarkdown ==\n`);
  out.write(`${describeTimes('pluck', timings.map((t) => t.ms))}\n`);
  out.write(`${describeTimes('pluck with the settle check and first layout', timings.map((t) => t.ms + (t.renderMs ?? 0)))}\n`);
  out.write(score(options.outDir, options.dataDir, byType, options.scorerArgs));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
