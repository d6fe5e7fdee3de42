import FirecrawlApp, { FirecrawlError } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngSize } from '../web/fixtures.js';
import { type FirecrawlWorld, sdkError, startFirecrawlWorld } from './firecrawl-setup.js';

const SENTENCES_SCHEMA = { type: 'object', properties: { engine: { type: 'string' }, sentences: { type: 'number' } } };


describe('Firecrawl v1 API, driven by the official SDK (@mendable/firecrawl-js FirecrawlApp)', () => {
  let world: FirecrawlWorld;
  let app: FirecrawlApp;

  beforeAll(async () => {
    world = await startFirecrawlWorld();
    app = new FirecrawlApp({ apiKey: world.key, apiUrl: world.server.baseUrl });
  });
  afterAll(async () => world?.close());

  it('scrapes every format from one page load, json by the model, for the credits of the native operations', async () => {
    const { site, openai, server } = world;
    const costs = server.ctx.config.web.creditCosts;
    openai.reply({ content: '{"engine": "Analytical", "sentences": 16}', usage: { prompt_tokens: 100, completion_tokens: 9 } });
    const before = await world.balance();
    const loads = site.hitsTo('/article').length;
    const answer = await app.scrapeUrl(`${site.origin}/article`, {
      formats: ['markdown', 'html', 'rawHtml', 'links', 'screenshot@fullPage', 'json'],
      // A JSON schema as the SDK sends it (the SDK's types want a zod 3 schema, which it converts to this).
      jsonOptions: { prompt: 'Which engine, and how many sentences?', schema: SENTENCES_SCHEMA as never },
    });
    expect(answer.success).toBe(true);
    if (!answer.success) return;
    expect(site.hitsTo('/article').length - loads).toBe(1);
    expect(answer.markdown).toContain('Second sentence 7 carries');
    expect(answer.markdown).not.toContain('Footer words');
    expect(answer.html).toContain('The Analytical Engine');
    expect(answer.html).not.toMatch(/<nav|Footer words/);
    expect(answer.rawHtml).toContain('Footer words');
    expect(answer.links).toEqual(expect.arrayContaining([`${site.origin}/home`, 'https://example.org/elsewhere']));
    expect(answer.json).toEqual({ engine: 'Analytical', sentences: 16 });
    expect(JSON.stringify(openai.chatBodies().at(-1)?.messages)).toContain('Second sentence 7 carries');
    // The screenshot is a URL of the stored file, which answers the image.
    expect(answer.screenshot).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const image = await fetch(answer.screenshot!);
    expect(image.status).toBe(200);
    const png = Buffer.from(await image.arrayBuffer());
    expect(pngSize(png).width).toBe(1280);
    expect(answer.metadata).toMatchObject({
      title: 'Engine Notes',
      description: 'Notes on the Analytical Engine',
      language: 'en-GB',
      keywords: 'engines, notes',
      ogTitle: 'Engine Notes OG',
      ogSiteName: 'Notes Site',
      'twitter:card': 'summary',
      sourceURL: `${site.origin}/article`,
      url: `${site.origin}/article`,
      statusCode: 200,
      cacheState: 'miss',
    });
    const price = Math.max(costs.markdown, costs.content, costs.links) + costs.screenshot + costs['ai-extract'];
    expect(answer.metadata?.creditsUsed).toBe(price);
    expect(await world.balance()).toBe(before - price);
  });

  it('answers the extract format under extract, with systemPrompt as the instructions', async () => {
    world.openai.reply({ content: '{"title": "The Analytical Engine"}' });
    const answer = await app.scrapeUrl(`${world.site.origin}/second`, {
      formats: ['extract'],
      extract: { prompt: 'The heading', systemPrompt: 'Answer in the words of the page' },
    });
    expect(answer.success && answer.extract).toEqual({ title: 'The Analytical Engine' });
    expect(JSON.stringify(world.openai.chatBodies().at(-1)?.messages)).toContain('Answer in the words of the page');
  });

  it('answers a repeated scrape from the cache, charged like a fresh one', async () => {
    const first = await app.scrapeUrl(`${world.site.origin}/second`, { formats: ['links'] });
    const before = await world.balance();
    const again = await app.scrapeUrl(`${world.site.origin}/second`, { formats: ['links'] });
    expect(again.success && again.metadata?.cacheState).toBe('hit');
    expect(again.success && again.links).toEqual(first.success && first.links);
    expect(await world.balance()).toBe(before - world.server.ctx.config.web.creditCosts.links);
  });

  it('searches the web, and scrapes each result when scrapeOptions asks for formats', async () => {
    const plain = await app.search('engine notes');
    expect(plain.success).toBe(true);
    expect(plain.data).toEqual([
      expect.objectContaining({ url: `${world.site.origin}/article`, title: 'Engine notes', description: 'Notes on the engine' }),
      expect.objectContaining({ url: `${world.site.origin}/second`, title: 'Second notes', description: 'More notes' }),
    ]);
    expect(plain.data[0]!.markdown).toBeUndefined();

    const before = await world.balance();
    const scraped = await app.search('engine notes scraped', { limit: 2, scrapeOptions: { formats: ['markdown'] } });
    expect(scraped.data.map((result) => result.markdown)).toEqual([expect.stringContaining('First sentence 0'), expect.stringContaining('First sentence 0')]);
    expect(scraped.data[1]!.metadata?.title).toBe('Second Notes');
    const { config } = world.server.ctx;
    expect(await world.balance()).toBe(before - config.search.creditCost - 2 * config.web.creditCosts.markdown);
  });

  it('surfaces refusals as the SDK errors: a bad key, a bad URL, a refused address, actions over their bounds, no credits', async () => {
    const stranger = new FirecrawlApp({ apiKey: 'pk_not_a_key', apiUrl: world.server.baseUrl });
    expect((await sdkError(stranger.scrapeUrl(`${world.site.origin}/article`), FirecrawlError)).statusCode).toBe(401);
    const searchRefused = await sdkError(stranger.search('engine notes'), FirecrawlError);
    expect(searchRefused.statusCode).toBe(401);
    expect(searchRefused.message).toContain('Authentication required');

    const badUrl = await sdkError(app.scrapeUrl('not a url'), FirecrawlError);
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.message).toMatch(/Error: Bad Request: url: Invalid URL/);

    const refused = await sdkError(app.scrapeUrl('http://10.1.2.3/'), FirecrawlError);
    expect(refused.statusCode).toBe(400);
    expect(refused.message).toMatch(/10\.1\.2\.3|not allowed/i);

    const waits = [{ type: 'wait' as const, milliseconds: 40_000 }, { type: 'wait' as const, milliseconds: 40_000 }];
    const actions = await sdkError(app.scrapeUrl(`${world.site.origin}/article`, { actions: waits }), FirecrawlError);
    expect(actions.statusCode).toBe(400);
    expect(actions.message).toContain("actions: The waits of a list add up to 80000 ms, over this server's bound of 60000 ms");

    const summary = await sdkError(app.scrapeUrl(`${world.site.origin}/article`, { formats: ['summary' as 'markdown'] }), FirecrawlError);
    expect(summary.message).toContain('The summary format is not supported');

    const balance = await world.balance();
    await world.setBalance(0);
    try {
      const loads = world.site.hitsTo('/article').length;
      const broke = await sdkError(app.scrapeUrl(`${world.site.origin}/article`, { formats: ['rawHtml'], maxAge: 0 } as never), FirecrawlError);
      expect(broke.statusCode).toBe(402);
      expect(broke.message).toMatch(/credits/i);
      expect(world.site.hitsTo('/article').length).toBe(loads);
      expect((await sdkError(app.search('engine notes again'), FirecrawlError)).statusCode).toBe(402);
    } finally {
      await world.setBalance(balance);
    }
  });
});
