import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { imageSize } from '../../src/web/image-size.js';
import { apiClient } from '../helpers/client.js';
import { htmlPage, type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { waitForJob } from '../jobs/job-client.js';
import { TALL } from './fixtures.js';

/**
 * 400 CSS pixels wide, 1000 high, with a 150x70 card at (10, 20): sizes known to the pixel. The
 * broken image's icon is drawn for the device's scale, in a PDF too.
 */
const BOX = `<!doctype html><title>Box</title><body style="margin:0">
<div id="card" style="position:absolute;left:10px;top:20px;width:150px;height:70px;background:teal"></div>
<img src="/gone.png" alt="gone" style="position:absolute;left:200px;top:200px">
<div style="height:1000px;background:linear-gradient(#eee,#333)"></div></body>`;

const TYPES = ['png', 'jpeg', 'webp'] as const;
const RETINA = { width: 400, height: 300, deviceScaleFactor: 2 };
const PHONE = { width: 400, height: 300, deviceScaleFactor: 3, isMobile: true };

describe('viewport.deviceScaleFactor: images at the device scale, and answers that say the size the bytes have', () => {
  let site: RecordingServer;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    site = await startRecordingServer({ '/box': htmlPage(BOX), '/tall': htmlPage(TALL) });
    server = await startTestServer('sqlite', { ALLOW_PRIVATE_HOSTS: site.hostPort, SCREENSHOT_MAX_HEIGHT: '3000', JOB_POLL_INTERVAL_MS: '200', LOG_LEVEL: 'warn' });
    api = apiClient(server.baseUrl);
  });
  afterAll(async () => {
    await server?.close();
    await site?.close();
  });

  /** A screenshot as JSON: the decoded size of its bytes, its metadata, and the stored file record's metadata. */
  async function shot(key: string, body: Record<string, unknown>) {
    const res = await api.post('/v1/web/screenshot', { url: `${site.origin}/box`, base64: true, ...body }, key);
    expect(res.status, res.text).toBe(200);
    const bytes = Buffer.from(res.body.data.base64, 'base64');
    const record = await server.ctx.database.db.selectFrom('file').select('metadata').where('id', '=', res.body.data.fileId).executeTakeFirstOrThrow();
    return { size: imageSize(bytes), bytes, metadata: res.body.data.metadata, stored: JSON.parse(record.metadata), warnings: res.body.data.metadata.warnings };
  }

  /** Asserts the image is `width` x `height` and every answer about it says so. */
  function expectSize(answer: Awaited<ReturnType<typeof shot>>, width: number, height: number, label: string) {
    expect(answer.size, label).toEqual({ width, height });
    expect(answer.metadata, label).toMatchObject({ width, height, size: answer.bytes.byteLength });
    expect(answer.stored, label).toMatchObject({ width, height, size: answer.bytes.byteLength });
  }

  it('captures the viewport at scale 2, and at 3 as a phone, in png, jpeg and webp', async () => {
    const { key } = await api.signUpWithKey();
    for (const type of TYPES) {
      expectSize(await shot(key, { viewport: RETINA, screenshotOptions: { type } }), 800, 600, `${type} at 2`);
      expectSize(await shot(key, { viewport: PHONE, screenshotOptions: { type } }), 1200, 900, `${type} at 3, mobile`);
    }
    // The binary answer is the same image.
    const res = await fetch(`${server.baseUrl}/v1/web/screenshot`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.origin}/box`, viewport: PHONE, maxAge: 0 }),
    });
    expect(imageSize(new Uint8Array(await res.arrayBuffer()))).toEqual({ width: 1200, height: 900 });
  });

  it('captures a full page, a clip and an element at scale 2, in png, jpeg and webp', async () => {
    const { key } = await api.signUpWithKey();
    for (const type of TYPES) {
      expectSize(await shot(key, { viewport: RETINA, screenshotOptions: { type, fullPage: true } }), 800, 2000, `${type} full page`);
      expectSize(await shot(key, { viewport: RETINA, screenshotOptions: { type, clip: { x: 10, y: 20, width: 150, height: 70 } } }), 300, 140, `${type} clip`);
      expectSize(await shot(key, { viewport: RETINA, screenshotOptions: { type, selector: '#card' } }), 300, 140, `${type} element`);
    }
  });

  it('cuts a full page and refuses a viewport or clip in device pixels (SCREENSHOT_MAX_HEIGHT 3000)', async () => {
    const { key } = await api.signUpWithKey();
    for (const type of TYPES) {
      const cut = await shot(key, { url: `${site.origin}/tall`, viewport: RETINA, screenshotOptions: { type, fullPage: true } });
      expectSize(cut, 800, 3000, `${type} cut`);
      expect(cut.metadata.truncated).toBe(true);
      expect(cut.warnings.map((warning: { code: string }) => warning.code)).toContain('ANSWER_TRUNCATED');
    }
    const tooHigh = await api.post('/v1/web/screenshot', { url: `${site.origin}/box`, viewport: { width: 400, height: 1001, deviceScaleFactor: 3 } }, key);
    expect(tooHigh.status, tooHigh.text).toBe(422);
    expect(tooHigh.body.error.issues[0].path).toEqual(['viewport']);
    const clip = { x: 0, y: 0, width: 100, height: 1501 };
    const clipTooHigh = await api.post('/v1/web/screenshot', { url: `${site.origin}/box`, viewport: RETINA, screenshotOptions: { clip } }, key);
    expect(clipTooHigh.status, clipTooHigh.text).toBe(422);
    expect(clipTooHigh.body.error.issues[0].path).toEqual(['screenshotOptions', 'clip']);
  });

  it("answers at scale 1 again from an account's warm page after a request at scale 2", async () => {
    const { key } = await api.signUpWithKey();
    for (const type of ['png', 'webp'] as const) {
      expectSize(await shot(key, { viewport: { width: 400, height: 300 }, screenshotOptions: { type }, maxAge: 0 }), 400, 300, `${type} first at 1`);
      const warm = () => expect(server.ctx.browser.stats().warmPages).toBeGreaterThanOrEqual(1);
      await vi.waitFor(warm);
      expectSize(await shot(key, { viewport: RETINA, screenshotOptions: { type }, maxAge: 0 }), 800, 600, `${type} at 2`);
      // A page at another scale is a context of its own, never kept: the next request takes the warm page.
      warm();
      expectSize(await shot(key, { viewport: { width: 400, height: 300 }, screenshotOptions: { type }, maxAge: 0 }), 400, 300, `${type} at 1 again`);
    }
  });

  it('answers a session at the scale that opened it, and refuses another scale or mobile with 422 at no charge', async () => {
    const { key } = await api.signUpWithKey();
    expectSize(await shot(key, { viewport: RETINA, session: 'retina' }), 800, 600, 'opening the session');
    expectSize(await shot(key, { viewport: RETINA, session: 'retina', screenshotOptions: { type: 'webp' } }), 800, 600, 'in the session');
    const credits = async () => (await api.get('/v1/user/credits', key)).body.data.balance as number;
    const before = await credits();
    const otherScale = await api.post('/v1/web/screenshot', { url: `${site.origin}/box`, viewport: { width: 400, height: 300 }, session: 'retina' }, key);
    expect(otherScale.status, otherScale.text).toBe(422);
    expect(otherScale.body.error.code).toBe('VALIDATION_ERROR');
    expect(otherScale.body.error.issues[0].path).toEqual(['viewport', 'deviceScaleFactor']);
    expect(otherScale.body.error.issues[0].message).toContain('deviceScaleFactor 2');
    const mobile = await api.post('/v1/web/screenshot', { url: `${site.origin}/box`, viewport: { ...RETINA, isMobile: true }, session: 'retina' }, key);
    expect(mobile.status, mobile.text).toBe(422);
    expect(mobile.body.error.issues[0].path).toEqual(['viewport', 'isMobile']);
    expect(await credits()).toBe(before);
    // What has no scale to get wrong still runs in the session.
    expect((await api.post('/v1/web/markdown', { url: `${site.origin}/box`, session: 'retina' }, key)).status).toBe(200);
  });

  it('honours the scale in a screenshot format of /v1/web/page, leaving the PDF of the same load as it was, and in a batch job', async () => {
    const { key } = await api.signUpWithKey();
    const pageOf = async (formats: unknown[]) => {
      const res = await api.post('/v1/web/page', { url: `${site.origin}/box`, viewport: RETINA, formats, base64: true, maxAge: 0 }, key);
      expect(res.status, res.text).toBe(200);
      return res.body.data;
    };
    const page = await pageOf([{ type: 'screenshot', imageType: 'webp', selector: '#card' }, 'markdown', 'pdf']);
    const bytes = Buffer.from(page.screenshot.base64, 'base64');
    expect(imageSize(bytes)).toEqual({ width: 300, height: 140 });
    expect(page.screenshot).toMatchObject({ width: 300, height: 140, size: bytes.byteLength });
    // A capture from a DevTools session of ours leaves the page as it was: the same PDF as one printed alone (Chromium writes the time into each).
    const withoutDates = (base64: string) => Buffer.from(base64, 'base64').toString('latin1').replace(/\/(CreationDate|ModDate)\s*\(D:[^)]*\)/g, '');
    const alone = (await pageOf(['pdf'])).pdf;
    expect(page.pdf.pages).toBe(alone.pages);
    expect(withoutDates(page.pdf.base64) === withoutDates(alone.base64)).toBe(true);

    const batch = await api.post('/v1/jobs/batch', { urls: [`${site.origin}/box`], viewport: PHONE, formats: [{ type: 'screenshot' }] }, key);
    expect(batch.status, batch.text).toBe(201);
    const job = await waitForJob(api, key, batch.body.data.id);
    expect(job.status, JSON.stringify(job)).toBe('completed');
    const results = (await api.get(`/v1/jobs/${job.id}?limit=10`, key)).body.data.results;
    const stored = results[0].data.screenshot;
    const image = new Uint8Array(await (await fetch(stored.permanentUrl)).arrayBuffer());
    expect(imageSize(image)).toEqual({ width: 1200, height: 900 });
    expect(stored).toMatchObject({ width: 1200, height: 900, size: image.byteLength });
  }, 60_000);
});
