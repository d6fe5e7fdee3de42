import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('HTTP layer', () => {
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer('sqlite', { MAX_BODY_BYTES: '2048' });
    api = apiClient(server.baseUrl);
    token = (await api.signUp()).token;
  });
  afterAll(() => server?.close());

  it('wraps data in the success envelope with a request id that matches the header', async () => {
    const res = await api.get('/v1/user/credits', token);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ success: true, creditsCost: 0, data: { plan: 'free' } });
    expect(res.body.requestId).toMatch(UUID);
    expect(res.headers.get('x-request-id')).toBe(res.body.requestId);
    expect(new Date(res.body.timestamp).toISOString()).toBe(res.body.timestamp);
  });

  it('puts X-Request-Id on every response, errors and non-API routes included', async () => {
    for (const path of ['/health', '/v1/user/me', '/v1/user/credits', '/v1/does-not-exist', '/openapi.json']) {
      const res = await api.get(path);
      expect(res.headers.get('x-request-id'), path).toMatch(UUID);
    }
  });

  it('keeps a caller-supplied UUID request id and replaces anything else', async () => {
    const mine = crypto.randomUUID();
    const kept = await api.request('GET', '/health', { headers: { 'x-request-id': mine } });
    expect(kept.headers.get('x-request-id')).toBe(mine);
    const replaced = await api.request('GET', '/health', { headers: { 'x-request-id': 'evil-value-<script>' } });
    expect(replaced.headers.get('x-request-id')).toMatch(UUID);
    expect(replaced.headers.get('x-request-id')).not.toContain('evil');
  });

  it('answers unknown routes with a 404 error body', async () => {
    const res = await api.get('/v1/nothing/here', token);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    expect(res.body.error.requestId).toBe(res.headers.get('x-request-id'));
    expect(typeof res.body.timestamp).toBe('string');
  });

  it('answers malformed JSON with a 400 error body', async () => {
    const res = await api.request('POST', '/v1/api-keys', { token, rawBody: '{"name": "x",' });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: 'INVALID_JSON' } });
  });

  it('answers bodies over the limit with 413, with or without Content-Length', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(4096) });
    const res = await api.request('POST', '/v1/api-keys', { token, rawBody: big });
    expect(res.status, res.text).toBe(413);
    expect(res.body).toMatchObject({ success: false, error: { code: 'PAYLOAD_TOO_LARGE' } });

    const chunked = await fetch(`${server.baseUrl}/v1/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(big));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
  });

  it('answers a non-JSON content type with 415', async () => {
    const res = await api.request('POST', '/v1/api-keys', {
      token,
      rawBody: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status, res.text).toBe(415);
    expect(res.body).toMatchObject({ success: false, error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
  });

  it('treats a missing body as an empty one: 422 naming the missing field', async () => {
    const res = await api.request('POST', '/v1/api-keys', { token });
    expect(res.status, res.text).toBe(422);
    expect(res.body.error.issues).toEqual([
      { code: 'invalid_type', path: ['name'], message: 'Required', expected: 'string', received: 'undefined' },
    ]);
  });
});

describe('internal failures', () => {
  it('answer 500 INTERNAL_ERROR with the request id and nothing internal', async () => {
    const server = await startTestServer('sqlite');
    try {
      const api = apiClient(server.baseUrl);
      const { token } = await api.signUp();
      // Pull the database out from under the running service: a genuine, unplanned failure.
      await server.ctx.database.db.destroy();
      const res = await api.get('/v1/user/credits', token);
      expect(res.status, res.text).toBe(500);
      expect(res.body).toMatchObject({ success: false, error: { code: 'INTERNAL_ERROR', message: 'An internal error occurred' } });
      expect(res.body.error.requestId).toBe(res.headers.get('x-request-id'));
      expect(res.text).not.toMatch(/sqlite|kysely|stack|at \w+ \(|driver|destroy/i);
      expect(server.logs.some((line) => line.includes('"level":50') && line.includes(res.body.error.requestId))).toBe(true);
    } finally {
      await server.close().catch(() => {});
    }
  });
});
