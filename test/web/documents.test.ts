import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import Firecrawl from 'firecrawl-js-v4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'documents');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));
const PDF = 'application/pdf';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** A row of the rivers table, as a markdown pipe table writes it. */
const RHINE_ROW = /\|\s*Rhine\s*\|\s*1230\s*\|\s*North Sea\s*\|/;

describe('documents: a URL serving a PDF, a DOCX or text is read as one, everywhere', () => {
  let site: RecordingServer;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let key: string;

  beforeAll(async () => {
    const serve = (body: Buffer | string, headers: Record<string, string>) => (_req: unknown, res: ServerResponse) => res.writeHead(200, headers).end(body);
    site = await startRecordingServer({
      '/report.pdf': serve(fixture('report.pdf'), { 'content-type': PDF }),
      '/download': serve(fixture('report.pdf'), { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="report.pdf"' }),
      '/two-pages.pdf': serve(fixture('two-pages.pdf'), { 'content-type': PDF }),
      '/fifty-pages.pdf': serve(fixture('fifty-pages.pdf'), { 'content-type': PDF }),
      '/garden.docx': serve(fixture('garden.docx'), { 'content-type': DOCX }),
      '/notes.txt': serve('Plain notes.\n\nThe second paragraph of the plain notes.', { 'content-type': 'text/plain; charset=utf-8' }),
      '/data.json': serve('{"river":"Rhine","length":1230}', { 'content-type': 'application/json' }),
      '/docs': serve(`<!doctype html><html><head><title>Docs</title></head><body><main><h1>Documents of the site</h1><p>${'The site keeps its reports as PDF files for readers who print them. '.repeat(4)}</p><a href="/report.pdf">The report</a></main></body></html>`, { 'content-type': 'text/html' }),
    });
    // report.pdf (30 KB) is within the bound; fifty-pages.pdf (42 KB) is over it.
    server = await startTestServer('sqlite', { ALLOW_PRIVATE_HOSTS: site.hostPort, DOCUMENT_MAX_BYTES: '36000' });
    api = apiClient(server.baseUrl);
    ({ key } = await api.signUpWithKey());
  });
  afterAll(async () => {
    await server?.close();
    await site?.close();
  });

  const balance = async () => (await api.get('/v1/user/credits', key)).body.data.balance as number;
  const markdown = (path: string, extra: Record<string, unknown> = {}) => api.post('/v1/web/markdown', { url: `${site.origin}${path}`, maxAge: 0, ...extra }, key);

  it('reads a PDF printed from known HTML: its title as a heading, sections, joined paragraphs, lists, the table, its metadata; one credit', async () => {
    const before = await balance();
    const res = await markdown('/report.pdf');
    expect(res.status, res.text).toBe(200);
    const { markdown: text, metadata } = res.body.data;
    expect(text).toMatch(/^# Field Notes on Rivers$/m);
    expect(text).toMatch(/^## Measuring the flow$/m);
    expect(text).toContain('This paragraph is long enough to wrap across several lines of the printed page.');
    expect(text).toMatch(/^- Acoustic Doppler profilers from a boat$/m);
    expect(text).toMatch(/^1\. Choose a straight reach$/m);
    expect(text).toMatch(RHINE_ROW);
    expect(metadata).toMatchObject({ engine: 'document', title: 'Field Notes on Rivers', contentType: PDF, statusCode: 200, document: { kind: 'pdf', pageCount: 1 } });
    expect(res.body.creditsCost).toBe(1);
    expect(await balance()).toBe(before - 1);
  });

  it('reads a PDF sent as a download (octet-stream, attachment) by its bytes, with the browser engine too', async () => {
    for (const engine of ['auto', 'browser']) {
      const res = await markdown('/download', { engine });
      expect(res.status, `${engine}: ${res.text}`).toBe(200);
      expect(res.body.data.metadata.engine, engine).toBe('document');
      expect(res.body.data.markdown, engine).toMatch(RHINE_ROW);
    }
  });

  it('reads the pages asked for', async () => {
    const all = await markdown('/two-pages.pdf');
    expect(all.status, all.text).toBe(200);
    expect(all.body.data.markdown).toContain('After the harvest');
    const first = await markdown('/two-pages.pdf', { document: { lastPage: 1 } });
    expect(first.status, first.text).toBe(200);
    expect(first.body.data.metadata.document).toEqual({ kind: 'pdf', pageCount: 2, pagesRead: { first: 1, last: 1 } });
    expect(first.body.data.markdown).not.toContain('After the harvest');
  });

  it('reads a DOCX, plain text and JSON', async () => {
    const docx = await markdown('/garden.docx');
    expect(docx.status, docx.text).toBe(200);
    expect(docx.body.data.metadata).toMatchObject({ engine: 'document', title: 'Garden Review 2024', document: { kind: 'docx' } });
    expect(docx.body.data.markdown).toMatch(/^# Planting$/m);
    const text = await markdown('/notes.txt');
    expect(text.body.data.markdown).toContain('The second paragraph of the plain notes.');
    expect(text.body.data.metadata.document).toEqual({ kind: 'text' });
    const json = await markdown('/data.json');
    expect(json.body.data.markdown).toMatch(/```json\n\{\n {2}"river": "Rhine",\n {2}"length": 1230\n\}\n```/);
  });

  it('refuses what a document does not have, and a document over the bound, without charging', async () => {
    const before = await balance();
    const content = await api.post('/v1/web/content', { url: `${site.origin}/report.pdf`, maxAge: 0 }, key);
    expect(content.status, content.text).toBe(422);
    expect(content.body.error.code).toBe('UNSUPPORTED_CONTENT_TYPE');
    expect(content.body.error.message).toContain('rawHtml');
    const shot = await api.post('/v1/web/screenshot', { url: `${site.origin}/report.pdf`, maxAge: 0 }, key);
    expect(shot.status, shot.text).toBe(422);
    expect(shot.body.error.code).toBe('UNSUPPORTED_CONTENT_TYPE');
    const big = await markdown('/fifty-pages.pdf');
    expect(big.status, big.text).toBe(422);
    expect(big.body.error.code).toBe('DOCUMENT_TOO_LARGE');
    expect(big.body.error.message).toContain('DOCUMENT_MAX_BYTES');
    expect(await balance()).toBe(before);
  });

  it('reads a PDF through the reader URL', async () => {
    const res = await api.get(`/r/${site.origin}/report.pdf`, key);
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain('Title: Field Notes on Rivers');
    expect(res.text).toMatch(RHINE_ROW);
  });

  it("reads a PDF through Firecrawl's own SDK, with numPages, and refuses it when parsers turn PDF off", async () => {
    const firecrawl = new Firecrawl({ apiKey: key, apiUrl: server.baseUrl });
    const document = await firecrawl.scrape(`${site.origin}/report.pdf`, { formats: ['markdown'], maxAge: 0 });
    expect(document.markdown).toMatch(RHINE_ROW);
    expect(document.metadata).toMatchObject({ title: 'Field Notes on Rivers', numPages: 1, statusCode: 200 });
    await expect(firecrawl.scrape(`${site.origin}/report.pdf`, { formats: ['markdown'], parsers: [], maxAge: 0 })).rejects.toThrow(/PDF reading is turned off/);
  });

  it('follows a link to a PDF in a crawl and reads it', async () => {
    const created = await api.post('/v1/jobs/crawl', { url: `${site.origin}/docs`, limit: 5, formats: ['markdown'] }, key);
    expect(created.status, created.text).toBe(201);
    let job: any;
    for (let tries = 0; tries < 120; tries += 1) {
      job = (await api.get(`/v1/jobs/${created.body.data.id}?limit=10`, key)).body.data;
      if (['completed', 'failed'].includes(job.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(job.status).toBe('completed');
    const report = job.results.find((result: { url: string }) => result.url === `${site.origin}/report.pdf`);
    expect(report?.status, JSON.stringify(job.results).slice(0, 500)).toBe('completed');
    expect(report.data.markdown).toMatch(RHINE_ROW);
    expect(report.data.metadata.engine).toBe('document');
  });
});
