import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASELINE_CHROMIUM_ARGS } from '../../scripts/baseline-chromium.js';
import { loadConfig } from '../../src/config.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** /docs on a machine without internet: everything it needs comes from Pluck itself. */
describe('the API reference at /docs', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    browser = await chromium.launch({ executablePath: loadConfig({}).browser.chromiumPath, args: BASELINE_CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lists the operations with every request off this origin refused, and breaks no rule of its Content-Security-Policy', async () => {
    const page = await browser.newPage();
    const elsewhere: string[] = [];
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(server.baseUrl) || url.startsWith('data:')) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    const response = await page.goto(`${server.baseUrl}/docs`);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self' 'nonce-");
    // The sidebar lists each tag; the Web tag opens onto its operations.
    await page.getByText('Liveness: the process answers').first().waitFor({ timeout: 30_000 });
    await page.getByText('Web', { exact: true }).first().click();
    await page.getByText('Main content of a page as GitHub-flavoured markdown').first().waitFor({ timeout: 10_000 });
    await page.getByText('Several outputs of one page load', { exact: false }).first().waitFor({ timeout: 10_000 });
    expect(elsewhere, elsewhere.join('\n')).toEqual([]);
    expect(violations, violations.join('\n')).toEqual([]);
    await page.close();
  }, 60_000);

  it('serves the reference script itself, and no page of it names a third-party script', async () => {
    const html = await (await fetch(`${server.baseUrl}/docs`)).text();
    expect(html).toContain('<script nonce="');
    expect(html).toContain('src="/docs/scalar-api-reference.js"');
    expect(html).not.toMatch(/src="https?:/);
    const script = await fetch(`${server.baseUrl}/docs/scalar-api-reference.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
  });
});
