import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { BOILERPLATE_RULES } from '../../src/extract/in-page/boilerplate-rules.js';
import { finishMarkdown } from '../../src/extract/in-page/text.js';
import { bundlePageFunction, runPageFunction, siblingModule } from '../../src/extract/page-script.js';
import { halfOf } from '../bench-halves.js';
import { BENCH_LAUNCH_OPTIONS, listStoredPages, openStoredPage, readStoredHtml, settleForExtraction } from '../bench-extraction.js';
import { readTruth } from './truth.js';

/**
 * What each rule of the boilerplate table (boilerplate-rules.ts) does on the dev sets, to find
 * rules that move single pages (issue 30): every page is loaded once, as the extraction bench
 * loads it, and extracted with the whole table, then with each rule left out in turn. Each
 * variant is scored against the whole table's output: F1 on each set and on its two halves, by
 * type, and the pages that move.
 *
 *   npx tsx scripts/extraction-debug/ablate.ts OUT_DIR DATA_DIR [DATA_DIR...]
 */

const SCORER = realpathSync(fileURLToPath(new URL('../../../shared/bench/score-extraction.mjs', import.meta.url)));
/**
 * A page moves when its F1 changes by more than this. A rule can change a page by less (a post's
 * "Quote" is one shingle), so the pages whose markdown changed at all are counted too.
 */
const MOVED = 0.005;

const [outArg = '', ...dataArgs] = process.argv.slice(2).filter((arg) => arg !== '--');
if (!outArg || dataArgs.length === 0) {
  process.stderr.write('usage: npx tsx scripts/extraction-debug/ablate.ts OUT_DIR DATA_DIR [DATA_DIR...]\n');
  process.exit(2);
}
const outDir = resolve(outArg);
// The whole table first and last: the two must agree, or extracting twice changed the page.
const variants = ['', ...BOILERPLATE_RULES.map((rule) => rule.name), ''];
const slug = (name: string) => name.replace(/\W+/g, '-') || 'whole-table';

interface PageScore {
  precision?: number;
  recall?: number;
  f1: number;
}

function perPage(predDir: string, truthFile: string): Map<string, PageScore> {
  const result = spawnSync(process.execPath, [SCORER, predDir, truthFile, '--markdown', '--per-page'], { encoding: 'utf8' });
  const scores = new Map<string, PageScore>();
  for (const line of result.stdout.split('\n')) {
    const [page, precision, recall, f1] = line.split('\t');
    if (!page || page === 'page' || f1 === undefined || Number.isNaN(Number(f1))) continue;
    const value = (text = '') => (text === '-' ? undefined : Number(text));
    scores.set(page, { precision: value(precision), recall: value(recall), f1: Number(f1) });
  }
  return scores;
}

/** The scorer's F1: the harmonic mean of mean precision and mean recall over the pages that have them. */
function f1Of(scores: PageScore[]): number {
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  const precision = mean(scores.flatMap((score) => (score.precision === undefined ? [] : [score.precision])));
  const recall = mean(scores.flatMap((score) => (score.recall === undefined ? [] : [score.recall])));
  return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}

const script = await bundlePageFunction(siblingModule(import.meta.url, './ablate.page'), 'extractWithout');
const browser = await chromium.launch(BENCH_LAUNCH_OPTIONS);
const report: string[] = [];
try {
  for (const dataArg of dataArgs) {
    const dataDir = resolve(dataArg);
    const set = basename(dataDir);
    const truth = await readTruth(dataDir);
    for (const variant of variants.keys()) await mkdir(join(outDir, `${variant}-${slug(variants[variant] ?? '')}`, set), { recursive: true });
    const context = await browser.newContext({ javaScriptEnabled: false });
    let unstable = 0;
    const pages = await listStoredPages(dataDir);
    for (const stored of pages) {
      const page = await openStoredPage(context, stored.url, await readStoredHtml(stored.file));
      try {
        await settleForExtraction(page);
        const outputs = await runPageFunction<string[]>(page, script, { url: stored.url, rules: variants });
        if (outputs[0] !== outputs[outputs.length - 1]) unstable++;
        for (const [variant, markdown] of outputs.entries()) {
          await writeFile(join(outDir, `${variant}-${slug(variants[variant] ?? '')}`, set, `${stored.name}.md`), finishMarkdown(markdown));
        }
      } finally {
        await page.close();
      }
    }
    await context.close();
    const truthFile = join(dataDir, 'ground-truth.json');
    const base = perPage(join(outDir, `0-${slug('')}`, set), truthFile);
    const groups = (scores: Map<string, PageScore>) => {
      const named: Record<string, PageScore[]> = { all: [], A: [], B: [] };
      for (const [page, score] of scores) {
        for (const group of ['all', halfOf(page), truth[page]?.pageType].filter((name): name is string => Boolean(name))) {
          (named[group] ??= []).push(score);
        }
      }
      return Object.fromEntries(Object.entries(named).map(([group, list]) => [group, f1Of(list)]));
    };
    const baseGroups = groups(base);
    report.push(`== ${set}: whole table F1 ${baseGroups.all?.toFixed(4)} (half A ${baseGroups.A?.toFixed(4)}, B ${baseGroups.B?.toFixed(4)}); extracting twice differed on ${unstable} pages`);
    report.push('rule left out\tF1 change: all / half A / half B\tpages changed\tpages up / down\tbiggest moves\tby type');
    const markdownOf = (variant: number, name: string) => readFile(join(outDir, `${variant}-${slug(variants[variant] ?? '')}`, set, `${name}.md`), 'utf8');
    for (const [variant, name] of variants.entries()) {
      if (variant === 0 || variant === variants.length - 1) continue;
      const scores = perPage(join(outDir, `${variant}-${slug(name)}`, set), truthFile);
      const changed = groups(scores);
      const moves = [...scores].map(([page, score]) => ({ page, delta: score.f1 - (base.get(page)?.f1 ?? 0) })).filter((move) => Math.abs(move.delta) > MOVED);
      moves.sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta));
      const delta = (group: string) => ((changed[group] ?? 0) - (baseGroups[group] ?? 0)).toFixed(4);
      let changedPages = 0;
      for (const stored of pages) if ((await markdownOf(variant, stored.name)) !== (await markdownOf(0, stored.name))) changedPages++;
      const types = Object.keys(baseGroups).filter((group) => !['all', 'A', 'B'].includes(group) && Math.abs(Number(delta(group))) >= 0.0005);
      report.push(
        [
          name,
          `${delta('all')} / ${delta('A')} / ${delta('B')}`,
          String(changedPages),
          `${moves.filter((move) => move.delta > 0).length} / ${moves.filter((move) => move.delta < 0).length}`,
          moves.slice(0, 3).map((move) => `${move.page.slice(0, 8)} ${move.delta > 0 ? '+' : ''}${move.delta.toFixed(3)}`).join(', '),
          types.map((group) => `${group} ${delta(group)}`).join(', '),
        ].join('\t'),
      );
    }
  }
} finally {
  await browser.close();
}
await writeFile(join(outDir, 'report.tsv'), `${report.join('\n')}\n`);
process.stdout.write(`${report.join('\n')}\n`);
