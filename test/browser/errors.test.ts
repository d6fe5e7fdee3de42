import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toAppError, withAppErrors } from '../../src/browser/errors.js';
import { BrowserCrashed, InvalidPageOption, NavigationTimeout, PoolOverloaded, TargetUnreachable } from '../../src/browser/types.js';
import type { AppEnv } from '../../src/http/context.js';
import { handleError } from '../../src/http/error-handler.js';
import { AddressNotAllowed, HostUnresolvable } from '../../src/net/errors.js';
import { apiClient } from '../helpers/client.js';
import type { RecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { startFixtureSite } from '../web/fixtures.js';

/** Renders what a route would answer if the engine threw `error`, through the real error handler. */
async function answerFor(error: Error) {
  const app = new Hono<AppEnv>();
  app.onError(handleError);
  app.get('/operation', () => withAppErrors(() => Promise.reject(error)));
  const response = await app.request('/operation');
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as any };
}

describe('engine errors as API errors', () => {
  it.each([
    [new AddressNotAllowed('127.0.0.1 is a loopback address, which cannot be loaded', 'http://127.0.0.1/'), 400, 'URL_NOT_ALLOWED'],
    [new HostUnresolvable('nowhere.test', 'http://nowhere.test/', 'could not be resolved (ENOTFOUND)'), 400, 'URL_NOT_ALLOWED'],
    [new TargetUnreachable('http://example.com/ could not be loaded (net::ERR_CONNECTION_REFUSED)'), 502, 'TARGET_UNREACHABLE'],
    [new NavigationTimeout('http://example.com/ did not finish loading within 500 ms'), 504, 'TARGET_TIMEOUT'],
    [new BrowserCrashed('Chromium stopped while handling the request; retrying is safe'), 503, 'SERVICE_UNAVAILABLE'],
  ])('%s answers %i %s with a clear message', async (error, status, code) => {
    const answer = await answerFor(error);
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({ success: false, error: { code } });
    expect(answer.body.error.message).toContain(error.message);
  });

  it('answers overload with 503 SERVICE_OVERLOADED and Retry-After', async () => {
    const answer = await answerFor(new PoolOverloaded('Every browser page is busy', 7));
    expect(answer).toMatchObject({ status: 503, retryAfter: '7', body: { success: false, error: { code: 'SERVICE_OVERLOADED' } } });
  });

  it('answers a rejected page option with the validation body naming the field', async () => {
    const answer = await answerFor(new InvalidPageOption('waitForSelector "div[" is not a valid selector', 'waitForSelector'));
    expect(answer.status).toBe(422);
    expect(answer.body.error).toMatchObject({ code: 'VALIDATION_ERROR', issues: [{ code: 'custom', path: ['waitForSelector'] }] });
  });

  it('leaves other errors alone (they are bugs: 500)', async () => {
    const bug = new TypeError('undefined is not a function');
    expect(toAppError(bug)).toBe(bug);
    expect((await answerFor(bug)).status).toBe(500);
  });
});

describe('/ready and the browser', () => {
  let server: TestServer;
  let broken: TestServer;
  let site: RecordingServer;
  beforeAll(async () => {
    site = await startFixtureSite();
    server = await startTestServer('sqlite');
    broken = await startTestServer('sqlite', { CHROMIUM_PATH: '/nonexistent/chromium', ALLOW_PRIVATE_HOSTS: site.hostPort });
  });
  afterAll(async () => {
    await server?.close();
    await broken?.close();
    await site?.close();
  });

  it('reports the browser ready without launching Chromium', async () => {
    const res = await apiClient(server.baseUrl).get('/ready');
    expect(res.status, res.text).toBe(200);
    expect(res.body.checks).toMatchObject({ database: 'ok', browser: 'ok' });
    expect(server.ctx.browser.stats().browserPid).toBeUndefined();
  });

  it('reports 503 when Chromium cannot be started', async () => {
    const res = await apiClient(broken.baseUrl).get('/ready');
    expect(res.status, res.text).toBe(503);
    expect(res.body.checks).toMatchObject({ database: 'ok', browser: 'unavailable' });
    // The operator learns what to do: at start (Chromium itself starts only on first use) and from /ready.
    const warnings = broken.logs.map((line) => JSON.parse(line)).filter((entry) => entry.level === 40);
    expect(warnings.find((entry) => entry.msg.startsWith('Chromium not found at CHROMIUM_PATH'))).toMatchObject({
      chromiumPath: '/nonexistent/chromium',
      msg: expect.stringContaining("install Debian's chromium-headless-shell"),
    });
    expect(warnings.find((entry) => entry.msg === 'readiness: browser unavailable')?.detail).toBe(
      "Chromium not found at /nonexistent/chromium (CHROMIUM_PATH): install Debian's chromium-headless-shell (the default; scripts/ensure-deps.sh does), or set CHROMIUM_PATH to another Chromium, such as /usr/bin/chromium",
    );
  });

  it('says how to fix a missing Chromium when a page needs it', async () => {
    const api = apiClient(broken.baseUrl);
    const { key } = await api.signUpWithKey();
    const res = await api.post('/v1/web/content', { url: `${site.origin}/article` }, key);
    expect(res.status, res.text).toBe(503);
    const failure = broken.logs.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'Chromium could not be started');
    expect(failure?.err?.message).toContain('Chromium not found at /nonexistent/chromium (CHROMIUM_PATH): install');
  });
});
