import Firecrawl, { SdkError } from 'firecrawl-js-v4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngSize } from '../web/fixtures.js';
import { type FirecrawlWorld, sdkError, startFirecrawlWorld } from './firecrawl-setup.js';

/*
 * The v2 SDK itself (@mendable/firecrawl-js 4.42.0, installed as firecrawl-js-v4). Its package
 * declares Node 22, and it runs on our Node 20 for what is driven here; it is a test-only
 * dependency, so the service never depends on it.
 */
describe('Firecrawl v2 API, driven by the official v2 SDK (Firecrawl class)', () => {
  let world: FirecrawlWorld;
  let firecrawl: Firecrawl;

  beforeAll(async () => {
    world = await startFirecrawlWorld();
    firecrawl = new Firecrawl({ apiKey: world.key, apiUrl: world.server.baseUrl });
  });
  afterAll(async () => world?.close());

  it('scrapes every format from one page load', async () => {
    const { site, openai } = world;
    openai.reply({ content: '{"heading": "The Analytical Engine"}' });
    const before = await world.balance();
    const loads = site.hitsTo('/article').length;
    const document = await firecrawl.scrape(`${site.origin}/article`, {
      formats: [
        'markdown',
        'html',
        'rawHtml',
        'links',
        'images',
        { type: 'screenshot', fullPage: true },
        { type: 'json', prompt: 'The heading', schema: { type: 'object', properties: { heading: { type: 'string' } } } },
      ],
    });
    expect(site.hitsTo('/article').length - loads).toBe(1);
    expect(document.markdown).toContain('Second sentence 7 carries');
    expect(document.markdown).not.toContain('Footer words');
    expect(document.html).toContain('The Analytical Engine');
    expect(document.rawHtml).toContain('Footer words');
    expect(document.links).toEqual(expect.arrayContaining([`${site.origin}/home`, 'https://example.org/elsewhere']));
    expect(document.images).toEqual(expect.arrayContaining([`${site.origin}/img/engine.png`]));
    expect(document.json).toEqual({ heading: 'The Analytical Engine' });
    const image = await fetch(document.screenshot!);
    expect(pngSize(Buffer.from(await image.arrayBuffer())).width).toBe(1280);
    expect(document.metadata).toMatchObject({ title: 'Engine Notes', language: 'en-GB', sourceURL: `${site.origin}/article`, statusCode: 200 });
    expect(before - (await world.balance())).toBe(document.metadata?.creditsUsed);
  });

  it('searches, and scrapes the results when asked', async () => {
    const plain = await firecrawl.search('engine notes', { limit: 2 });
    expect(plain.web?.map((result) => ('url' in result ? result.url : undefined))).toEqual([`${world.site.origin}/article`, `${world.site.origin}/second`]);

    const scraped = await firecrawl.search('engine notes', { limit: 2, scrapeOptions: { formats: ['markdown'] } });
    const first = scraped.web?.[0];
    expect(first && 'markdown' in first ? first.markdown : undefined).toContain('Second sentence 7 carries');
  });

  it("raises the SDK's error with the status for a bad key, a refused address and what Pluck cannot do", async () => {
    const stranger = new Firecrawl({ apiKey: 'pk_not_a_key', apiUrl: world.server.baseUrl });
    expect((await sdkError(stranger.scrape(`${world.site.origin}/article`), SdkError)).status).toBe(401);
    const refused = await sdkError(firecrawl.scrape('http://169.254.169.254/latest/meta-data'), SdkError);
    expect(refused.status).toBe(400);
    expect(refused.message).toMatch(/not allowed/i);
    const actions = await sdkError(firecrawl.scrape(`${world.site.origin}/article`, { actions: Array.from({ length: 51 }, () => ({ type: 'scrape' as const })) }), SdkError);
    expect(actions.status).toBe(400);
    expect(actions.message).toContain('actions');
  });
});
