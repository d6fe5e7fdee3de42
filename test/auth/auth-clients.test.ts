import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../helpers/accounts.js';
import { apiClient } from '../helpers/client.js';
import { testDialects } from '../helpers/databases.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A request as curl sends it: no Origin, no fetch metadata, nothing but what is asked for. */
function curlLike(url: string, body: unknown): Promise<{ status: number; body: any }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), 'user-agent': 'curl/8.5.0' } },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Asserts the spec's error envelope with a stable code, and the request id of the answer. */
function expectEnvelope(res: { status: number; body: any; headers: Headers; text: string }, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toMatchObject({ success: false, error: { code, message: expect.any(String) } });
  expect(res.body.error.requestId).toMatch(UUID);
  expect(res.body.error.requestId).toBe(res.headers.get('x-request-id'));
  expect(new Date(res.body.timestamp).toISOString()).toBe(res.body.timestamp);
}

for (const dialect of await testDialects()) {
  describe(`auth routes for every kind of client [${dialect}]`, () => {
    let server: TestServer;
    let script: ReturnType<typeof apiClient>;

    beforeAll(async () => {
      server = await startTestServer(dialect);
      // Node's fetch sends Sec-Fetch-Mode: cors and no Origin, as any script using it does.
      script = apiClient(server.baseUrl, null);
    });
    afterAll(() => server?.close());

    it("signs up and in with Node's fetch (Sec-Fetch-Mode, no Origin) and with curl-like requests", async () => {
      const email = `script-${crypto.randomUUID()}@example.com`;
      const signUp = await script.post('/v1/auth/sign-up/email', { email, password: PASSWORD, name: 'Script' });
      expect(signUp.status, signUp.text).toBe(200);
      expect(signUp.body.token).toEqual(expect.any(String));
      // The header carries the same token, signed (token.signature); either form is accepted.
      expect(signUp.headers.get('set-auth-token')).toMatch(new RegExp(`^${signUp.body.token}\\.`));
      // Pluck never reads cookies, so it sets none either.
      expect(signUp.headers.get('set-cookie')).toBeNull();
      expect((await script.get('/v1/user/credits', signUp.body.token)).status).toBe(200);

      const signIn = await curlLike(`${server.baseUrl}/v1/auth/sign-in/email`, { email, password: PASSWORD });
      expect(signIn.status).toBe(200);
      expect((await script.get('/v1/user/me', signIn.body.token)).body.data.user.email).toBe(email);
      const curlSignUp = await curlLike(`${server.baseUrl}/v1/auth/sign-up/email`, { email: `curl-${crypto.randomUUID()}@example.com`, password: PASSWORD, name: 'Curl' });
      expect(curlSignUp.status).toBe(200);
    });

    it("refuses what only a browser sends from another site: a foreign Origin, or Sec-Fetch-Site without one", async () => {
      const email = `csrf-${crypto.randomUUID()}@example.com`;
      const body = { email, password: PASSWORD, name: 'Cross-site' };
      const foreign = await apiClient(server.baseUrl, 'https://evil.example.net').post('/v1/auth/sign-up/email', body);
      expectEnvelope(foreign, 403, 'ORIGIN_NOT_ALLOWED');
      const siteOnly = await script.request('POST', '/v1/auth/sign-up/email', {
        body,
        headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
      });
      expectEnvelope(siteOnly, 403, 'ORIGIN_NOT_ALLOWED');
      const nullOrigin = await apiClient(server.baseUrl, 'null').post('/v1/auth/sign-in/email', { email, password: PASSWORD });
      expectEnvelope(nullOrigin, 403, 'ORIGIN_NOT_ALLOWED');
      expect(await server.ctx.database.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
      // The dashboard's own origin is still welcome.
      expect((await apiClient(server.baseUrl).post('/v1/auth/sign-up/email', body)).status).toBe(200);
    });

    it('answers every auth error in the envelope with a stable code', async () => {
      const { email, token } = await script.signUp();
      expectEnvelope(await script.post('/v1/auth/sign-in/email', { email, password: 'not the password' }), 401, 'INVALID_CREDENTIALS');
      expectEnvelope(await script.post('/v1/auth/sign-in/email', { email: `nobody-${crypto.randomUUID()}@example.com`, password: PASSWORD }), 401, 'INVALID_CREDENTIALS');
      const taken = await script.post('/v1/auth/sign-up/email', { email, password: PASSWORD, name: 'Again' });
      expectEnvelope(taken, 409, 'EMAIL_ALREADY_REGISTERED');
      expect(taken.body.error.message).toMatch(/reset/);
      expectEnvelope(await script.post('/v1/auth/reset-password', { token: 'not-a-token', newPassword: 'a new password' }), 400, 'INVALID_TOKEN');
      expectEnvelope(await script.post('/v1/auth/change-password', { currentPassword: 'wrong guess', newPassword: 'a new password' }, token), 403, 'INVALID_PASSWORD');
      expectEnvelope(await script.post('/v1/auth/change-password', { currentPassword: PASSWORD, newPassword: 'a new password' }), 401, 'UNAUTHORIZED');
      expectEnvelope(await script.post('/v1/auth/update-user', { name: 'Nobody' }), 401, 'UNAUTHORIZED');
      const invalid = await script.post('/v1/auth/sign-up/email', { email: 'not-an-address', password: 'short', name: '' });
      expectEnvelope(invalid, 422, 'VALIDATION_ERROR');
      expect(invalid.body.error.issues.map((issue: { path: string[] }) => issue.path[0])).toEqual(['email', 'password', 'name']);
      expectEnvelope(await script.request('POST', '/v1/auth/sign-in/email', { rawBody: '{"email":' }), 400, 'INVALID_JSON');
      // better-auth's other routes are not served at all.
      for (const path of ['/v1/auth/list-sessions', '/v1/auth/verify-email?token=x', '/v1/auth/api-key/verify', '/v1/auth/delete-user', '/v1/auth/ok']) {
        const method = path.includes('verify-email') || path.endsWith('ok') || path.includes('list') ? 'GET' : 'POST';
        expectEnvelope(await script.request(method, path, { token, body: method === 'POST' ? {} : undefined }), 404, 'NOT_FOUND');
      }
    });

    it('refuses sign-in until verification when REQUIRE_EMAIL_VERIFICATION is on, in the envelope', async () => {
      const strict = await startTestServer(dialect, { REQUIRE_EMAIL_VERIFICATION: 'true' });
      try {
        const api = apiClient(strict.baseUrl, null);
        const email = `strict-${crypto.randomUUID()}@example.com`;
        const signUp = await api.post('/v1/auth/sign-up/email', { email, password: PASSWORD, name: 'Strict' });
        expect(signUp.body).toMatchObject({ token: null, mailDelivery: 'smtp' });
        expectEnvelope(await api.post('/v1/auth/sign-in/email', { email, password: PASSWORD }), 403, 'EMAIL_NOT_VERIFIED');
      } finally {
        await strict.close();
      }
    });
  });
}

describe('the auth routes in the OpenAPI document', () => {
  it('describes each route with its body limits and the error codes it answers', async () => {
    const server = await startTestServer('sqlite');
    try {
      const doc = await (await fetch(`${server.baseUrl}/openapi.json`)).json();
      const paths = Object.keys(doc.paths).filter((path) => path.startsWith('/v1/auth/'));
      expect(paths.sort()).toEqual(
        [
          '/v1/auth/change-password',
          '/v1/auth/get-session',
          '/v1/auth/request-password-reset',
          '/v1/auth/reset-password',
          '/v1/auth/send-verification-email',
          '/v1/auth/sign-in/email',
          '/v1/auth/sign-out',
          '/v1/auth/sign-up/email',
          '/v1/auth/update-user',
        ].sort(),
      );
      const signIn = doc.paths['/v1/auth/sign-in/email'].post;
      expect(signIn.responses['401'].description).toContain('INVALID_CREDENTIALS');
      expect(signIn.responses['403'].description).toContain('EMAIL_NOT_VERIFIED');
      expect(signIn.responses['429'].description).toContain('RATE_LIMIT_EXCEEDED');
      expect(signIn.responses['401'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
      const signUpBody = doc.paths['/v1/auth/sign-up/email'].post.requestBody.content['application/json'].schema;
      expect(signUpBody.properties.name.maxLength).toBe(100);
      expect(signUpBody.properties.email.maxLength).toBe(254);
      expect(signUpBody.additionalProperties).toBe(false);
      expect(doc.paths['/v1/auth/sign-up/email'].post.responses['409'].description).toContain('EMAIL_ALREADY_REGISTERED');
    } finally {
      await server.close();
    }
  });
});
