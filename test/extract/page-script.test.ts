import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachDevtoolsAhead, evaluateFunction } from '../../src/extract/page-script.js';
import { launchChromium, pageWith } from './chromium.js';

/** What tsx's esbuild wraps named inner functions in (keepNames); declared here to write such a function. */
declare const __name: <F>(fn: F, name: string) => F;

describe('code we evaluate in a page', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("runs in a world the page's scripts cannot reach, on the page's DOM", async () => {
    const page = await pageWith(browser, '<!doctype html><body><p id="x">twelve chars</p></body>');
    await page.evaluate(() => {
      String.prototype.slice = () => 'tampered';
      Object.defineProperty(Element.prototype, 'outerHTML', { get: () => 'x'.repeat(10) });
      (window as unknown as { secret: string }).secret = 'page state';
    });
    const seen = await evaluateFunction(
      page,
      () => ({
        text: (document.getElementById('x')?.textContent ?? '').slice(0, 6),
        html: document.getElementById('x')?.outerHTML ?? '',
        secret: (window as unknown as { secret?: string }).secret ?? null,
      }),
      null,
    );
    expect(seen).toEqual({ text: 'twelve', html: '<p id="x">twelve chars</p>', secret: null });
    await page.close();
  });

  it("gives tsx's __name helper a stand-in, so named inner functions work as under any build", async () => {
    const page = await pageWith(browser, '<!doctype html><body></body>');
    const doubled = await evaluateFunction(
      page,
      (value: number) => {
        const double = __name((n: number) => n * 2, 'double');
        return double(value);
      },
      21,
    );
    expect(doubled).toBe(42);
    await page.close();
  });

  it('uses a session attached before the first navigation on every document after it, another site’s included', async () => {
    const page = await browser.newPage();
    attachDevtoolsAhead(page);
    await page.route('**/*', (route) => route.fulfill({ contentType: 'text/html', body: `<title>${new URL(route.request().url()).host}</title>` }));
    await page.goto('http://first.test/');
    expect(await evaluateFunction(page, () => document.title, null)).toBe('first.test');
    // Another site: Chromium moves the page to another renderer process.
    await page.goto('http://second.test/');
    expect(await evaluateFunction(page, () => document.title, null)).toBe('second.test');
    await page.close();
  });

  it('fails the next call, without an unhandled rejection, when the page closes while its session attaches', async () => {
    const page = await browser.newPage();
    attachDevtoolsAhead(page);
    await page.close();
    await expect(evaluateFunction(page, () => 1, null)).rejects.toThrow();
  });

  it('shares our world between the calls on one document, and starts a new one with the next document', async () => {
    const page = await browser.newPage();
    await page.route('**/*', (route) => route.fulfill({ contentType: 'text/html', body: '<p>page</p>' }));
    await page.goto('http://first.test/');
    const mark = () => {
      const world = globalThis as unknown as { calls?: number };
      world.calls = (world.calls ?? 0) + 1;
      return world.calls;
    };
    expect(await evaluateFunction(page, mark, null)).toBe(1);
    expect(await evaluateFunction(page, mark, null)).toBe(2);
    expect(await page.evaluate(() => (globalThis as unknown as { calls?: number }).calls ?? null)).toBeNull();
    await page.goto('http://first.test/again');
    expect(await evaluateFunction(page, mark, null)).toBe(1);
    // The same address, a new document: the world known for it is gone, and a new one answers.
    await page.reload();
    expect(await evaluateFunction(page, mark, null)).toBe(1);
    expect(await evaluateFunction(page, mark, null)).toBe(2);
    // Another site, in another renderer process: nothing of the last document's world.
    await page.goto('http://second.test/again');
    expect(await evaluateFunction(page, () => [document.location.host, (globalThis as unknown as { calls?: number }).calls ?? null], null)).toEqual(['second.test', null]);
    await page.close();
  });
});
