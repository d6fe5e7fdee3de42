import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { REFERENCE_SCRIPT_PATH } from '../../src/http/api-docs.js';

describe('operator endpoints', () => {
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    api = apiClient(server.baseUrl);
  });
  afterAll(() => server?.close());

  it('answers /health and /ready without credentials', async () => {
    expect((await api.get('/health')).body).toEqual({ status: 'ok' });
    const ready = await api.get('/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ok', checks: { database: 'ok' } });
  });

  it('describes every route in /openapi.json (OpenAPI 3.1) and serves /docs', async () => {
    const res = await api.get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const documented = new Set<string>();
    for (const [path, operations] of Object.entries(res.body.paths as Record<string, object>)) {
      for (const method of Object.keys(operations)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    const served = server.app.routes
      .filter((route) => route.method !== 'ALL' && !route.path.includes('*'))
      .filter((route) => !['/openapi.json', '/docs', REFERENCE_SCRIPT_PATH].includes(route.path))
      .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`);
    expect(served.length).toBeGreaterThan(10);
    for (const route of served) expect(documented, route).toContain(route);
    expect(res.body.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    const keyRoute = res.body.paths['/v1/api-keys/{id}'].get;
    expect(Object.keys(keyRoute.responses)).toEqual(expect.arrayContaining(['200', '401', '404', '422', '429']));

    const docs = await api.get('/docs');
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toContain('text/html');
    expect(docs.text).toContain('/openapi.json');
  });

  it('logs one structured line per request and never a credential', async () => {
    const password = 'correct horse battery';
    const { token, email } = await api.signUp();
    const { key } = await api.createKey(token);
    const requestId = crypto.randomUUID();
    await api.request('GET', '/v1/user/credits', { token: key, headers: { 'x-request-id': requestId } });
    await api.post('/v1/auth/sign-in/email', { email, password });

    const lines = server.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    const access = lines.filter((line) => line.msg === 'request' && line.requestId === requestId);
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({ method: 'GET', route: '/v1/user/credits', status: 200 });
    expect(typeof access[0]!.ms).toBe('number');
    const all = server.logs.join('\n');
    expect(all).not.toContain(key);
    expect(all).not.toContain(key.slice(3, 20));
    expect(all).not.toContain(token);
    expect(all).not.toContain(password);
  });
});

describe('readiness without a database', () => {
  it('answers 503 when the database is unreachable', async () => {
    const server = await startTestServer('sqlite');
    try {
      await server.ctx.database.db.destroy();
      const res = await apiClient(server.baseUrl).get('/ready');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ status: 'unavailable', checks: { database: 'unavailable' } });
    } finally {
      await server.close().catch(() => {});
    }
  });
});
