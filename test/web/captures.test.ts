import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { testDialects } from '../helpers/databases.js';
import type { RecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { pngSize, startFixtureSite } from './fixtures.js';

async function post(server: TestServer, path: string, body: unknown, key: string) {
  return fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

for (const dialect of await testDialects()) {
  describe(`screenshots and PDFs [${dialect}]`, () => {
    let site: RecordingServer;
    let server: TestServer;
    let key: string;

    beforeAll(async () => {
      site = await startFixtureSite();
      server = await startTestServer(dialect, { ALLOW_PRIVATE_HOSTS: site.hostPort, SCREENSHOT_MAX_HEIGHT: '3000' });
      const api = apiClient(server.baseUrl);
      key = (await api.createKey((await api.signUp()).token)).key;
    });
    afterAll(async () => {
      await server?.close();
      await site?.close();
    });

    it('answers PNG bytes with the file headers, and serves the stored file', async () => {
      const res = await post(server, '/v1/web/screenshot', { url: `${site.origin}/article`, viewport: { width: 800, height: 600 } }, key);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers.get('x-credits-cost')).toBe('1');
      const fileId = res.headers.get('x-file-id')!;
      const fileUrl = res.headers.get('x-file-url')!;
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(pngSize(bytes)).toEqual({ width: 800, height: 600 });

      expect(fileUrl).toMatch(new RegExp(`^${server.baseUrl}/files/[A-Za-z0-9_-]{43}/screenshot-\\d{8}T\\d{6}\\.png$`));
      const served = await fetch(fileUrl);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);

      const record = await server.ctx.database.db.selectFrom('file').selectAll().where('id', '=', fileId).executeTakeFirstOrThrow();
      expect(record).toMatchObject({ type: 'screenshot', url: `${site.origin}/article`, public_url: fileUrl, size: bytes.byteLength });
      const retentionDays = (Date.parse(record.expires_at) - Date.parse(record.created_at)) / 86_400_000;
      expect(retentionDays).toBe(7);

      const guessed = fileUrl.replace(/files\/[^/]+/, 'files/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
      expect((await fetch(guessed)).status).toBe(404);
      expect((await fetch(`${server.baseUrl}/files/../../pluck.sqlite`)).status).toBe(404);
    });

    it('answers JSON with base64, honours device scale, jpeg and full page with a height cap', async () => {
      const res = await post(
        server,
        '/v1/web/screenshot',
        { url: `${site.origin}/tall`, base64: true, viewport: { width: 400, height: 300, deviceScaleFactor: 2 }, screenshotOptions: { fullPage: true } },
        key,
      );
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toMatchObject({ success: true, creditsCost: 1, data: { fileId: expect.any(String), permanentUrl: expect.any(String) } });
      // SCREENSHOT_MAX_HEIGHT is in device pixels: 3000 at deviceScaleFactor 2 is 1500 CSS pixels of the page.
      expect(body.data.metadata).toMatchObject({ url: `${site.origin}/tall`, statusCode: 200, width: 800, height: 3000, truncated: true, contentType: 'image/png' });
      const png = Buffer.from(body.data.base64, 'base64');
      expect(pngSize(png)).toEqual({ width: 800, height: 3000 });
      expect(body.data.metadata.size).toBe(png.byteLength);

      const jpeg = await post(server, '/v1/web/screenshot', { url: `${site.origin}/article`, screenshotOptions: { type: 'jpeg', quality: 50 } }, key);
      expect(jpeg.headers.get('content-type')).toBe('image/jpeg');
      const head = new Uint8Array(await jpeg.arrayBuffer()).slice(0, 3);
      expect([...head]).toEqual([0xff, 0xd8, 0xff]);

      const webp = await post(server, '/v1/web/screenshot', { url: `${site.origin}/article`, screenshotOptions: { type: 'webp' } }, key);
      expect(webp.headers.get('content-type')).toBe('image/webp');
      expect(Buffer.from(await webp.arrayBuffer()).toString('latin1', 8, 12)).toBe('WEBP');
    });

    it('captures one element by selector and refuses a selector that matches nothing', async () => {
      const res = await post(server, '/v1/web/screenshot', { url: `${site.origin}/article`, screenshotOptions: { selector: 'table' } }, key);
      expect(res.status).toBe(200);
      const size = pngSize(new Uint8Array(await res.arrayBuffer()));
      expect(size.height).toBeLessThan(200);
      const none = await post(server, '/v1/web/screenshot', { url: `${site.origin}/article`, screenshotOptions: { selector: '.nothing' } }, key);
      expect(none.status).toBe(422);
      expect((await none.json()).error.issues[0].path).toEqual(['screenshotOptions', 'selector']);
      const bad = await post(server, '/v1/web/screenshot', { url: `${site.origin}/article`, screenshotOptions: { type: 'png', quality: 5 } }, key);
      expect(bad.status).toBe(422);
    });

    it('renders PDFs as bytes by default and as the spec JSON with base64', async () => {
      const res = await post(server, '/v1/web/pdf', { url: `${site.origin}/article` }, key);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.toString('latin1', 0, 5)).toBe('%PDF-');
      expect(res.headers.get('x-file-url')).toMatch(/\.pdf$/);

      const json = await post(server, '/v1/web/pdf', { url: `${site.origin}/article`, base64: true, pdfOptions: { landscape: true, format: 'Letter' } }, key);
      const body = await json.json();
      expect(body).toMatchObject({ success: true, requestId: expect.any(String), timestamp: expect.any(String), creditsCost: 1 });
      expect(body.data.metadata).toMatchObject({ size: expect.any(Number), url: `${site.origin}/article`, timestamp: expect.any(String) });
      expect(Buffer.from(body.data.base64, 'base64').toString('latin1', 0, 5)).toBe('%PDF-');
      expect(body.data.permanentUrl).toContain('/files/');
      const record = await server.ctx.database.db.selectFrom('file').select('type').where('id', '=', body.data.fileId).executeTakeFirstOrThrow();
      expect(record.type).toBe('pdf');

      const invalid = await post(server, '/v1/web/pdf', { url: `${site.origin}/article`, waitTime: 9000 }, key);
      expect(invalid.status).toBe(422);
    });

    it('serves a cached screenshot from the stored file without loading the page again', async () => {
      const body = { url: `${site.origin}/scripted`, viewport: { width: 640, height: 480 } };
      const first = await post(server, '/v1/web/screenshot', body, key);
      const firstBytes = new Uint8Array(await first.arrayBuffer());
      const hits = site.hitsTo('/scripted').length;
      const second = await post(server, '/v1/web/screenshot', body, key);
      expect(second.headers.get('x-cache')).toBe('HIT');
      expect(second.headers.get('x-file-id')).toBe(first.headers.get('x-file-id'));
      expect(new Uint8Array(await second.arrayBuffer())).toEqual(firstBytes);
      expect(site.hitsTo('/scripted').length).toBe(hits);
      const other = await post(server, '/v1/web/screenshot', { ...body, viewport: { width: 641, height: 480 } }, key);
      expect(other.headers.get('x-cache')).toBe('MISS');
    });
  });
}
