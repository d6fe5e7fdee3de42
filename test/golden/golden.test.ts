import { readFile } from 'node:fs/promises';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BENCH_LAUNCH_OPTIONS } from '../../scripts/bench-extraction.js';
import { expectedFile, goldenContext, goldenMarkdown, goldenPages } from './corpus.js';

/**
 * Every page of the golden corpus (README.md here) extracts to its expected markdown, byte for
 * byte: a rule change shows here which real pages it moves. After an intended change, rewrite the
 * expected files with `npx tsx scripts/bless-golden.ts` and read the diff before committing it.
 */

const pages = await goldenPages();
let browser: Browser | undefined;
let context: BrowserContext | undefined;

beforeAll(async () => {
  browser = await chromium.launch(BENCH_LAUNCH_OPTIONS);
  context = await goldenContext(browser);
});

afterAll(async () => {
  await browser?.close();
});

describe('golden corpus', () => {
  it('holds about thirty pages of every wcxb page type', () => {
    expect(pages.length).toBeGreaterThanOrEqual(25);
    expect(new Set(pages.map((page) => page.pageType)).size).toBe(7);
  });

  it.each(pages.map((page) => [`${page.id} (${page.pageType})`, page] as const))('%s extracts to its expected markdown', async (_label, page) => {
    if (!context) throw new Error('Chromium did not start');
    const expected = await readFile(expectedFile(page), 'utf8');
    expect(await goldenMarkdown(context, page)).toBe(expected);
  });
});
