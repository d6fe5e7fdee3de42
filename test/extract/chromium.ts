import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { BASELINE_CHROMIUM_ARGS } from '../../scripts/baseline-chromium.js';
import { FEATURE_LAUNCH_OPTIONS } from '../../src/browser/chromium-process.js';
import { loadConfig } from '../../src/config.js';
import { type ExtractOptions, extractMarkdown } from '../../src/extract/extract.js';

/**
 * One real Chromium per test file, with the flags this offline machine needs and without the
 * per-window browser UI the service turns off (the egress guard's flags are tested elsewhere).
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: loadConfig({}).browser.chromiumPath,
    args: [...BASELINE_CHROMIUM_ARGS, ...FEATURE_LAUNCH_OPTIONS.args],
    ignoreDefaultArgs: FEATURE_LAUNCH_OPTIONS.ignoreDefaultArgs,
  });
}

/** A fresh page holding `html` (no network: every request is refused). */
export async function pageWith(browser: Browser, html: string): Promise<Page> {
  const page = await browser.newPage();
  await page.route('**/*', (route) => route.abort());
  await page.setContent(html, { waitUntil: 'load' });
  return page;
}

/** The markdown `/v1/web/markdown` writes for a page of `body`, served at `options.url` (a blog post by default). */
export async function markdownOf(browser: Browser, body: string, options: Partial<ExtractOptions> = {}, head = ''): Promise<string> {
  const page = await pageWith(browser, `<!doctype html><html><head>${head}</head><body>${body}</body></html>`);
  try {
    return (await extractMarkdown(page, { url: 'https://example.com/blog/post.html', onlyMainContent: false, ...options })).markdown;
  } finally {
    await page.close();
  }
}

/** A test file's own Chromium, and its markdown with the file's defaults under each call's options. */
export interface FileChromium {
  /** The browser, once the file's tests run. */
  browser(): Browser;
  markdownOf(body: string, options?: Partial<ExtractOptions>, head?: string): Promise<string>;
}

/** Launches one Chromium before the calling file's tests and closes it after them. */
export function chromiumForFile(defaults: Partial<ExtractOptions> = {}): FileChromium {
  let launched: Browser | undefined;
  beforeAll(async () => {
    launched = await launchChromium();
  });
  afterAll(async () => {
    await launched?.close();
  });
  const browser = (): Browser => {
    if (!launched) throw new Error('Chromium is launched before the tests of the file, not at its top level');
    return launched;
  };
  return {
    browser,
    markdownOf: (body, options = {}, head = '') => markdownOf(browser(), body, { ...defaults, ...options }, head),
  };
}

/** Two sentences of filler prose: enough text for a block to score as a paragraph of content. */
export const PROSE =
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. ' +
  'Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.';
