import FirecrawlApp, { FirecrawlError } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JobWorld, startJobWorld } from './jobs-setup.js';

async function sdkError(call: Promise<unknown>): Promise<FirecrawlError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(FirecrawlError);
  return error as FirecrawlError;
}

type Documents = Array<{ metadata?: { sourceURL?: string } }>;
const sourceUrls = (documents: Documents) => documents.map((document) => document.metadata?.sourceURL).sort();

/** The 1.x SDK (FirecrawlApp, 1.21.1) on the v1 routes; it polls every 2 s at least, so each waiting call takes that. */
describe('Firecrawl v1 crawl, batch scrape and map, driven by the official 1.x SDK', () => {
  let world: JobWorld;
  let app: FirecrawlApp;
  let origin: string;

  beforeAll(async () => {
    world = await startJobWorld();
    app = new FirecrawlApp({ apiKey: world.key, apiUrl: world.server.baseUrl });
    origin = world.site.origin;
  });
  afterAll(async () => world?.close());

  it('crawls and waits (crawlUrl), with maxDepth counting path segments below the start path', async () => {
    const crawl = await app.crawlUrl(`${origin}/docs`, { limit: 20, maxDepth: 1, ignoreSitemap: true, scrapeOptions: { formats: ['markdown'] } });
    expect(crawl).toMatchObject({ success: true, status: 'completed' });
    if (!crawl.success) throw new Error('crawl failed');
    // /docs/a/deep is two segments below /docs; the sitemap's /docs/orphan is skipped with ignoreSitemap.
    expect(sourceUrls(crawl.data as Documents)).toEqual([`${origin}/docs`, `${origin}/docs/a`, `${origin}/docs/b`]);
    expect(world.site.hitsTo('/docs/a/deep')).toHaveLength(0);
  });

  it('starts a crawl, pages its status with skip and limit through next, and cancels another (a DELETE with a JSON content type and no body)', async () => {
    const started = await app.asyncCrawlUrl(`${origin}/`, { limit: 5, allowBackwardLinks: true, ignoreSitemap: true });
    if (!started.success || !started.id) throw new Error('crawl did not start');
    expect(started.url).toBe(`${world.server.baseUrl}/v1/crawl/${started.id}`);
    let status = await app.checkCrawlStatus(started.id);
    for (let tries = 0; status.success && status.status === 'scraping' && tries < 100; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = await app.checkCrawlStatus(started.id);
    }
    expect(status).toMatchObject({ success: true, status: 'completed', total: 5, completed: 5 });

    const first = await app.checkCrawlStatus(started.id, false, undefined, 0, 2);
    if (!first.success) throw new Error('status failed');
    expect(first.data).toHaveLength(2);
    expect(first.next).toBe(`${world.server.baseUrl}/v1/crawl/${started.id}?skip=2&limit=2`);
    const pages: Documents = [...first.data];
    let next = first.next;
    while (next) {
      const page = await app.checkCrawlStatus(started.id, false, next);
      if (!page.success) throw new Error('status failed');
      pages.push(...page.data);
      next = page.next;
    }
    expect(pages).toHaveLength(5);
    expect(new Set(sourceUrls(pages)).size).toBe(5);
    const all = await app.checkCrawlStatus(started.id, true);
    if (!all.success) throw new Error('status failed');
    expect(all.data).toHaveLength(5);

    const slow = await app.asyncCrawlUrl(`${origin}/slow/0`, { limit: 6, allowBackwardLinks: true });
    if (!slow.success || !slow.id) throw new Error('crawl did not start');
    expect(await app.cancelCrawl(slow.id)).toMatchObject({ success: true, status: 'cancelled' });
    const cancelled = await app.checkCrawlStatus(slow.id);
    expect(cancelled).toMatchObject({ status: 'cancelled' });
  });

  it('batch scrapes and waits (batchScrapeUrls polls /v1/crawl/{id} for a batch)', async () => {
    const batch = await app.batchScrapeUrls([`${origin}/blog/1`, `${origin}/blog/2`], { formats: ['markdown', 'links'] });
    expect(batch).toMatchObject({ success: true, status: 'completed', total: 2, completed: 2, creditsUsed: 2 });
    if (!batch.success) throw new Error('batch failed');
    const post = (batch.data as Array<{ markdown?: string; links?: string[]; metadata?: { sourceURL?: string } }>).find((document) => document.metadata?.sourceURL === `${origin}/blog/1`)!;
    expect(post.markdown).toContain('The first post.');
    expect(post.links).toContain(`${origin}/blog/2`);
  });

  it('maps a site (mapUrl), links as strings', async () => {
    const map = await app.mapUrl(`${origin}/`, { sitemapOnly: true });
    expect(map).toMatchObject({ success: true });
    if (!map.success) throw new Error('map failed');
    expect([...map.links!].sort()).toEqual([`${origin}/`, `${origin}/blog/2`, `${origin}/docs/orphan`]);
    const linked = await app.mapUrl(`${origin}/`, { ignoreSitemap: true });
    if (!linked.success) throw new Error('map failed');
    expect(linked.links).toEqual(expect.arrayContaining([`${origin}/docs`, `${origin}/blog`]));
    expect(linked.links).not.toContain(`${origin}/docs/orphan`);
  });

  it("refuses a bad key, a refused start URL and another account's job", async () => {
    const bad = new FirecrawlApp({ apiKey: 'pk_nothing_like_a_key', apiUrl: world.server.baseUrl });
    expect((await sdkError(bad.asyncCrawlUrl(`${origin}/docs`, {}))).statusCode).toBe(401);
    const refused = await sdkError(app.asyncCrawlUrl('http://10.9.9.9/', {}));
    expect(refused.statusCode).toBe(400);
    expect(refused.message).toContain('URL not allowed: 10.9.9.9 is a private network address');
    const started = await app.asyncBatchScrapeUrls([`${origin}/blog/1`], { formats: ['markdown'] });
    if (!started.success || !started.id) throw new Error('batch did not start');
    const { key: otherKey } = await world.api.signUpWithKey();
    const other = new FirecrawlApp({ apiKey: otherKey, apiUrl: world.server.baseUrl });
    expect((await sdkError(other.checkBatchScrapeStatus(started.id))).message).toContain('404');
  });
});
