import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const prose = (label: string) => Array.from({ length: 8 }, (_, i) => `${label} sentence ${i} carries enough words to count as the article's prose.`).join(' ');

/** Server-rendered: the article is in the HTML; a script adds a line, an image and a tracker are asked for. */
const ARTICLE = `<!doctype html><html lang="en"><head><title>Static Article</title><link rel="stylesheet" href="/style.css"></head><body>
<main><article><h1>Static Article</h1><p>${prose('Served')}</p><p class="hidden-by-css">Hidden by the stylesheet.</p>
<img src="/photo.png" alt="photo"></article></main>
<script src="/app.js"></script>
<script>document.querySelector('article').insertAdjacentHTML('beforeend', '<p>Added by the page script.</p>');</script>
</body></html>`;

/** Client-rendered: an empty root that a script fills a little after load (the 150 ms case of issue 51 too). */
const APP = (delayMs: number) => `<!doctype html><html><head><title>App</title></head><body><div id="root"></div>
<noscript>You need to enable JavaScript to run this app.</noscript>
<script>setTimeout(() => { document.getElementById('root').innerHTML = ${JSON.stringify(`<article><h1>Rendered By Script</h1><p>${prose('Scripted')}</p></article>`)}; }, ${delayMs});</script>
</body></html>`;

/** Thin without scripts: a few words of chrome in the HTML, the article fetched by a script. */
const THIN = `<!doctype html><html><head><title>Thin</title></head><body><header>Site name</header><div id="content">Loading</div>
<script>fetch('/article.json').then(r => r.json()).then(a => { document.getElementById('content').innerHTML = '<article><h1>' + a.title + '</h1><p>' + a.text + '</p></article>'; });</script>
</body></html>`;

describe('engines: each URL read the cheapest way that gives its content', () => {
  let site: RecordingServer;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let key: string;

  beforeAll(async () => {
    const send = (body: string, type = 'text/html; charset=utf-8') => (_req: unknown, res: ServerResponse) => res.writeHead(200, { 'content-type': type }).end(body);
    site = await startRecordingServer({
      '/article': send(ARTICLE),
      '/style.css': send('.hidden-by-css { display: none }', 'text/css'),
      '/app.js': send('window.appLoaded = true;', 'text/javascript'),
      '/photo.png': send('not really a png', 'image/png'),
      '/app-0': send(APP(0)),
      '/app-150': send(APP(150)),
      '/thin': send(THIN),
      '/article.json': send(JSON.stringify({ title: 'Fetched Article', text: prose('Fetched') }), 'application/json'),
      '/image.png': send('\x89PNG\r\n\x1a\n0000', 'image/png'),
      '/to-private': (_req, res) => res.writeHead(302, { location: 'http://10.255.255.1/secret' }).end(),
      '/cookie-check': (req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><main><p>${prose('Cookie')}</p><p>cookie=${req.headers.cookie ?? 'none'}</p><p>agent=${req.headers['user-agent']}</p></main></body></html>`),
      '/hop': (_req, res) => res.writeHead(302, { location: '/cookie-check' }).end(),
    });
    server = await startTestServer('sqlite', { ALLOW_PRIVATE_HOSTS: site.hostPort });
    api = apiClient(server.baseUrl);
    ({ key } = await api.signUpWithKey());
  });
  afterAll(async () => {
    await server?.close();
    await site?.close();
  });

  const markdown = (path: string, extra: Record<string, unknown> = {}) => api.post('/v1/web/markdown', { url: `${site.origin}${path}`, ...extra }, key);

  it('reads a server-rendered page without its scripts: stylesheets applied, nothing else fetched', async () => {
    const before = { script: site.hitsTo('/app.js').length, image: site.hitsTo('/photo.png').length };
    const answer = await markdown('/article');
    expect(answer.status).toBe(200);
    const { markdown: text, metadata } = answer.body.data;
    expect(metadata.engine).toBe('static');
    expect(text).toContain('# Static Article');
    expect(text).toContain('Served sentence 7');
    expect(text).not.toContain('Added by the page script');
    expect(text).not.toContain('Hidden by the stylesheet');
    expect(metadata.title).toBe('Static Article');
    expect(metadata.statusCode).toBe(200);
    expect(site.hitsTo('/app.js').length).toBe(before.script);
    expect(site.hitsTo('/photo.png').length).toBe(before.image);
  });

  it('loads the page with its scripts when asked (engine: browser), and says so', async () => {
    const answer = await markdown('/article', { engine: 'browser', maxAge: 0 });
    expect(answer.status).toBe(200);
    expect(answer.body.data.metadata.engine).toBe('browser');
    expect(answer.body.data.markdown).toContain('Added by the page script');
  });

  it.each([0, 150])('loads a client-rendered app (empty root, content %i ms after load) with its scripts', async (delay) => {
    const started = performance.now();
    const answer = await markdown(`/app-${delay}`);
    expect(answer.status).toBe(200);
    expect(answer.body.data.metadata.engine).toBe('browser');
    expect(answer.body.data.markdown).toContain('Rendered By Script');
    expect(answer.body.data.metadata.warnings ?? []).not.toContainEqual(expect.objectContaining({ code: 'NO_CONTENT' }));
    expect(performance.now() - started).toBeLessThan(4_000);
  });

  it('loads a page that comes out thin without scripts with them', async () => {
    const answer = await markdown('/thin');
    expect(answer.status).toBe(200);
    expect(answer.body.data.metadata.engine).toBe('browser');
    expect(answer.body.data.markdown).toContain('Fetched Article');
  });

  it('keeps to static when asked, even for an app', async () => {
    const answer = await markdown('/app-0', { engine: 'static', maxAge: 0 });
    expect(answer.status).toBe(200);
    expect(answer.body.data.metadata.engine).toBe('static');
    expect(answer.body.data.markdown).not.toContain('Rendered By Script');
  });

  it('refuses engine static with an option that needs scripts, before any work', async () => {
    const answer = await api.post('/v1/web/screenshot', { url: `${site.origin}/article`, engine: 'static' }, key);
    expect(answer.status).toBe(422);
    expect(JSON.stringify(answer.body)).toContain('engine');
  });

  it('answers an image URL with UNSUPPORTED_CONTENT_TYPE, not charged', async () => {
    const balance = async () => (await api.get('/v1/user/credits', key)).body.data.balance as number;
    const before = await balance();
    const answer = await markdown('/image.png');
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe('UNSUPPORTED_CONTENT_TYPE');
    expect(answer.body.error.message).toContain('image/png');
    expect(await balance()).toBe(before);
  });

  it('refuses a redirect to a private address on the HTTP fetch, as the browser does', async () => {
    const answer = await markdown('/to-private');
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('URL_NOT_ALLOWED');
  });

  it("sends the caller's cookies to their site only, and the browser's user agent, across redirects", async () => {
    const answer = await markdown('/hop', { cookies: [{ name: 'sid', value: 'abc', domain: '127.0.0.1' }, { name: 'other', value: 'x', domain: 'example.com' }], maxAge: 0 });
    expect(answer.status).toBe(200);
    expect(answer.body.data.metadata.engine).toBe('static');
    expect(answer.body.data.metadata.finalUrl).toBe(`${site.origin}/cookie-check`);
    expect(answer.body.data.markdown).toContain('cookie=sid=abc');
    expect(answer.body.data.markdown).not.toContain('other=x');
    expect(answer.body.data.markdown).toMatch(/agent=Mozilla\/5\.0 .*Chrome\//);
  });
});
