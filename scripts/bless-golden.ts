import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { expectedFile, goldenContext, goldenMarkdown, goldenPages } from '../test/golden/corpus.js';
import { BENCH_LAUNCH_OPTIONS } from './bench-extraction.js';

/**
 * Rewrites the golden corpus's expected markdown (test/golden/expected) from the extractor as it
 * is now, after an intended change; prints which pages changed. Read `git diff test/golden` before
 * committing: every changed line is a change on a real page.
 *
 *   npx tsx scripts/bless-golden.ts [ID,ID]
 */
async function main(): Promise<void> {
  const only = process.argv.slice(2).filter((arg) => arg !== '--')[0]?.split(',');
  const pages = (await goldenPages()).filter((page) => !only || only.includes(page.id));
  const browser = await chromium.launch(BENCH_LAUNCH_OPTIONS);
  const changed: string[] = [];
  try {
    const context = await goldenContext(browser);
    for (const page of pages) {
      const markdown = await goldenMarkdown(context, page);
      const file = expectedFile(page);
      const before = await readFile(file, 'utf8').catch(() => undefined);
      if (before !== markdown) changed.push(page.id);
      await writeFile(file, markdown);
    }
  } finally {
    await browser.close();
  }
  process.stdout.write(`${pages.length} pages, ${changed.length} changed${changed.length ? `: ${changed.join(', ')}` : ''}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
