import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readerTarget } from '../../src/web/reader.routes.js';
import { apiClient } from '../helpers/client.js';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const ARTICLE = `<!doctype html><html><head><title>Reader Page</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<main><article><h1>Reading in one line</h1>
<p>${'The reader answers the main content of the page as markdown for a curl one-liner. '.repeat(6)}</p>
<p>The query string reached the page: <span id="q">TOPIC</span></p></article></main>
<footer>Footer words that are not the article</footer>
</body></html>`;

describe('GET /r/<url>: a reader URL answering text/markdown', () => {
  let site: RecordingServer;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let key: string;

  beforeAll(async () => {
    // The server writes the query it was sent into the page.
    const send = (req: IncomingMessage, res: ServerResponse) =>
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE.replace('TOPIC', new URL(req.url ?? '/', 'http://site').searchParams.get('topic') ?? 'none'));
    site = await startRecordingServer({ '/article': send });
    server = await startTestServer('sqlite', { ALLOW_PRIVATE_HOSTS: site.hostPort });
    api = apiClient(server.baseUrl, null);
    ({ key } = await api.signUpWithKey());
  });
  afterAll(async () => {
    await server?.close();
    await site?.close();
  });

  it('answers the title, the final URL and the main content, with its price and cache state in headers', async () => {
    const res = await api.get(`/r/${site.origin}/article?topic=engines`, key);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(res.text.startsWith('Title: Reader Page\n\nURL Source: ')).toBe(true);
    expect(res.text).toContain(`URL Source: ${site.origin}/article?topic=engines\n`);
    expect(res.text).toContain('Markdown Content:\n# Reading in one line');
    expect(res.text).toContain('The query string reached the page: engines');
    expect(res.text).not.toContain('Footer words');
    expect(res.headers.get('x-credits-cost')).toBe('1');
    expect(res.headers.get('x-cache')).toBe('MISS');

    const again = await api.get(`/r/${site.origin}/article?topic=engines`, key);
    expect(again.headers.get('x-cache')).toBe('HIT');
    expect(again.text).toBe(res.text);
  });

  it('refuses a caller without a key, and a path that names no page, in the error shape', async () => {
    const anonymous = await api.get(`/r/${site.origin}/article`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.success).toBe(false);

    const nothing = await api.get('/r/', key);
    expect(nothing.status).toBe(422);
    expect(nothing.body.error.code).toBe('VALIDATION_ERROR');

    const privateHost = await api.get('/r/http://169.254.169.254/latest/meta-data', key);
    expect(privateHost.status).toBeGreaterThanOrEqual(400);
    expect(privateHost.status).toBeLessThan(500);
    expect(privateHost.body.success).toBe(false);
  });

  it('restores the slashes a proxy collapses and assumes https when no scheme is given', () => {
    expect(readerTarget(new URL('http://pluck.test/r/https:/example.com/a?b=c'))).toBe('https://example.com/a?b=c');
    expect(readerTarget(new URL('http://pluck.test/r/example.com/path'))).toBe('https://example.com/path');
    expect(readerTarget(new URL('http://pluck.test/r/http://example.com/'))).toBe('http://example.com/');
  });
});
