import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { prepareExtractor } from '../../src/extract/extract.js';
import type { PageExtractOutcome } from '../../src/extract/in-page/entry.js';
import { launchChromium, pageWith } from './chromium.js';

/**
 * The extractor's last line of defence: a step that throws gives way to the plain conversion.
 * In the service it runs in an isolated world the page's scripts cannot touch, so here it is run
 * in the page's own world, after the page has broken a DOM method the measuring step calls.
 */
describe('extraction when a step throws', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('falls back to the plain conversion and names the step and the error', async () => {
    const prose = Array.from({ length: 12 }, (_, i) => `Sentence ${i} of the article carries enough words to be read.`).join(' ');
    const page = await pageWith(browser, `<!doctype html><html lang="en"><body><main><article><h1>Broken</h1><p>${prose}</p></article></main></body></html>`);
    await page.evaluate(() => {
      Element.prototype.checkVisibility = () => {
        throw new TypeError('this page breaks checkVisibility');
      };
    });
    const script = await prepareExtractor();
    const argument = { url: 'https://example.com/post', onlyMainContent: true, includeTags: [], excludeTags: [] };
    const outcome = (await page.evaluate(`${script}(${JSON.stringify(argument)})`)) as PageExtractOutcome;
    if ('invalidSelector' in outcome) throw new Error('unexpected invalid selector');
    expect(outcome.markdown).toContain('Sentence 11 of the article');
    expect(outcome.fallback).toMatchObject({ reason: 'failed', step: 'measure' });
    expect(outcome.fallback?.message).toContain('this page breaks checkVisibility');
  });
});
