import { createHmac } from 'node:crypto';
import Firecrawl, { SdkError, type WebhookConfig } from 'firecrawl-js-v4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIG_PAGE_CHARS, type JobWorld, REFUSED_ORIGIN, startJobWorld } from './jobs-setup.js';

async function sdkError(call: Promise<unknown>): Promise<SdkError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(SdkError);
  return error as SdkError;
}

const sourceUrls = (documents: Array<{ metadata?: { sourceURL?: string } }>) => documents.map((document) => document.metadata?.sourceURL).sort();

describe('Firecrawl v2 crawl, batch scrape and map, driven by the official v2 SDK', () => {
  let world: JobWorld;
  let firecrawl: Firecrawl;
  let origin: string;

  beforeAll(async () => {
    world = await startJobWorld();
    firecrawl = new Firecrawl({ apiKey: world.key, apiUrl: world.server.baseUrl });
    origin = world.site.origin;
  });
  afterAll(async () => world?.close());

  it('crawls under the start path (sitemap included), waits till done, and lists the refused link as an error', async () => {
    const job = await firecrawl.crawl(`${origin}/docs`, { limit: 20, scrapeOptions: { formats: ['markdown', 'links'] }, pollInterval: 1 });
    expect(job.status).toBe('completed');
    expect(sourceUrls(job.data)).toEqual([`${origin}/docs`, `${origin}/docs/a`, `${origin}/docs/a/deep`, `${origin}/docs/b`, `${origin}/docs/orphan`]);
    expect(job).toMatchObject({ total: 6, completed: 6, creditsUsed: 5 });
    expect(Date.parse(job.expiresAt!)).toBeGreaterThan(Date.now());
    const chapterA = job.data.find((document) => document.metadata?.sourceURL === `${origin}/docs/a`)!;
    expect(chapterA.markdown).toContain('Chapter A of the documentation');
    expect(chapterA.links).toContain(`${origin}/docs/a/deep`);
    expect(chapterA.metadata).toMatchObject({ title: 'Docs A', statusCode: 200, url: `${origin}/docs/a`, creditsUsed: 1 });
    expect(world.site.hitsTo('/blog/1')).toHaveLength(0);

    const errors = await firecrawl.getCrawlErrors(job.id!);
    expect(errors.errors).toEqual([expect.objectContaining({ url: `${REFUSED_ORIGIN}/docs/evil`, code: 'URL_NOT_ALLOWED' })]);
    expect(errors.robotsBlocked).toEqual([]);
  });

  it('crawls the whole site with includePaths and a limit', async () => {
    const docsLoads = world.site.hitsTo('/docs/a').length;
    const job = await firecrawl.crawl(`${origin}/`, { limit: 3, includePaths: ['^/blog'], sitemap: 'skip', scrapeOptions: { formats: ['markdown'] }, pollInterval: 1 });
    expect(job.status).toBe('completed');
    const urls = sourceUrls(job.data);
    expect(urls).toHaveLength(3);
    expect(urls).toContain(`${origin}/`);
    expect(urls.filter((url) => url !== `${origin}/`).every((url) => url!.startsWith(`${origin}/blog`))).toBe(true);
    expect(world.site.hitsTo('/docs/a').length).toBe(docsLoads);
  });

  it('starts a crawl, shows it active, cancels it, and its status says cancelled', async () => {
    const started = await firecrawl.startCrawl(`${origin}/slow/0`, { limit: 6, crawlEntireDomain: true, sitemap: 'skip' });
    expect(started.url).toBe(`${world.server.baseUrl}/v2/crawl/${started.id}`);
    const active = await firecrawl.getActiveCrawls();
    expect(active.crawls).toEqual([expect.objectContaining({ id: started.id, url: `${origin}/slow/0` })]);
    const running = await firecrawl.getCrawlStatus(started.id);
    expect(running.status).toBe('scraping');
    expect(await firecrawl.cancelCrawl(started.id)).toBe(true);
    const cancelled = await firecrawl.getCrawlStatus(started.id);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.completed).toBeLessThan(6);
    expect((await firecrawl.getActiveCrawls()).crawls).toEqual([]);
  });

  it('batch scrapes with formats, and pages the status through next when the documents pass 10 MB', async () => {
    const batch = await firecrawl.batchScrape([`${origin}/blog/1`, `${origin}/blog/2`, `${origin}/docs/b`], { options: { formats: ['markdown', 'html'] }, pollInterval: 1 });
    expect(batch.status).toBe('completed');
    expect(sourceUrls(batch.data)).toEqual([`${origin}/blog/1`, `${origin}/blog/2`, `${origin}/docs/b`]);
    const post = batch.data.find((document) => document.metadata?.sourceURL === `${origin}/blog/1`)!;
    expect(post.markdown).toContain('The first post.');
    expect(post.html).toContain('<h1>Blog 1</h1>');
    expect(batch.creditsUsed).toBe(3);

    const started = await firecrawl.startBatchScrape([`${origin}/big/0`, `${origin}/big/1`, `${origin}/big/2`, 'mailto:someone@example.org'], {
      options: { formats: ['rawHtml'] },
      ignoreInvalidURLs: true,
    });
    expect(started.invalidURLs).toEqual(['mailto:someone@example.org']);
    let status = await firecrawl.getBatchScrapeStatus(started.id);
    for (let tries = 0; status.status === 'scraping' && tries < 100; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = await firecrawl.getBatchScrapeStatus(started.id);
    }
    expect(status).toMatchObject({ status: 'completed', total: 3, completed: 3, next: null });
    expect(sourceUrls(status.data)).toEqual([`${origin}/big/0`, `${origin}/big/1`, `${origin}/big/2`]);
    expect(status.data.every((document) => (document.rawHtml?.length ?? 0) > BIG_PAGE_CHARS)).toBe(true);
    const firstPage = await firecrawl.getBatchScrapeStatus(started.id, { autoPaginate: false });
    expect(firstPage.data).toHaveLength(2);
    expect(firstPage.next).toMatch(new RegExp(`/v2/batch/scrape/${started.id}\\?skip=\\d+$`));
  });

  it("sends a crawl's events to its webhook, signed with the secret given", async () => {
    const secret = 'a-secret-of-the-caller-0123456789';
    const webhook = { url: `${origin}/hook`, events: ['started', 'completed'], secret } as WebhookConfig;
    const job = await firecrawl.crawl(`${origin}/blog`, { limit: 3, sitemap: 'skip', webhook, pollInterval: 1 });
    expect(job.status).toBe('completed');
    for (let tries = 0; world.site.hooks.length < 2 && tries < 50; tries += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(world.site.hooks.map((hook) => JSON.parse(hook.body).event)).toEqual(['started', 'completed']);
    for (const { signature, body } of world.site.hooks) {
      const { t, v1 } = Object.fromEntries(signature.split(',').map((part) => part.split('=')));
      expect(v1).toBe(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'));
    }
    const withHeaders = await sdkError(firecrawl.startCrawl(`${origin}/blog`, { webhook: { url: `${origin}/hook`, headers: { 'x-token': 'abc' } } }));
    expect(withHeaders.status).toBe(400);
    expect(withHeaders.message).toContain('webhook headers are not supported');
  });

  it('maps a site from its sitemap and links, filtered by search', async () => {
    const map = await firecrawl.map(`${origin}/`, {});
    const urls = map.links.map((link) => link.url);
    expect(urls).toEqual(expect.arrayContaining([`${origin}/`, `${origin}/docs`, `${origin}/blog`, `${origin}/docs/orphan`, `${origin}/blog/2`]));
    expect(urls).not.toContain(`${origin}/private/secret`);
    const searched = await firecrawl.map(`${origin}/`, { search: 'docs', limit: 1 });
    expect(searched.links).toHaveLength(1);
    expect(searched.links[0]!.url).toContain('/docs');
  });

  it("refuses a bad key, a refused start URL, options it does not honour, and another account's job", async () => {
    const bad = new Firecrawl({ apiKey: 'pk_nothing_like_a_key', apiUrl: world.server.baseUrl });
    expect((await sdkError(bad.startCrawl(`${origin}/docs`, {}))).status).toBe(401);

    const refused = await sdkError(firecrawl.startCrawl('http://10.9.9.9/docs', {}));
    expect(refused.status).toBe(400);
    expect(refused.message).toMatch(/not allowed|refused/i);
    const refusedMap = await sdkError(firecrawl.map('http://169.254.169.254/latest/', {}));
    expect(refusedMap.status).toBe(400);

    const tooMany = await sdkError(firecrawl.startCrawl(`${origin}/docs`, { limit: 100_000 }));
    expect(tooMany.status).toBe(400);
    expect(tooMany.message).toContain('At most 500 pages per job on the free plan');
    const delayed = await sdkError(firecrawl.startCrawl(`${origin}/docs`, { delay: 61 }));
    expect(delayed.status).toBe(400);
    expect(delayed.message).toContain('delay');
    const summary = await sdkError(firecrawl.startBatchScrape([`${origin}/docs`], { options: { formats: ['summary'] } }));
    expect(summary.status).toBe(400);
    expect(summary.message).toContain('summary');
    const notUrl = await sdkError(firecrawl.startBatchScrape(['not a url'], {}));
    expect(notUrl.status).toBe(400);

    const mine = await firecrawl.startBatchScrape([`${origin}/blog/1`], {});
    const { key: otherKey } = await world.api.signUpWithKey();
    const other = new Firecrawl({ apiKey: otherKey, apiUrl: world.server.baseUrl });
    expect((await sdkError(other.getBatchScrapeStatus(mine.id))).status).toBe(404);
    expect((await sdkError(other.getCrawlStatus(mine.id))).status).toBe(404);
    expect((await sdkError(other.cancelCrawl(mine.id))).status).toBe(404);
    expect((await sdkError(other.getCrawlErrors(mine.id))).status).toBe(404);
    await waitFinished(firecrawl, mine.id);
  });

  it('answers in Firecrawl\'s shape where the SDK does not look: details of a refused body, a made-up webhook secret, no map job', async () => {
    const { api, key } = world;
    const bogus = await api.post('/v2/crawl', { url: `${origin}/docs`, scrapeOptions: { formats: ['bogus'] } }, key);
    expect(bogus.status).toBe(400);
    expect(bogus.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR', details: [expect.objectContaining({ path: ['scrapeOptions', 'formats', 0] })] });
    expect(bogus.body.error).toContain('Unknown format "bogus"');

    const hooked = await api.post('/v2/batch/scrape', { urls: [`${origin}/blog/1`], webhook: `${origin}/hook` }, key);
    expect(hooked.status).toBe(200);
    expect(hooked.body.webhook).toMatchObject({ url: `${origin}/hook`, events: ['started', 'page', 'completed', 'failed'], secret: expect.stringMatching(/^whsec_/) });

    const map = await api.post('/v1/jobs/map', { url: `${origin}/` }, key);
    expect(map.status).toBe(201);
    expect((await api.get(`/v2/crawl/${map.body.data.id}`, key)).status).toBe(404);
    await waitFinished(firecrawl, hooked.body.id);
  });
});

async function waitFinished(firecrawl: Firecrawl, id: string): Promise<void> {
  for (let tries = 0; tries < 150; tries += 1) {
    if ((await firecrawl.getCrawlStatus(id, { autoPaginate: false })).status !== 'scraping') return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`job ${id} did not finish`);
}
