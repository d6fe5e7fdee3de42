import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { Browser, BrowserContext } from 'playwright-core';
import { openStoredPage } from '../../scripts/bench-extraction.js';
import { extractMarkdown } from '../../src/extract/extract.js';

/**
 * The golden corpus: real pages from the wcxb-dev bench (see README.md here), each with the
 * markdown the extractor writes for it. Pages are loaded exactly as the extraction bench loads
 * them (the page's URL answered with the stored bytes, every other request refused, scripts off),
 * so a difference here is a difference on the bench.
 */

export const GOLDEN_DIR = fileURLToPath(new URL('.', import.meta.url));

export interface GoldenPage {
  id: string;
  url: string;
  pageType: string;
}

export async function goldenPages(): Promise<GoldenPage[]> {
  const manifest = JSON.parse(await readFile(join(GOLDEN_DIR, 'pages.json'), 'utf8')) as Record<string, { url: string; pageType: string }>;
  return Object.entries(manifest)
    .map(([id, entry]) => ({ id, ...entry }))
    .sort((a, b) => a.id.localeCompare(b.id));
}

export function expectedFile(page: GoldenPage): string {
  return join(GOLDEN_DIR, 'expected', `${page.id}.md`);
}

/** One context for all pages, scripts off, as the bench has. */
export function goldenContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ javaScriptEnabled: false });
}

/** The markdown of one stored page, extracted in a new tab of `context`. */
export async function goldenMarkdown(context: BrowserContext, page: GoldenPage): Promise<string> {
  const html = gunzipSync(await readFile(join(GOLDEN_DIR, 'pages', `${page.id}.html.gz`)));
  const tab = await openStoredPage(context, page.url, html);
  try {
    return `${(await extractMarkdown(tab, { url: page.url })).markdown}\n`;
  } finally {
    await tab.close();
  }
}
