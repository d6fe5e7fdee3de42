import FirecrawlApp from '@mendable/firecrawl-js';
import Firecrawl, { SdkError } from 'firecrawl-js-v4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import type { RecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { startActionSite } from '../web/action-pages.js';
import { pngSize } from '../web/fixtures.js';
import { sdkError } from './firecrawl-setup.js';

/*
 * Firecrawl's `actions`, driven by Firecrawl's own SDKs (v2: firecrawl-js-v4; v1:
 * @mendable/firecrawl-js) against loopback pages that need a click, typing or scrolling.
 */
describe("Firecrawl's actions, through its SDKs", () => {
  let site: RecordingServer;
  let server: TestServer;
  let firecrawl: Firecrawl;
  let v1: FirecrawlApp;
  let balance: () => Promise<number>;

  beforeAll(async () => {
    site = await startActionSite();
    server = await startTestServer('sqlite', { ALLOW_PRIVATE_HOSTS: site.hostPort, JOB_POLL_INTERVAL_MS: '200' });
    const api = apiClient(server.baseUrl);
    const { key } = await api.signUpWithKey();
    firecrawl = new Firecrawl({ apiKey: key, apiUrl: server.baseUrl });
    v1 = new FirecrawlApp({ apiKey: key, apiUrl: server.baseUrl });
    balance = async () => (await api.get('/v1/user/credits', key)).body.data.balance as number;
  });
  afterAll(async () => {
    await server?.close();
    await site?.close();
  });

  it('clicks a button that reveals a section', async () => {
    const document = await firecrawl.scrape(`${site.origin}/reveal`, { formats: ['markdown'], actions: [{ type: 'click', selector: '#show-all' }] });
    expect(document.markdown).toContain('secret orrery');
    expect(document.actions).toEqual({ screenshots: [], scrapes: [], javascriptReturns: [], pdfs: [] });
  });

  it("types a search, presses Enter, and answers a screenshot, a scrape, a script's value and a PDF taken between actions", async () => {
    const before = await balance();
    const document = await firecrawl.scrape(`${site.origin}/search`, {
      formats: ['markdown'],
      actions: [
        { type: 'click', selector: '#q' },
        { type: 'write', text: 'sextant' },
        { type: 'press', key: 'Enter' },
        { type: 'wait', selector: '#results h2' },
        { type: 'screenshot' },
        { type: 'scrape' },
        { type: 'executeJavascript', script: "document.querySelectorAll('#results p').length" },
        { type: 'pdf', format: 'A4' },
      ],
    });
    expect(document.markdown).toContain('Found the sextant in the archive');
    const actions = document.actions as { screenshots: string[]; scrapes: Array<{ url: string; html: string }>; javascriptReturns: unknown[]; pdfs: string[] };
    expect(actions.javascriptReturns).toEqual([{ type: 'number', value: 1 }]);
    expect(actions.scrapes).toEqual([{ url: `${site.origin}/search`, html: expect.stringContaining('Results for sextant') }]);
    expect(actions.screenshots).toHaveLength(1);
    const image = await fetch(actions.screenshots[0]!);
    expect(pngSize(new Uint8Array(await image.arrayBuffer())).width).toBe(1280);
    expect(actions.pdfs).toHaveLength(1);
    const pdf = Buffer.from(await (await fetch(actions.pdfs[0]!)).arrayBuffer());
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { creditCosts } = server.ctx.config.web;
    expect(document.metadata?.creditsUsed).toBe(creditCosts.markdown + creditCosts.screenshot + creditCosts.pdf);
    expect(before - (await balance())).toBe(document.metadata?.creditsUsed);
  });

  it('scrolls an infinite list until it has grown', async () => {
    const scroll = [
      { type: 'scroll' as const, direction: 'down' as const },
      { type: 'wait' as const, milliseconds: 300 },
    ];
    const document = await firecrawl.scrape(`${site.origin}/infinite`, { formats: ['markdown'], actions: [...scroll, ...scroll, ...scroll, ...scroll, ...scroll, ...scroll] });
    expect(document.markdown).toContain('Feed item 40');
  });

  it("names the failing action in the SDK's error, and refuses an over-long wait before loading anything", async () => {
    const failed = await sdkError(firecrawl.scrape(`${site.origin}/reveal`, { actions: [{ type: 'click', selector: '#nope' }] }), SdkError);
    expect(failed.status).toBe(400);
    expect(failed.message).toContain('action 0 (click): no element matches "#nope"');

    const thrown = await sdkError(firecrawl.scrape(`${site.origin}/plain`, { actions: [{ type: 'executeJavascript', script: "throw new Error('broken widget')" }] }), SdkError);
    expect(thrown.status).toBe(400);
    expect(thrown.message).toContain('action 0 (executeJavascript): the script threw Error: broken widget');

    const loads = site.hits.length;
    const tooLong = await sdkError(firecrawl.scrape(`${site.origin}/plain`, { actions: [{ type: 'wait', milliseconds: 90_000 }] }), SdkError);
    expect(tooLong.status).toBe(400);
    expect(tooLong.message).toContain('actions.0.milliseconds');
    expect(site.hits.length).toBe(loads);
  });

  it("answers the v1 SDK's scrapeUrl with the actions object it types", async () => {
    const result = await v1.scrapeUrl(`${site.origin}/reveal`, {
      formats: ['markdown'],
      actions: [{ type: 'click', selector: '#show-all' }, { type: 'executeJavascript', script: 'return document.title' }],
    });
    if (!result.success) throw new Error(JSON.stringify(result));
    expect(result.markdown).toContain('secret orrery');
    expect(result.actions.javascriptReturns).toEqual([{ type: 'string', value: 'Reveal' }]);
  });

  it('runs the actions on every page of a batch scrape', async () => {
    const batch = await firecrawl.batchScrape([`${site.origin}/reveal`], { options: { formats: ['markdown'], actions: [{ type: 'click', selector: '#show-all' }] }, pollInterval: 1 });
    expect(batch.status).toBe('completed');
    expect(batch.data[0]?.markdown).toContain('secret orrery');
  });
});
