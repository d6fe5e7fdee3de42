import { afterEach, describe, expect, it } from 'vitest';
import { createPluck, PluckError } from '../../packages/sdk/src/index.js';
import { retryAfterMs } from '../../packages/sdk/src/errors.js';
import { sendJson, type StandIn, startStandIn } from '../helpers/loopback-stand-in.js';

/** Pluck's error body, as a limited or overloaded instance sends it. */
const refusal = (code: string, requestId: string) => ({ success: false, error: { code, message: `${code} for the test`, requestId }, timestamp: new Date().toISOString() });
const markdownAnswer = { success: true, data: { markdown: '# Hello', metadata: {} }, requestId: '00000000-0000-4000-8000-000000000002', timestamp: new Date().toISOString(), creditsCost: 1 };

describe('SDK retries on 429 and 503 (a loopback stand-in for Pluck)', () => {
  let standIn: StandIn | undefined;
  afterEach(() => standIn?.close());

  it('waits what Retry-After says after a 429, then answers the retried request', async () => {
    standIn = await startStandIn((request, response) => {
      if (standIn!.requests.length === 1) return sendJson(response, 429, refusal('RATE_LIMIT_EXCEEDED', '00000000-0000-4000-8000-000000000001'), { 'retry-after': '1' });
      sendJson(response, 200, markdownAnswer);
    });
    const started = performance.now();
    const answer = await createPluck({ apiKey: 'pk_test', baseUrl: standIn.url }).markdown({ url: 'https://example.com/' });
    const elapsed = performance.now() - started;
    expect(answer.data.markdown).toBe('# Hello');
    expect(standIn.requests).toHaveLength(2);
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(5000);
    // The retry is the same request: path, body and key.
    for (const request of standIn.requests) {
      expect(request.url.pathname).toBe('/v1/web/markdown');
      expect(JSON.parse(request.body)).toEqual({ url: 'https://example.com/' });
      expect(request.headers.authorization).toBe('Bearer pk_test');
    }
  });

  it('gives up after `retries` more attempts on 503 and throws the last answer as PluckError', async () => {
    standIn = await startStandIn((_request, response) => sendJson(response, 503, refusal('SERVICE_OVERLOADED', '00000000-0000-4000-8000-000000000003'), { 'retry-after': '0' }));
    const error = await createPluck({ apiKey: 'pk_test', baseUrl: standIn.url, retries: 2 }).credits().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PluckError);
    expect(error).toMatchObject({ status: 503, code: 'SERVICE_OVERLOADED', requestId: '00000000-0000-4000-8000-000000000003', retryAfterSeconds: 0 });
    expect(standIn.requests).toHaveLength(3);
  });

  it('does not wait longer than maxRetryDelayMs, and does not retry other failures or a 503 without Retry-After', async () => {
    standIn = await startStandIn((request, response) => {
      if (request.url.pathname === '/v1/user/credits') return sendJson(response, 429, refusal('RATE_LIMIT_EXCEEDED', '00000000-0000-4000-8000-000000000004'), { 'retry-after': '120' });
      if (request.url.pathname === '/v1/web/search') return sendJson(response, 503, refusal('PROVIDER_NOT_CONFIGURED', '00000000-0000-4000-8000-000000000006'));
      sendJson(response, 500, refusal('INTERNAL_ERROR', '00000000-0000-4000-8000-000000000005'));
    });
    const pluck = createPluck({ apiKey: 'pk_test', baseUrl: standIn.url, maxRetryDelayMs: 10_000 });
    const started = performance.now();
    await expect(pluck.credits()).rejects.toMatchObject({ status: 429, retryAfterSeconds: 120 });
    expect(performance.now() - started).toBeLessThan(2000);
    await expect(pluck.markdown({ url: 'https://example.com/' })).rejects.toMatchObject({ status: 500, code: 'INTERNAL_ERROR' });
    // A 503 without Retry-After is a lasting state (no search provider set up), not a passing one.
    await expect(pluck.search({ query: 'x' })).rejects.toMatchObject({ status: 503, code: 'PROVIDER_NOT_CONFIGURED' });
    expect(standIn.requests).toHaveLength(3);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});
