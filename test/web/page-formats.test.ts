import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { OPENAI_TEST_KEY, type OpenAiStandIn, startOpenAiStandIn } from '../ai/openai-stand-in.js';
import { pngSize } from './fixtures.js';

const prose = (label: string) => Array.from({ length: 10 }, (_, i) => `${label} sentence ${i} carries enough words to count as the article's prose.`).join(' ');

/** A page that says a lot about itself, with chrome around its article. */
const RICH_PAGE = `<!doctype html><html lang="en-GB"><head>
<title>Rich Page Title</title>
<meta name="description" content="A page that describes itself">
<meta name="author" content="Ada Lovelace">
<meta name="keywords" content="engines, notes">
<link rel="canonical" href="/canonical/rich">
<link rel="icon" href="/static/icon.png">
<meta property="og:title" content="Rich OG Title"><meta property="og:site_name" content="Rich Site">
<meta property="og:image" content="/static/cover.jpg"><meta property="og:type" content="article">
<meta name="twitter:card" content="summary_large_image"><meta name="twitter:site" content="@rich">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","datePublished":"2026-01-02T03:04:05Z","dateModified":"2026-02-03T04:05:06Z","publisher":{"@type":"Organization","name":"Rich Publisher"}}</script>
</head><body>
<header><nav><a href="/home">Home</a> <a href="/about">About</a></nav></header>
<main><article><h1>The Analytical Engine</h1><p>${prose('First')}</p><p>${prose('Second')}</p>
<img src="/img/engine.png" alt="The engine" srcset="/img/engine-2x.png 2x"></article></main>
<footer><a href="https://example.org/elsewhere#part">Elsewhere</a> Footer words</footer>
<script>document.querySelector('article').insertAdjacentHTML('beforeend', '<p id="by-script">Added by the page script.</p>');</script>
</body></html>`;

/** A page that shows nothing until well after `load`, then a tall article. */
const SILENT_THEN_FILLED = `<!doctype html><html lang="en"><head><title>Silent</title></head><body>
<script>addEventListener('load', () => setTimeout(() => {
  document.body.insertAdjacentHTML('beforeend', ${JSON.stringify(`<article style="min-height: 3000px"><h1>Filled late</h1><p>${prose('Late')}</p></article>`)});
}, 1200));</script></body></html>`;

describe('POST /v1/web/page: several outputs of one page load', () => {
  let site: RecordingServer;
  let openai: OpenAiStandIn;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let key: string;

  beforeAll(async () => {
    const send = (body: string) => (_req: unknown, res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    [site, openai] = await Promise.all([startRecordingServer({ '/rich': send(RICH_PAGE), '/other': send(RICH_PAGE), '/silent': send(SILENT_THEN_FILLED) }), startOpenAiStandIn()]);
    server = await startTestServer('sqlite', {
      ALLOW_PRIVATE_HOSTS: site.hostPort,
      OPENAI_BASE_URL: `${openai.url}/v1`,
      OPENAI_API_KEY: OPENAI_TEST_KEY,
      AI_MODEL: 'stand-in-model',
    });
    api = apiClient(server.baseUrl);
    ({ key } = await api.signUpWithKey());
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all([site?.close(), openai?.close()]);
  });

  const page = (body: Record<string, unknown>) => api.post('/v1/web/page', { url: `${site.origin}/rich`, ...body }, key);
  const balance = async () => (await api.get('/v1/user/credits', key)).body.data.balance as number;

  it('answers every output from one navigation, at the price of one load plus each capture', async () => {
    const before = await balance();
    const loads = site.hitsTo('/rich').length;
    const formats = ['markdown', 'html', 'rawHtml', 'links', 'images', 'metadata', { type: 'screenshot', fullPage: true }, 'pdf', { type: 'scrape', elements: [{ selector: 'h1' }] }];
    const res = await page({ formats, base64: true });
    expect(res.status, res.text.slice(0, 500)).toBe(200);
    expect(site.hitsTo('/rich').length - loads).toBe(1);
    const { data } = res.body;
    expect(data.markdown).toContain('Second sentence 9 carries');
    expect(data.markdown).toContain('Added by the page script.');
    expect(data.markdown).not.toContain('Footer words');
    // html: cleaned, and without the chrome (onlyMainContent is on by default); rawHtml: as rendered.
    expect(data.html).toContain('Added by the page script.');
    expect(data.html).not.toMatch(/<script|<nav|Footer words/);
    expect(data.rawHtml).toMatch(/<script[^>]*>document\.querySelector/);
    expect(data.rawHtml).toContain('Footer words');
    expect(data.links).toEqual(expect.arrayContaining([`${site.origin}/home`, 'https://example.org/elsewhere']));
    expect(data.images).toEqual(expect.arrayContaining([`${site.origin}/img/engine.png`, `${site.origin}/img/engine-2x.png`, `${site.origin}/static/cover.jpg`]));
    expect(data.scrape).toEqual({ elements: [{ selector: 'h1', data: { results: [expect.objectContaining({ text: 'The Analytical Engine' })] } }], elementsFound: 1 });
    expect(pngSize(Buffer.from(data.screenshot.base64, 'base64')).width).toBe(1280);
    expect(data.screenshot).toMatchObject({ contentType: 'image/png', width: 1280, truncated: false });
    expect(Buffer.from(data.pdf.base64, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    expect(data.pdf.pages).toBeGreaterThanOrEqual(1);
    expect(data.screenshot.r2Key).toBeUndefined();
    // One load with text outputs (1) plus a screenshot (1) and a PDF (1).
    expect(res.body.creditsCost).toBe(3);
    expect(await balance()).toBe(before - 3);
    const files = await api.get('/v1/files/list', key);
    expect(files.body.data.files.map((file: { id: string }) => file.id)).toEqual(expect.arrayContaining([data.screenshot.fileId, data.pdf.fileId]));
  });

  it('takes the screenshot after the markdown has waited for a page that showed nothing yet', async () => {
    const res = await page({ url: `${site.origin}/silent`, formats: ['markdown', { type: 'screenshot', fullPage: true }], base64: true });
    expect(res.status, res.text.slice(0, 500)).toBe(200);
    expect(res.body.data.markdown).toContain('Late sentence 9 carries');
    // The filled page is 3,000 px tall; the empty one is the 800 px viewport.
    expect(pngSize(Buffer.from(res.body.data.screenshot.base64, 'base64')).height).toBeGreaterThanOrEqual(3000);
  });

  it('says what the page says about itself, on this and on every spec page operation', async () => {
    const expected = {
      url: `${site.origin}/rich`,
      finalUrl: `${site.origin}/rich`,
      statusCode: 200,
      contentType: 'text/html; charset=utf-8',
      title: 'Rich Page Title',
      description: 'A page that describes itself',
      language: 'en-GB',
      canonicalUrl: `${site.origin}/canonical/rich`,
      siteName: 'Rich Site',
      author: 'Ada Lovelace',
      publishedTime: '2026-01-02T03:04:05Z',
      modifiedTime: '2026-02-03T04:05:06Z',
      favicon: `${site.origin}/static/icon.png`,
      image: `${site.origin}/static/cover.jpg`,
      keywords: 'engines, notes',
      openGraph: { title: 'Rich OG Title', site_name: 'Rich Site', image: '/static/cover.jpg', type: 'article' },
      twitter: { card: 'summary_large_image', site: '@rich' },
    };
    const res = await page({ formats: ['metadata'] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.metadata).toMatchObject(expected);
    expect(res.body.creditsCost).toBe(1);
    for (const operation of ['content', 'markdown', 'links']) {
      const spec = await api.post(`/v1/web/${operation}`, { url: `${site.origin}/rich` }, key);
      expect(spec.status, spec.text).toBe(200);
      expect(spec.body.data.metadata, operation).toMatchObject({ ...expected, title: expect.any(String) });
    }
  });

  it('caches each set of outputs apart, and charges a cached answer like a fresh one', async () => {
    const first = await page({ url: `${site.origin}/other`, formats: ['markdown', 'links'] });
    const again = await page({ url: `${site.origin}/other`, formats: ['markdown', 'links'] });
    expect([first.headers.get('x-cache'), again.headers.get('x-cache')]).toEqual(['MISS', 'HIT']);
    expect(again.body.data.links).toEqual(first.body.data.links);
    expect(again.body.creditsCost).toBe(1);
    const other = await page({ url: `${site.origin}/other`, formats: ['markdown'] });
    expect(other.headers.get('x-cache')).toBe('MISS');
    // A cached screenshot still answers its bytes, read back from the stored file.
    const shot = await page({ url: `${site.origin}/other`, formats: ['screenshot'], base64: true });
    const shotAgain = await page({ url: `${site.origin}/other`, formats: ['screenshot'], base64: true });
    expect(shotAgain.headers.get('x-cache')).toBe('HIT');
    expect(shotAgain.body.data.screenshot.base64).toBe(shot.body.data.screenshot.base64);
  });

  it('extracts JSON with the model in the same request, from the page it loaded once', async () => {
    openai.reply({ content: '{"engine": "Analytical"}', usage: { prompt_tokens: 100, completion_tokens: 5 } });
    const res = await page({ formats: ['links', { type: 'json', prompt: 'Which engine?' }], maxAge: 0 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.json).toMatchObject({ extracted: { engine: 'Analytical' }, model: 'stand-in-model', extractionType: 'prompt' });
    expect(res.body.data.links.length).toBeGreaterThan(0);
    // links (1) plus the AI extraction (5).
    expect(res.body.creditsCost).toBe(6);
    expect(JSON.stringify(openai.chatBodies().at(-1)?.messages)).toContain('Second sentence 9 carries');
  });

  it('answers 422 naming the field for a format it does not know, one asked twice, none at all, or a bad selector', async () => {
    const unknown = await page({ formats: ['markdown', 'summary'] });
    expect(unknown.status, unknown.text).toBe(422);
    expect(unknown.body.error.issues[0].path).toEqual(['formats', 1]);
    const twice = await page({ formats: ['links', 'links'] });
    expect(twice.status).toBe(422);
    expect(twice.body.error.issues[0]).toMatchObject({ path: ['formats', 1], message: 'links is asked for more than once' });
    const none = await page({ formats: [] });
    expect(none.status).toBe(422);
    const badOption = await page({ formats: [{ type: 'screenshot', imageType: 'png', quality: 50 }] });
    expect(badOption.status).toBe(422);
    const badSelector = await page({ formats: ['html'], includeTags: ['##'], maxAge: 0 });
    expect(badSelector.status, badSelector.text).toBe(422);
    expect(badSelector.body.error.issues[0].path).toEqual(['includeTags', 0]);
  });
});
