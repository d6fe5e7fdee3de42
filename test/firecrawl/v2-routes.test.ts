import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageSize } from '../../src/web/image-size.js';
import { pngSize } from '../web/fixtures.js';
import { type FirecrawlWorld, startFirecrawlWorld } from './firecrawl-setup.js';

/** The v2 SDK's own request: its JSON body with `origin` added, the key as a bearer token (src/v2/utils/httpClient.ts). */
async function firecrawlPost(world: FirecrawlWorld, path: string, body: Record<string, unknown>, key = world.key) {
  const res = await fetch(`${world.server.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ ...body, origin: 'js-sdk@3.2.0' }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

function jpegWidth(bytes: Buffer): number {
  // The width of the first start-of-frame segment (SOF0/SOF2).
  for (let at = 2; at < bytes.length; ) {
    const marker = bytes[at + 1]!;
    if (marker === 0xc0 || marker === 0xc2) return bytes.readUInt16BE(at + 7);
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  throw new Error('no frame in the JPEG');
}

describe('Firecrawl v2 API: the bodies and answers the v2 SDK (Firecrawl class) sends and reads', () => {
  let world: FirecrawlWorld;

  beforeAll(async () => {
    world = await startFirecrawlWorld();
  });
  afterAll(async () => world?.close());

  it('scrapes every v2 format, object formats with their options, from one page load', async () => {
    const { site, openai, server } = world;
    openai.reply({ content: '{"heading": "The Analytical Engine"}' });
    const before = await world.balance();
    const loads = site.hitsTo('/article').length;
    const res = await firecrawlPost(world, '/v2/scrape', {
      url: `${site.origin}/article`,
      formats: [
        'markdown',
        { type: 'html' },
        'rawHtml',
        'links',
        'images',
        { type: 'screenshot', fullPage: false, quality: 80, viewport: { width: 800, height: 600 } },
        { type: 'json', prompt: 'The heading', schema: { type: 'object', properties: { heading: { type: 'string' } } } },
      ],
      onlyMainContent: false,
      headers: { 'X-Firecrawl-Test': 'sent along', Cookie: 'session=abc; theme=dark' },
      waitFor: 100,
      // Accepted and ignored, as documented.
      proxy: 'basic',
      blockAds: true,
      location: { country: 'US' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.success).toBe(true);
    const { data } = res.body;
    expect(site.hitsTo('/article').length - loads).toBe(1);
    expect(site.hitsTo('/article').at(-1)?.headers['x-firecrawl-test']).toBe('sent along');
    // A Cookie header becomes the page's cookies.
    expect(site.hitsTo('/article').at(-1)?.headers.cookie).toBe('session=abc; theme=dark');
    // onlyMainContent: false keeps the page's chrome.
    expect(data.markdown).toContain('Footer words');
    expect(data.html).toContain('Footer words');
    expect(data.rawHtml).toContain('<nav>');
    expect(data.links).toContain(`${site.origin}/home`);
    expect(data.images).toContain(`${site.origin}/img/engine.png`);
    expect(data.json).toEqual({ heading: 'The Analytical Engine' });
    const image = await fetch(data.screenshot);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    expect(jpegWidth(Buffer.from(await image.arrayBuffer()))).toBe(800);
    expect(data.metadata).toMatchObject({ title: 'Engine Notes', statusCode: 200, url: `${site.origin}/article`, cacheState: 'miss' });
    const costs = server.ctx.config.web.creditCosts;
    const price = Math.max(costs.markdown, costs.content, costs.links) + costs.screenshot + costs['ai-extract'];
    expect(data.metadata.creditsUsed).toBe(price);
    expect(res.headers.get('x-credits-cost')).toBe(String(price));
    expect(await world.balance()).toBe(before - price);
  });

  it('takes mobile: true as a phone, 390x844 at 3 device pixels each, and the markdown format by default', async () => {
    const res = await firecrawlPost(world, '/v2/scrape', { url: `${world.site.origin}/second`, formats: ['screenshot'], mobile: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const png = Buffer.from(await (await fetch(res.body.data.screenshot)).arrayBuffer());
    expect(pngSize(png)).toEqual({ width: 1170, height: 2532 });
    // A JPEG of the phone, with the screenshot's own viewport: the phone's scale stays.
    const jpeg = await firecrawlPost(world, '/v2/scrape', {
      url: `${world.site.origin}/second`,
      formats: [{ type: 'screenshot', quality: 70, viewport: { width: 360, height: 640 } }],
      mobile: true,
    });
    expect(jpeg.status, JSON.stringify(jpeg.body)).toBe(200);
    expect(imageSize(Buffer.from(await (await fetch(jpeg.body.data.screenshot)).arrayBuffer()))).toEqual({ width: 1080, height: 1920 });
    const plain = await firecrawlPost(world, '/v2/scrape', { url: `${world.site.origin}/second` });
    expect(Object.keys(plain.body.data).sort()).toEqual(['markdown', 'metadata']);
    expect(plain.body.data.markdown).toContain('The Analytical Engine');
  });

  it('answers errors in Firecrawl\'s shape with its statuses: 400 with details, 401, 402, 408', async () => {
    const { site } = world;
    const unauthenticated = await firecrawlPost(world, '/v2/scrape', { url: `${site.origin}/article` }, 'pk_not_a_key');
    expect(unauthenticated).toMatchObject({ status: 401, body: { success: false, error: 'Authentication required', code: 'UNAUTHORIZED' } });

    const jsonByName = await firecrawlPost(world, '/v2/scrape', { url: `${site.origin}/article`, formats: ['markdown', 'json', 'changeTracking'] });
    expect(jsonByName.status).toBe(400);
    expect(jsonByName.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(jsonByName.body.error).toContain("json must be an object: {type: 'json', prompt, schema}");
    expect(jsonByName.body.details).toEqual([
      expect.objectContaining({ path: ['formats', 1] }),
      expect.objectContaining({ path: ['formats', 2], message: expect.stringContaining('The changeTracking format is not supported') }),
    ]);

    const badShot = await firecrawlPost(world, '/v2/scrape', { url: `${site.origin}/article`, formats: [{ type: 'screenshot', viewport: { width: 99999, height: 600 } }] });
    expect(badShot.status).toBe(400);
    expect(badShot.body.details[0].path).toEqual(['formats', 0, 'viewport', 'width']);

    const hostHeader = await firecrawlPost(world, '/v2/scrape', { url: `${site.origin}/article`, headers: { Host: 'elsewhere.example' } });
    expect(hostHeader.status).toBe(400);
    expect(hostHeader.body.details[0].path).toEqual(['headers']);

    const missingUrl = await firecrawlPost(world, '/v2/scrape', { formats: ['markdown'] });
    expect(missingUrl.status).toBe(400);
    expect(missingUrl.body.details).toEqual([expect.objectContaining({ path: ['url'], message: 'Required' })]);

    // A pattern that backtracks for ever on a crafted URL would freeze the server's thread during the crawl.
    const slowPattern = await firecrawlPost(world, '/v2/crawl', { url: `${site.origin}/`, includePaths: ['(a+)+$'] });
    expect(slowPattern.status, JSON.stringify(slowPattern.body)).toBe(400);
    expect(slowPattern.body.details[0].path).toEqual(['includePaths', 0]);

    const slow = await firecrawlPost(world, '/v2/scrape', { url: `${site.origin}/hang`, timeout: 1000 });
    expect(slow.status).toBe(408);
    expect(slow.body).toMatchObject({ success: false, code: 'TARGET_TIMEOUT' });

    const balance = await world.balance();
    await world.setBalance(0);
    try {
      const broke = await firecrawlPost(world, '/v2/scrape', { url: `${site.origin}/article`, maxAge: 0 });
      expect(broke).toMatchObject({ status: 402, body: { success: false, code: 'INSUFFICIENT_CREDITS' } });
      expect(broke.body.error).toMatch(/credits/i);
    } finally {
      await world.setBalance(balance);
    }
  });

  it('searches under data.web, scraping each result with scrapeOptions', async () => {
    const { site, server } = world;
    const plain = await firecrawlPost(world, '/v2/search', { query: 'engine notes', limit: 5, sources: ['web'] });
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    expect(plain.body.data.web).toEqual([
      { url: `${site.origin}/article`, title: 'Engine notes', description: 'Notes on the engine', position: 1 },
      { url: `${site.origin}/second`, title: 'Second notes', description: 'More notes', position: 2 },
    ]);

    const before = await world.balance();
    const scraped = await firecrawlPost(world, '/v2/search', {
      query: 'engine notes with pages',
      limit: 2,
      sources: [{ type: 'web' }],
      scrapeOptions: { formats: ['markdown', 'links'], onlyMainContent: true },
    });
    expect(scraped.status, JSON.stringify(scraped.body)).toBe(200);
    const [first, second] = scraped.body.data.web;
    expect(first).toMatchObject({ url: `${site.origin}/article`, title: 'Engine notes', markdown: expect.stringContaining('First sentence 0') });
    expect(first.markdown).not.toContain('Footer words');
    expect(second.links).toContain(`${site.origin}/home`);
    expect(second.metadata).toMatchObject({ title: 'Second Notes', sourceURL: `${site.origin}/second` });
    const { config } = server.ctx;
    const price = config.search.creditCost + 2 * Math.max(config.web.creditCosts.markdown, config.web.creditCosts.links);
    expect(scraped.body.creditsUsed).toBe(price);
    expect(await world.balance()).toBe(before - price);

    // A result whose page cannot be scraped keeps its place, with the reason, and costs nothing.
    const beforeRefused = await world.balance();
    const refused = await firecrawlPost(world, '/v2/search', { query: 'refused pages', limit: 3, scrapeOptions: { formats: ['markdown'] } });
    expect(refused.status, JSON.stringify(refused.body)).toBe(200);
    const private_ = refused.body.data.web[2];
    expect(private_).toMatchObject({ url: 'http://10.9.9.9/private', title: 'Private', position: 3, metadata: { creditsUsed: 0 } });
    expect(private_.metadata.error).toMatch(/^URL_NOT_ALLOWED: /);
    expect(private_.markdown).toBeUndefined();
    expect(refused.body.data.web[0].markdown).toContain('First sentence 0');
    expect(await world.balance()).toBe(beforeRefused - config.search.creditCost - 2 * config.web.creditCosts.markdown);

    const none = await firecrawlPost(world, '/v2/search', { query: 'nothing at all' });
    expect(none.body).toMatchObject({ success: true, data: { web: [] } });
  });

  it('refuses what its search cannot do before searching: news, categories, tbs, too many pages to scrape', async () => {
    const searches = world.searxng.requests.length;
    const news = await firecrawlPost(world, '/v2/search', { query: 'engine', sources: ['web', 'news'] });
    expect(news.status).toBe(400);
    expect(news.body.details).toEqual([expect.objectContaining({ path: ['sources', 1], message: expect.stringContaining('only web results') })]);
    const categories = await firecrawlPost(world, '/v2/search', { query: 'engine', categories: ['github'] });
    expect(categories.body.error).toContain('categories (github, research) are not supported');
    const tbs = await firecrawlPost(world, '/v2/search', { query: 'engine', tbs: 'qdr:d' });
    expect(tbs.body.error).toContain('tbs (time-based search) is not supported');
    const many = await firecrawlPost(world, '/v2/search', { query: 'engine', limit: 20, scrapeOptions: { formats: ['markdown'] } });
    expect(many.status).toBe(400);
    expect(many.body.error).toContain('At most 10 results are scraped');
    const badFormat = await firecrawlPost(world, '/v2/search', { query: 'engine', scrapeOptions: { formats: ['summary'] } });
    expect(badFormat.body.details[0].path).toEqual(['scrapeOptions', 'formats', 0]);
    expect(world.searxng.requests.length).toBe(searches);
  });
});
