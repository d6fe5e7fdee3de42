import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpAdmin } from '../helpers/accounts.js';
import { apiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const ADMIN = 'root@example.com';

describe('validation error body', () => {
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let admin: string;

  beforeAll(async () => {
    server = await startTestServer('sqlite', { ADMIN_EMAILS: ADMIN });
    api = apiClient(server.baseUrl);
    admin = (await signUpAdmin(server, api, ADMIN)).token;
  });
  afterAll(() => server?.close());

  it('reports every missing field once, with the spec messages', async () => {
    const res = await api.post('/v1/system/update-user-plan', {}, admin);
    expect(res.status, res.text).toBe(422);
    expect(res.body.success).toBe(false);
    expect(res.body.error.name).toBe('ZodError');
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.requestId).toBe(res.headers.get('x-request-id'));
    expect(res.body.error.issues).toEqual([
      { code: 'invalid_type', path: ['userId'], message: 'Required', expected: 'string', received: 'undefined' },
      { code: 'invalid_type', path: ['plan'], message: 'Plan is required', expected: "'free' | 'pro'", received: 'undefined' },
    ]);
  });

  it('names the type it received as the spec\'s validation library does: 42 and 4.2 are both number', async () => {
    // The spec quotes Zod 3's bodies, whose parsed type of 42 is `number`; `integer` was ours.
    for (const userId of [42, 4.2]) {
      const res = await api.post('/v1/system/update-user-plan', { userId, plan: 'pro' }, admin);
      expect(res.status).toBe(422);
      expect(res.body.error.issues).toEqual([
        { code: 'invalid_type', path: ['userId'], message: 'Expected string, received number', expected: 'string', received: 'number' },
      ]);
      expect(res.body.error.message).toBe('Invalid request: userId: Expected string, received number');
    }
    const kinds = await api.post('/v1/system/update-user-plan', { userId: true, plan: { name: 'pro' } }, admin);
    expect(kinds.body.error.issues.map((i: { received?: string }) => i.received)).toEqual(['boolean', undefined]);
    const nulls = await api.post('/v1/system/update-user-plan', { userId: null, plan: ['pro'] }, admin);
    expect(nulls.body.error.issues.map((i: { path: string[]; received?: string }) => [i.path[0], i.received])).toEqual([
      ['userId', 'null'],
      ['plan', undefined],
    ]);
  });

  it('explains a value outside an enum', async () => {
    const res = await api.post('/v1/system/update-user-plan', { userId: 'u1', plan: 'gold' }, admin);
    expect(res.status).toBe(422);
    expect(res.body.error.issues).toEqual([
      expect.objectContaining({ code: 'invalid_value', path: ['plan'], message: 'Plan must be one of: free, pro' }),
    ]);
  });

  it('reports nested and numeric constraint failures with their path', async () => {
    const res = await api.post('/v1/api-keys', { name: '', expiresIn: 5 }, admin);
    expect(res.status).toBe(422);
    const paths = res.body.error.issues.map((i: { path: unknown[] }) => i.path);
    expect(paths).toEqual([['name'], ['expiresIn']]);
    expect(res.body.error.issues[1]).toMatchObject({ code: 'too_small' });
  });

  it('validates query parameters the same way', async () => {
    const res = await api.get('/v1/user/verify-email-token');
    expect(res.status).toBe(422);
    expect(res.body.error.issues).toEqual([
      { code: 'invalid_type', path: ['token'], message: 'Required', expected: 'string', received: 'undefined' },
    ]);
  });
});
