import { statSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostResolver } from '../../src/net/address-policy.js';
import { apiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { pngSize, startFixtureSite } from './fixtures.js';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import type { ServerResponse } from 'node:http';

/**
 * What one ordinary account could do to the service or learn from it (issue 24), through real
 * HTTP and real Chromium. Each test is an attack that worked before its fix.
 */
describe('hostile callers: input and information', () => {
  let site: RecordingServer;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let key: string;

  const resolver: HostResolver = async (hostname) => {
    if (hostname === 'intranet.test') return ['10.1.2.3'];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  };

  beforeAll(async () => {
    site = await startFixtureSite();
    server = await startTestServer('sqlite', { ALLOW_PRIVATE_HOSTS: site.hostPort }, { hostResolver: resolver });
    api = apiClient(server.baseUrl);
    ({ key } = await api.signUpWithKey());
  });
  afterAll(async () => {
    await server?.close();
    await site?.close();
  });

  it('answers 422 naming the field for control characters in any text bound for a header or cookie, never 500', async () => {
    const url = `${site.origin}/echo`;
    const cases: Array<[Record<string, unknown>, (string | number)[]]> = [];
    for (const bad of ['a\r\nX-Injected: 1', 'a\u0000b', 'a\u007fb']) {
      cases.push(
        [{ userAgent: bad }, ['userAgent']],
        [{ cookies: [{ name: bad, value: 'v' }] }, ['cookies', 0, 'name']],
        [{ cookies: [{ name: 'n', value: bad }] }, ['cookies', 0, 'value']],
        [{ cookies: [{ name: 'n', value: 'v', domain: bad }] }, ['cookies', 0, 'domain']],
        [{ cookies: [{ name: 'n', value: 'v', path: `/${bad}` }] }, ['cookies', 0, 'path']],
        [{ headers: { 'x-custom': bad } }, ['headers']],
      );
    }
    for (const [fields, path] of cases) {
      const res = await api.post('/v1/web/content', { url, ...fields }, key);
      expect(res.status, `${JSON.stringify(fields)}: ${res.text}`).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.issues.map((issue: { path: unknown }) => issue.path), res.text).toContainEqual(path);
    }
    // Printable text outside ASCII still goes through.
    const fine = await api.post('/v1/web/content', { url, userAgent: 'Été/1.0', maxAge: 0 }, key);
    expect(fine.status, fine.text).toBe(200);
    expect(fine.body.data.content).toMatch(/"ua":"[^"]*t[^"]*\/1\.0"/);
  });

  it('answers a name that does not resolve exactly as one resolving to a private address, so internal names cannot be mapped', async () => {
    const internal = await api.post('/v1/web/content', { url: 'http://intranet.test/' }, key);
    const unknown = await api.post('/v1/web/content', { url: 'http://nowhere.test/' }, key);
    expect(internal.status, internal.text).toBe(400);
    expect(unknown.status, unknown.text).toBe(400);
    expect(unknown.body.error.code).toBe(internal.body.error.code);
    expect(unknown.body.error.message.replace('nowhere.test', 'NAME')).toBe(internal.body.error.message.replace('intranet.test', 'NAME'));
  });
});

describe('hostile neighbours: the data directory', () => {
  it('creates DATA_DIR 0700 and the database 0600, and tightens ones left open by an older version', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'pluck-modes-'));
    try {
      const fresh = join(parent, 'fresh', 'data');
      const server = await startTestServer('sqlite', { DATA_DIR: fresh });
      await server.close();
      expect(modeOf(fresh)).toBe(0o700);
      expect(modeOf(join(fresh, 'pluck.sqlite'))).toBe(0o600);

      const old = join(parent, 'old');
      await mkdir(old, { mode: 0o755 });
      await chmod(old, 0o755);
      await writeFile(join(old, 'pluck.sqlite'), '', { mode: 0o644 });
      await chmod(join(old, 'pluck.sqlite'), 0o644);
      const upgraded = await startTestServer('sqlite', { DATA_DIR: old });
      try {
        expect(modeOf(old)).toBe(0o700);
        for (const name of ['pluck.sqlite', 'pluck.sqlite-wal', 'pluck.sqlite-shm']) expect(modeOf(join(old, name)), name).toBe(0o600);
      } finally {
        await upgraded.close();
      }
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });
});

function modeOf(path: string): number {
  return statSync(path).mode & 0o777;
}

describe('hostile callers: screenshot bounds in device pixels', () => {
  let site: RecordingServer;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let key: string;
  const bounds = { width: 2000, height: 3000, pixels: 4_000_000 };

  beforeAll(async () => {
    const page = (body: string) => (_req: unknown, res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    site = await startRecordingServer({
      '/wide': page('<!doctype html><body style="margin:0"><div style="width:10000px;height:16000px;background:linear-gradient(red,blue)">wide</div>'),
      '/tall': page('<!doctype html><body style="margin:0"><div style="height:5000px;background:linear-gradient(red,blue)">tall</div>'),
      '/wide-element': page('<!doctype html><body style="margin:0"><div id="banner" style="width:30000px;height:200px;background:green">banner</div>'),
    });
    server = await startTestServer('sqlite', {
      ALLOW_PRIVATE_HOSTS: site.hostPort,
      SCREENSHOT_MAX_WIDTH: String(bounds.width),
      SCREENSHOT_MAX_HEIGHT: String(bounds.height),
      SCREENSHOT_MAX_PIXELS: String(bounds.pixels),
    });
    api = apiClient(server.baseUrl);
    ({ key } = await api.signUpWithKey());
  });
  afterAll(async () => {
    await server?.close();
    await site?.close();
  });

  const shoot = async (body: Record<string, unknown>) => {
    const res = await api.post('/v1/web/screenshot', { base64: true, maxAge: 0, ...body }, key);
    expect(res.status, res.text).toBe(200);
    const size = pngSize(Buffer.from(res.body.data.base64, 'base64'));
    return { size, metadata: res.body.data.metadata, warnings: res.headers.get('x-warnings') };
  };
  const withinBounds = ({ width, height }: { width: number; height: number }) =>
    width <= bounds.width && height <= bounds.height && width * height <= bounds.pixels;

  it('cuts a full page of any width or scale to the bounds, and says so', async () => {
    const wide = await shoot({ url: `${site.origin}/wide`, screenshotOptions: { fullPage: true } });
    expect(wide.size).toEqual({ width: 2000, height: 2000 });
    expect(wide.metadata).toMatchObject({ width: 2000, height: 2000, truncated: true });
    expect(wide.warnings).toBe('ANSWER_TRUNCATED');
    const scaled = await shoot({
      url: `${site.origin}/tall`,
      viewport: { width: 400, height: 300, deviceScaleFactor: 3 },
      screenshotOptions: { fullPage: true },
    });
    expect(scaled.size).toEqual({ width: 1200, height: 3000 });
    expect(scaled.metadata.truncated).toBe(true);
  });

  it('cuts one element of any size to the bounds', async () => {
    const element = await shoot({ url: `${site.origin}/wide-element`, screenshotOptions: { selector: '#banner' } });
    expect(withinBounds(element.size), JSON.stringify(element.size)).toBe(true);
    expect(element.size).toEqual({ width: 2000, height: 200 });
    expect(element.metadata.truncated).toBe(true);
  });

  it('refuses with 422 a clip or a viewport that the bounds cannot hold, before loading anything', async () => {
    const hits = site.hits.length;
    const clip = await api.post(
      '/v1/web/screenshot',
      { url: `${site.origin}/tall`, screenshotOptions: { clip: { x: 0, y: 0, width: 1000, height: 20_000 } } },
      key,
    );
    expect(clip.status, clip.text).toBe(422);
    expect(clip.body.error.issues[0].path).toEqual(['screenshotOptions', 'clip']);
    expect(clip.body.error.issues[0].message).toContain('1000x20000 device pixels');
    const viewport = await api.post('/v1/web/screenshot', { url: `${site.origin}/tall`, viewport: { width: 1000, height: 1000, deviceScaleFactor: 3 } }, key);
    expect(viewport.status, viewport.text).toBe(422);
    expect(viewport.body.error.issues[0].path).toEqual(['viewport']);
    expect(site.hits.length).toBe(hits);
  });
});

describe('hostile callers: every answer has a bound', () => {
  let site: RecordingServer;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let key: string;
  const maxChars = 200_000;
  const megabyte = 'All work and no play. '.repeat(48_000);

  beforeAll(async () => {
    const page = (body: string) => (_req: unknown, res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    const nested = `${'<div>'.repeat(100)}<p>${megabyte}</p>${'</div>'.repeat(100)}`;
    const links = Array.from({ length: 20_000 }, (_, i) => `<a href="/page/${i}/${'x'.repeat(40)}">link ${i}</a>`).join('\n');
    site = await startRecordingServer({
      '/nested': page(`<!doctype html><html lang="en"><head><title>Nested</title></head><body>${nested}</body></html>`),
      '/links': page(`<!doctype html><html lang="en"><head><title>Links</title></head><body>${links}</body></html>`),
      '/long': page('<!doctype html><body style="margin:0"><div style="height:60000px;background:linear-gradient(red,blue)">long</div>'),
    });
    server = await startTestServer('sqlite', { ALLOW_PRIVATE_HOSTS: site.hostPort, ANSWER_MAX_CHARS: String(maxChars), PDF_MAX_PAGES: '3' });
    api = apiClient(server.baseUrl);
    ({ key } = await api.signUpWithKey());
  });
  afterAll(async () => {
    await server?.close();
    await site?.close();
  });

  const codes = (metadata: { warnings?: Array<{ code: string }> }) => (metadata.warnings ?? []).map((warning) => warning.code);

  it("answers `*` three times over a deep page of a megabyte within the bound, and says it was cut (it used to end the process)", async () => {
    const res = await api.post('/v1/web/scrape', { url: `${site.origin}/nested`, elements: [{ selector: '*' }, { selector: '*' }, { selector: '*' }] }, key);
    expect(res.status, res.text.slice(0, 500)).toBe(200);
    expect(res.text.length).toBeLessThan(maxChars * 1.2);
    expect(codes(res.body.data.metadata)).toContain('ANSWER_TRUNCATED');
    expect(res.body.data.metadata.elementsFound).toBeGreaterThan(300);
    const results = res.body.data.elements.flatMap((element: { data: { results: unknown[] } }) => element.data.results);
    expect(results.length).toBeGreaterThan(0);
  });

  it('cuts HTML, markdown and links at the bound, in the page, and says so', async () => {
    const content = await api.post('/v1/web/content', { url: `${site.origin}/nested` }, key);
    expect(content.status, content.text.slice(0, 300)).toBe(200);
    expect(content.body.data.content).toHaveLength(maxChars);
    expect(codes(content.body.data.metadata)).toEqual(['ANSWER_TRUNCATED']);
    const markdown = await api.post('/v1/web/markdown', { url: `${site.origin}/nested` }, key);
    expect(markdown.status, markdown.text.slice(0, 300)).toBe(200);
    expect(markdown.body.data.markdown.length).toBeLessThanOrEqual(maxChars);
    expect(codes(markdown.body.data.metadata)).toContain('ANSWER_TRUNCATED');
    const links = await api.post('/v1/web/links', { url: `${site.origin}/links` }, key);
    expect(links.status, links.text.slice(0, 300)).toBe(200);
    expect(links.body.data.links.length).toBeGreaterThan(1000);
    expect(links.body.data.links.length).toBeLessThan(20_000);
    expect(links.body.data.links.join('').length).toBeLessThanOrEqual(maxChars);
    expect(codes(links.body.data.metadata)).toEqual(['ANSWER_TRUNCATED']);
  });

  it('prints at most PDF_MAX_PAGES pages of an endless page, and says so', async () => {
    const res = await api.request('POST', '/v1/web/pdf', { token: key, body: { url: `${site.origin}/long`, base64: true } });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.body.data.metadata.pages).toBe(3);
    expect(codes(res.body.data.metadata)).toEqual(['ANSWER_TRUNCATED']);
    const pdf = Buffer.from(res.body.data.base64, 'base64').toString('latin1');
    expect(pdf.match(/\/Type\s*\/Page(?![a-zA-Z])/g)).toHaveLength(3);
  });
});

// The browser's pages are what these tests share out: the scripted browser is asked for by name.
// Under engine auto such a target is waited for by the server's own fetch, holding no page at all.
describe('hostile callers: a fair share of the browser', () => {
  let site: RecordingServer;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    site = await startRecordingServer({
      // Accepts the request and never answers: the slow-page attack's target.
      '/never': () => undefined,
      '/quick': (_req: unknown, res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Quick</title><p>Here at once.</p>'),
    });
    server = await startTestServer('sqlite', { ALLOW_PRIVATE_HOSTS: site.hostPort, BROWSER_MAX_PAGES: '4', FREE_CONCURRENCY: '5' });
    api = apiClient(server.baseUrl);
  });
  afterAll(async () => {
    await server?.close();
    await site?.close();
  });

  const balance = async (key: string) => (await api.get('/v1/user/credits', key)).body.data.balance as number;
  const activePages = () => server.ctx.browser.stats().activePages;
  const until = async (condition: () => boolean, ms: number) => {
    const deadline = Date.now() + ms;
    while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    return condition();
  };

  it("keeps pages for others while one account holds its whole concurrency on pages that never answer, and charges the timeouts", async () => {
    const attacker = await api.signUpWithKey();
    const victim = await api.signUpWithKey();
    const before = await balance(attacker.key);
    const attack = Array.from({ length: 5 }, () => api.post('/v1/web/content', { url: `${site.origin}/never`, engine: 'browser', timeout: 6_000, maxAge: 0 }, attacker.key));
    expect(await until(() => activePages() === 3, 10_000), `active pages: ${activePages()}`).toBe(true);
    const started = Date.now();
    const ordinary = await api.post('/v1/web/content', { url: `${site.origin}/quick`, maxAge: 0 }, victim.key);
    expect(ordinary.status, ordinary.text).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
    const answers = await Promise.all(attack);
    expect(answers.map((answer) => answer.status), answers.map((answer) => answer.text).join("\n")).toEqual([504, 504, 504, 504, 504]);
    expect(answers[0]!.headers.get('x-credits-cost')).toBe('1');
    // A page held until its timeout is paid for: the attack is not free.
    expect(await balance(attacker.key)).toBe(before - 5);
  }, 60_000);

  it('stops the work of a request whose client has gone, freeing its page and its slot at once, and refunds it', async () => {
    const { key } = await api.signUpWithKey();
    const before = await balance(key);
    const controller = new AbortController();
    const gone = fetch(`${server.baseUrl}/v1/web/content`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', origin: server.baseUrl },
      body: JSON.stringify({ url: `${site.origin}/never`, engine: 'browser', timeout: 30_000, maxAge: 0 }),
      signal: controller.signal,
    }).catch(() => 'aborted');
    expect(await until(() => activePages() === 1, 10_000)).toBe(true);
    controller.abort();
    expect(await gone).toBe('aborted');
    const closedAt = Date.now();
    expect(await until(() => activePages() === 0, 5_000), `active pages: ${activePages()}`).toBe(true);
    expect(Date.now() - closedAt).toBeLessThan(3_000);
    expect(await until(() => server.logs.some((line) => line.includes('CLIENT_CLOSED_REQUEST') || line.includes('"status":499')), 3_000)).toBe(true);
    expect(await balance(key)).toBe(before);
  }, 60_000);

  it('under engine auto, holds no page for a target that never answers, and stops its fetch when the client goes', async () => {
    const { key } = await api.signUpWithKey();
    const before = await balance(key);
    const logged = server.logs.length;
    const hits = site.hitsTo('/never').length;
    const controller = new AbortController();
    const gone = fetch(`${server.baseUrl}/v1/web/markdown`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', origin: server.baseUrl },
      body: JSON.stringify({ url: `${site.origin}/never`, timeout: 30_000, maxAge: 0 }),
      signal: controller.signal,
    }).catch(() => 'aborted');
    expect(await until(() => site.hitsTo('/never').length > hits, 5_000)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(activePages()).toBe(0);
    controller.abort();
    expect(await gone).toBe('aborted');
    expect(await until(() => server.logs.slice(logged).some((line) => line.includes('CLIENT_CLOSED_REQUEST') || line.includes('"status":499')), 3_000)).toBe(true);
    expect(await balance(key)).toBe(before);
  }, 60_000);
});
