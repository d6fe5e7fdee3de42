import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { allResults, waitForJob } from '../jobs/job-client.js';
import { startActionSite } from './action-pages.js';
import { pngSize } from './fixtures.js';

/*
 * A caller's actions on the page, through the native routes, a job and MCP: real Chromium on
 * loopback pages that only show everything to a reader who clicks, types or scrolls.
 */
describe('actions on a page (native API, jobs, MCP)', () => {
  let site: RecordingServer;
  /** A loopback server the egress policy refuses: nothing the page or a script does may reach it. */
  let refused: RecordingServer;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let key: string;
  let costs: TestServer['ctx']['config']['web']['creditCosts'];

  beforeAll(async () => {
    [site, refused] = await Promise.all([startActionSite(), startRecordingServer()]);
    server = await startTestServer('sqlite', { ALLOW_PRIVATE_HOSTS: site.hostPort, JOB_POLL_INTERVAL_MS: '200' });
    api = apiClient(server.baseUrl);
    ({ key } = await api.signUpWithKey());
    costs = server.ctx.config.web.creditCosts;
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all([site?.close(), refused?.close()]);
  });

  const balance = async () => (await api.get('/v1/user/credits', key)).body.data.balance as number;

  it('clicks a button that reveals a section before the markdown is read, at the price of markdown', async () => {
    const url = `${site.origin}/reveal`;
    const without = await api.post('/v1/web/markdown', { url }, key);
    expect(without.status, without.text).toBe(200);
    expect(without.body.data.markdown).not.toContain('secret orrery');
    expect(without.body.data.actions).toBeUndefined();

    const res = await api.post('/v1/web/markdown', { url, actions: [{ type: 'click', selector: '#show-all' }] }, key);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.markdown).toContain('secret orrery');
    expect(res.body.data.actions).toEqual({ screenshots: [], scrapes: [], javascriptReturns: [], pdfs: [] });
    expect(res.body.creditsCost).toBe(costs.markdown);
  });

  it('types into a search box, presses Enter, and takes a screenshot, a scrape and a script value between actions', async () => {
    const before = await balance();
    const res = await api.post(
      '/v1/web/page',
      {
        url: `${site.origin}/search`,
        formats: ['markdown'],
        actions: [
          { type: 'scrape' },
          { type: 'click', selector: '#q' },
          { type: 'write', text: 'astrolabe' },
          { type: 'press', key: 'ENTER' },
          { type: 'wait', selector: '#results h2' },
          { type: 'screenshot', viewport: { width: 640, height: 480 } },
          { type: 'scrape' },
          { type: 'executeJavascript', script: "return document.querySelector('#results h2').textContent" },
          { type: 'executeJavascript', script: '({ items: [1, 2], title: document.title })' },
          { type: 'executeJavascript', script: 'await new Promise((resolve) => setTimeout(resolve, 50));\nreturn 7 * 6;' },
        ],
      },
      key,
    );
    expect(res.status, res.text).toBe(200);
    const { actions, markdown } = res.body.data;
    expect(markdown).toContain('Found the astrolabe in the archive');
    expect(actions.javascriptReturns).toEqual([
      { type: 'string', value: 'Results for astrolabe' },
      { type: 'object', value: { items: [1, 2], title: 'Search' } },
      { type: 'number', value: 42 },
    ]);
    expect(actions.scrapes).toHaveLength(2);
    expect(actions.scrapes[0].url).toBe(`${site.origin}/search`);
    expect(actions.scrapes[0].html).not.toContain('Results for astrolabe');
    expect(actions.scrapes[1].html).toContain('Results for astrolabe');
    expect(actions.screenshots).toHaveLength(1);
    const shot = actions.screenshots[0];
    expect(shot).toMatchObject({ contentType: 'image/png', width: 640, height: 480 });
    expect(shot.r2Key).toBeUndefined();
    const image = await fetch(shot.permanentUrl);
    expect(image.status).toBe(200);
    expect(pngSize(new Uint8Array(await image.arrayBuffer()))).toEqual({ width: 640, height: 480 });
    // The screenshot an action takes is priced like the screenshot output, on top of the page.
    expect(res.body.creditsCost).toBe(costs.markdown + costs.screenshot);
    expect(before - (await balance())).toBe(costs.markdown + costs.screenshot);
  });

  it('scrolls an infinite list until it has grown, then reads it', async () => {
    const scrollAndWait = [
      { type: 'scroll', direction: 'down' },
      { type: 'wait', milliseconds: 300 },
    ];
    const actions = [...scrollAndWait, ...scrollAndWait, ...scrollAndWait, ...scrollAndWait, ...scrollAndWait, ...scrollAndWait];
    const res = await api.post('/v1/web/content', { url: `${site.origin}/infinite`, actions }, key);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.content).toContain('Feed item 40');
    const plain = await api.post('/v1/web/content', { url: `${site.origin}/infinite` }, key);
    expect(plain.body.data.content).not.toContain('Feed item 11');
  });

  it('answers a failing action with 422 ACTION_FAILED naming it, and refunds the request', async () => {
    const before = await balance();
    const res = await api.post(
      '/v1/web/markdown',
      { url: `${site.origin}/reveal`, actions: [{ type: 'wait', milliseconds: 10 }, { type: 'click', selector: '#nope' }] },
      key,
    );
    expect(res.status, res.text).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'ACTION_FAILED', message: 'action 1 (click): no element matches "#nope"', action: { index: 1, type: 'click' } });
    expect(await balance()).toBe(before);

    const thrown = await api.post('/v1/web/markdown', { url: `${site.origin}/plain`, actions: [{ type: 'executeJavascript', script: "throw new TypeError('no such widget')" }] }, key);
    expect(thrown.status, thrown.text).toBe(422);
    expect(thrown.body.error.message).toBe('action 0 (executeJavascript): the script threw TypeError: no such widget');

    const syntax = await api.post('/v1/web/markdown', { url: `${site.origin}/plain`, actions: [{ type: 'executeJavascript', script: 'return (' }] }, key);
    expect(syntax.status, syntax.text).toBe(422);
    expect(syntax.body.error.message).toMatch(/^action 0 \(executeJavascript\): the script threw SyntaxError/);

    const huge = await api.post('/v1/web/markdown', { url: `${site.origin}/plain`, actions: [{ type: 'executeJavascript', script: "return 'x'.repeat(300000)" }] }, key);
    expect(huge.status, huge.text).toBe(422);
    expect(huge.body.error.message).toBe("action 0 (executeJavascript): the script returned 300002 characters of JSON, over this server's bound of 100000");

    // What crosses from the page is bounded even when the page's own world was tampered with.
    const tampered = await api.post(
      '/v1/web/markdown',
      { url: `${site.origin}/plain`, actions: [{ type: 'executeJavascript', script: "JSON.stringify = () => 'y'.repeat(500000); return 1" }] },
      key,
    );
    expect(tampered.status, tampered.text).toBe(422);
    expect(tampered.body.error.message).toContain('returned 500000 characters of JSON');
    const hugeThrow = await api.post('/v1/web/markdown', { url: `${site.origin}/plain`, actions: [{ type: 'executeJavascript', script: "throw 'z'.repeat(1000000)" }] }, key);
    expect(hugeThrow.status, hugeThrow.text).toBe(422);
    expect(hugeThrow.body.error.message).toBe('action 0 (executeJavascript): the script threw an error whose description is 1000009 characters long');

    const badSelector = await api.post('/v1/web/markdown', { url: `${site.origin}/plain`, actions: [{ type: 'click', selector: 'p[[' }] }, key);
    expect(badSelector.status, badSelector.text).toBe(422);
    expect(badSelector.body.error.message).toBe('action 0 (click): "p[[" is not a valid selector');
  });

  it('refuses a list over its bounds before loading anything', async () => {
    const loads = site.hits.length;
    const longWait = await api.post('/v1/web/markdown', { url: `${site.origin}/plain`, actions: [{ type: 'wait', milliseconds: 40_000 }, { type: 'wait', milliseconds: 30_000 }] }, key);
    expect(longWait.status, longWait.text).toBe(422);
    expect(longWait.body.error.code).toBe('VALIDATION_ERROR');
    expect(longWait.text).toContain("add up to 70000 ms, over this server's bound of 60000 ms");

    const tooMany = await api.post('/v1/web/markdown', { url: `${site.origin}/plain`, actions: Array.from({ length: 51 }, () => ({ type: 'scrape' })) }, key);
    expect(tooMany.status, tooMany.text).toBe(422);

    // 3840 CSS pixels at 3 device pixels each: 11520 wide, over the 16384x16384 and 33554432-pixel bounds in all.
    const bigShot = await api.post(
      '/v1/web/page',
      { url: `${site.origin}/plain`, viewport: { deviceScaleFactor: 3 }, actions: [{ type: 'screenshot', viewport: { width: 3840, height: 3840 } }] },
      key,
    );
    expect(bigShot.status, bigShot.text).toBe(422);
    expect(bigShot.body.error.issues[0].path).toEqual(['actions', 0, 'viewport']);

    const unknown = await api.post('/v1/web/markdown', { url: `${site.origin}/plain`, actions: [{ type: 'hover', selector: 'h1' }] }, key);
    expect(unknown.status, unknown.text).toBe(422);
    expect(site.hits.length).toBe(loads);
  });

  it('gives up a page whose script never ends at the list deadline, names the action, charges it, and frees the page', async () => {
    const started = performance.now();
    const res = await api.post(
      '/v1/web/markdown',
      { url: `${site.origin}/plain`, actions: [{ type: 'scrape' }, { type: 'executeJavascript', script: 'while (true) {}' }] },
      key,
    );
    const took = performance.now() - started;
    expect(res.status, res.text).toBe(504);
    expect(res.body.error).toMatchObject({ code: 'ACTION_TIMEOUT', action: { index: 1, type: 'executeJavascript' } });
    expect(res.body.error.message).toMatch(/^action 1 \(executeJavascript\) was still running when the list's time of 10000 ms ran out/);
    expect(took).toBeLessThan(20_000);
    // A page held to the deadline is paid for, as a page held to its navigation timeout is.
    expect(res.headers.get('x-credits-cost')).toBe(String(costs.markdown));
    // The page was closed and its slot given back: the next request gets a page and answers.
    const after = await api.post('/v1/web/markdown', { url: `${site.origin}/plain` }, key);
    expect(after.status, after.text).toBe(200);
    await expect.poll(() => server.ctx.browser.stats().activePages).toBe(0);

    const pending = await api.post('/v1/web/markdown', { url: `${site.origin}/plain`, actions: [{ type: 'executeJavascript', script: 'await new Promise(() => {})' }] }, key);
    expect(pending.status, pending.text).toBe(504);
    expect(pending.body.error.code).toBe('ACTION_TIMEOUT');
  }, 60_000);

  it("runs a script as the page's own: none of Playwright's or Pluck's names, and the egress policy on its requests", async () => {
    const script = `
      const names = Object.getOwnPropertyNames(window).filter((name) => /playwright|pluck|__pw|binding__/i.test(name));
      const reach = await fetch(${JSON.stringify(`${refused.origin}/private`)}).then((answer) => answer.status, () => 'refused');
      return { names, reach, origin: location.origin };`;
    const res = await api.post('/v1/web/page', { url: `${site.origin}/plain`, formats: ['metadata'], actions: [{ type: 'executeJavascript', script }] }, key);
    expect(res.status, res.text).toBe(200);
    const [{ value }] = res.body.data.actions.javascriptReturns;
    expect(value.names).toEqual([]);
    expect(value.origin).toBe(site.origin);
    expect(value.reach).not.toBe(200);
    expect(refused.hits).toEqual([]);

    // A click that leads the page to a refused address is refused like a redirect there.
    const away = await api.post('/v1/web/markdown', { url: `${site.origin}/plain`, actions: [{ type: 'executeJavascript', script: `location.href = ${JSON.stringify(`${refused.origin}/away`)}` }, { type: 'wait', milliseconds: 500 }] }, key);
    expect(away.status, away.text).toBe(400);
    expect(away.body.error.code).toBe('URL_NOT_ALLOWED');
    expect(refused.hits).toEqual([]);
  });

  it('runs the actions of a batch job on each of its pages', async () => {
    const create = await api.post(
      '/v1/jobs/batch',
      { urls: [`${site.origin}/reveal`], formats: ['markdown'], actions: [{ type: 'click', selector: '#show-all' }, { type: 'executeJavascript', script: 'document.title' }] },
      key,
    );
    expect(create.status, create.text).toBe(201);
    const job = await waitForJob(api, key, create.body.data.id);
    expect(job.status).toBe('completed');
    const [result] = await allResults(api, key, create.body.data.id);
    expect(result!.data.markdown).toContain('secret orrery');
    expect(result!.data.actions.javascriptReturns).toEqual([{ type: 'string', value: 'Reveal' }]);
  });

  it("takes the actions as MCP tool arguments and answers what they made", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
    const client = new Client({ name: 'pluck-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const result = (await client.callTool({
        name: 'scrape',
        arguments: { url: `${site.origin}/reveal`, actions: [{ type: 'click', selector: '#show-all' }, { type: 'executeJavascript', script: 'return 1 + 1' }] },
      })) as CallToolResult;
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
      const texts = result.content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
      expect(texts[0]).toContain('secret orrery');
      expect(JSON.parse(texts[1]!).actions.javascriptReturns).toEqual([{ type: 'number', value: 2 }]);

      const failed = (await client.callTool({ name: 'scrape', arguments: { url: `${site.origin}/reveal`, actions: [{ type: 'click', selector: '#nope' }] } })) as CallToolResult;
      expect(failed.isError).toBe(true);
      expect(JSON.stringify(failed.content)).toContain('ACTION_FAILED (422): action 0 (click): no element matches');
    } finally {
      await client.close();
    }
  });
});
