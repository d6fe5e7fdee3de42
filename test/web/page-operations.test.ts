import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import type { RecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { startFixtureSite } from './fixtures.js';

describe('content, markdown, links and scrape', () => {
  let site: RecordingServer;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let key: string;
  let userId: string;

  beforeAll(async () => {
    site = await startFixtureSite();
    server = await startTestServer('sqlite', { ALLOW_PRIVATE_HOSTS: site.hostPort });
    api = apiClient(server.baseUrl);
    ({ userId, key } = await api.signUpWithKey());
  });
  afterAll(async () => {
    await server?.close();
    await site?.close();
  });

  const balance = async () => (await api.get('/v1/user/credits', key)).body.data.balance as number;

  it('returns rendered HTML with metadata, charges one credit, and caches per request', async () => {
    const before = await balance();
    const res = await api.post('/v1/web/content', { url: `${site.origin}/scripted` }, key);
    expect(res.status, res.text).toBe(200);
    expect(res.body.creditsCost).toBe(1);
    expect(res.body.data.content).toContain('Made by JavaScript');
    expect(res.body.data.metadata).toMatchObject({
      url: `${site.origin}/scripted`,
      finalUrl: `${site.origin}/scripted`,
      statusCode: 200,
      title: 'Scripted',
      contentType: 'text/html; charset=utf-8',
    });
    expect(res.headers.get('x-cache')).toBe('MISS');
    expect(await balance()).toBe(before - 1);

    const hitsBefore = site.hitsTo('/scripted').length;
    const again = await api.post('/v1/web/content', { url: `${site.origin}/scripted` }, key);
    expect(again.headers.get('x-cache')).toBe('HIT');
    expect(again.body.data.content).toBe(res.body.data.content);
    expect(site.hitsTo('/scripted').length).toBe(hitsBefore);

    const bypass = await api.post('/v1/web/content', { url: `${site.origin}/scripted`, maxAge: 0 }, key);
    expect(bypass.headers.get('x-cache')).toBe('MISS');
    expect(site.hitsTo('/scripted').length).toBe(hitsBefore + 1);
    const ledger = (await server.ctx.credits.ledger(userId)).filter((e) => e.reason === 'web:content');
    expect(ledger.map((e) => e.delta)).toEqual([-1, -1, -1]);
  });

  it('reports a target that answers 404 and still returns its page', async () => {
    const res = await api.post('/v1/web/content', { url: `${site.origin}/missing` }, key);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.metadata.statusCode).toBe(404);
    expect(res.body.data.content).toContain('404 page');
  });

  it('waits for waitTime and waitForSelector before capturing', async () => {
    const late = (res: { body: { data: { elements: Array<{ data: { results: Array<{ text: string }> } }> } } }) =>
      res.body.data.elements[0]!.data.results[0]!.text;
    const elements = [{ selector: '#late' }];
    const quick = await api.post('/v1/web/scrape', { url: `${site.origin}/much-later`, elements }, key);
    expect(late(quick)).toBe('');
    const waited = await api.post('/v1/web/scrape', { url: `${site.origin}/article`, waitTime: 2500, elements }, key);
    expect(late(waited)).toBe('Rendered by script later');
    const selector = await api.post('/v1/web/scrape', { url: `${site.origin}/article`, waitForSelector: '#late:not(:empty)', elements }, key);
    expect(late(selector)).toBe('Rendered by script later');
  });

  it('sends the caller headers, cookies and user agent to the target', async () => {
    const res = await api.post(
      '/v1/web/scrape',
      {
        url: `${site.origin}/echo`,
        headers: { 'X-Custom': 'custom-value' },
        cookies: [{ name: 'session', value: 'abc123' }],
        userAgent: 'PluckTest/1.0',
        elements: [{ selector: '#echo' }],
      },
      key,
    );
    expect(res.status, res.text).toBe(200);
    const echoed = JSON.parse(res.body.data.elements[0].data.results[0].text);
    expect(echoed).toEqual({ ua: 'PluckTest/1.0', custom: 'custom-value', cookie: 'session=abc123' });
  });

  it('turns the main content into GitHub-flavoured markdown with absolute links', async () => {
    const res = await api.post('/v1/web/markdown', { url: `${site.origin}/article` }, key);
    expect(res.status, res.text).toBe(200);
    const { markdown, metadata } = res.body.data;
    expect(markdown).toMatch(/^# Main Heading$/m);
    expect(markdown).toMatch(/^## Lists$/m);
    expect(markdown).toContain(`[the introduction](${site.origin}/docs/intro#part)`);
    expect(markdown).toMatch(/^[-*] alpha\n\s+[-*] nested beta$/m);
    expect(markdown).toMatch(/\| Name +\| Value +\|/);
    expect(markdown).toContain('```python\nprint("hello")\n```');
    expect(markdown).toContain(`![A cat](${site.origin}/img/cat.png)`);
    expect(markdown).not.toContain('Footer text');
    expect(markdown).not.toContain('About');
    expect(metadata).toMatchObject({ title: 'Fixture Article', description: 'A page for the tests', language: 'en-GB', statusCode: 200 });
    expect(metadata.wordCount).toBeGreaterThan(20);

    const whole = await api.post('/v1/web/markdown', { url: `${site.origin}/article`, onlyMainContent: false }, key);
    expect(whole.body.data.markdown).toContain('Footer text');
    const excluded = await api.post('/v1/web/markdown', { url: `${site.origin}/article`, excludeTags: ['table', 'pre'] }, key);
    expect(excluded.body.data.markdown).not.toContain('| Name');
    expect(excluded.body.data.markdown).not.toContain('print(');
  });

  it('answers 422 for an unparseable includeTags selector, and refunds', async () => {
    const before = await balance();
    const res = await api.post('/v1/web/markdown', { url: `${site.origin}/article`, includeTags: ['main', 'p[[['] }, key);
    expect(res.status, res.text).toBe(422);
    expect(res.body.error.issues[0].path).toEqual(['includeTags', 1]);
    expect(await balance()).toBe(before);
  });

  it('collects absolute, deduplicated http(s) links', async () => {
    const res = await api.post('/v1/web/links', { url: `${site.origin}/article` }, key);
    expect(res.status, res.text).toBe(200);
    const { links, metadata } = res.body.data;
    expect(links).toEqual(
      expect.arrayContaining([`${site.origin}/home`, `${site.origin}/about`, `${site.origin}/docs/intro`, 'https://example.org/x']),
    );
    expect(links.filter((link: string) => link === `${site.origin}/about`)).toHaveLength(1);
    expect(links.some((link: string) => link.startsWith('mailto:') || link.includes('#'))).toBe(false);
    expect(metadata.count).toBe(links.length);
  });

  it('scrapes elements with text, html, attributes and geometry', async () => {
    const res = await api.post(
      '/v1/web/scrape',
      { url: `${site.origin}/scripted`, elements: [{ selector: 'h1.title' }, { selector: 'a.more', attributes: ['href', 'data-none'] }] },
      key,
    );
    expect(res.status, res.text).toBe(200);
    const [heading, links] = res.body.data.elements;
    expect(heading.selector).toBe('h1.title');
    expect(heading.data.results[0]).toMatchObject({ text: 'Made by JavaScript', attributes: { class: 'title', 'data-id': '7' } });
    expect(heading.data.results[0].html).toContain('<h1');
    expect(heading.data.results[0].width).toBeGreaterThan(0);
    expect(links.data.results.map((r: { attributes: object }) => r.attributes)).toEqual([
      { href: '/next', 'data-none': null },
      { href: '/next2', 'data-none': null },
    ]);
    expect(res.body.data.metadata.elementsFound).toBe(3);
  });

  it('answers 422 for scrape input errors and refunds an invalid selector', async () => {
    const missing = await api.post('/v1/web/scrape', { url: `${site.origin}/scripted` }, key);
    expect(missing.status).toBe(422);
    expect(missing.body.error.issues).toContainEqual(
      expect.objectContaining({ path: ['elements'], expected: 'array', received: 'undefined', message: 'Required' }),
    );
    const tooMany = await api.post('/v1/web/scrape', { url: `${site.origin}/scripted`, elements: Array(21).fill({ selector: 'p' }) }, key);
    expect(tooMany.status).toBe(422);
    const before = await balance();
    const invalid = await api.post('/v1/web/scrape', { url: `${site.origin}/scripted`, elements: [{ selector: 'p' }, { selector: 'div >>> ]' }] }, key);
    expect(invalid.status, invalid.text).toBe(422);
    expect(invalid.body.error.issues[0].path).toEqual(['elements', 1, 'selector']);
    expect(await balance()).toBe(before);
  });

  it('validates the shared page fields', async () => {
    const cases: Array<[Record<string, unknown>, (string | number)[]]> = [
      [{}, ['url']],
      [{ url: 'not a url' }, ['url']],
      [{ url: `${site.origin}/`, waitTime: 5001 }, ['waitTime']],
      [{ url: `${site.origin}/`, waitTime: -1 }, ['waitTime']],
      [{ url: `${site.origin}/`, waitUntil: 'never' }, ['waitUntil']],
      [{ url: `${site.origin}/`, timeout: 10 }, ['timeout']],
      [{ url: `${site.origin}/`, headers: { Host: 'evil' } }, ['headers']],
      [{ url: `${site.origin}/`, headers: { 'Proxy-Authorization': 'x' } }, ['headers']],
      [{ url: `${site.origin}/`, cookies: [{ value: 'x' }] }, ['cookies', 0, 'name']],
    ];
    for (const [body, path] of cases) {
      const res = await api.post('/v1/web/content', body, key);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.issues[0].path, JSON.stringify(body)).toEqual(path);
    }
  });
});
