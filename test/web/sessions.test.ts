import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { htmlPage, type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe('the session field of page operations', () => {
  let site: RecordingServer;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    site = await startRecordingServer({
      '/login': htmlPage(`<script>localStorage.setItem('user', 'ada'); document.cookie = 'sid=ada; max-age=3600';</script><p>signed in</p>`),
      '/account': htmlPage(`<p id="who">nobody</p><script>document.getElementById('who').textContent = 'user ' + (localStorage.getItem('user') ?? 'nobody');</script>`),
    });
    server = await startTestServer('sqlite', { ALLOW_PRIVATE_HOSTS: site.hostPort });
    api = apiClient(server.baseUrl);
  });
  afterAll(async () => {
    await server?.close();
    await site?.close();
  });

  it('carries cookies and storage between requests naming the same session, never from the cache, and nothing without it', async () => {
    const { key } = await api.signUpWithKey();
    const other = await api.signUpWithKey();
    expect((await api.post('/v1/web/content', { url: `${site.origin}/login`, session: 'flow' }, key)).status).toBe(200);

    const inSession = await api.post('/v1/web/content', { url: `${site.origin}/account`, session: 'flow' }, key);
    expect(inSession.status, inSession.text).toBe(200);
    expect(inSession.body.data.content).toContain('user ada');
    expect(site.hitsTo('/account').at(-1)?.headers.cookie).toBe('sid=ada');
    const again = await api.post('/v1/web/content', { url: `${site.origin}/account`, session: 'flow' }, key);
    expect(again.headers.get('x-cache')).toBe('MISS');

    const without = await api.post('/v1/web/content', { url: `${site.origin}/account`, maxAge: 0 }, key);
    expect(without.body.data.content).toContain('user nobody');
    const otherAccount = await api.post('/v1/web/content', { url: `${site.origin}/account`, session: 'flow' }, other.key);
    expect(otherAccount.body.data.content).toContain('user nobody');
  });

  it('refuses a session name that is not 1-64 letters, digits, _ or - with 422', async () => {
    const { key } = await api.signUpWithKey();
    for (const session of ['', 'with space', 'x'.repeat(65), 'naïve']) {
      const res = await api.post('/v1/web/markdown', { url: `${site.origin}/account`, session }, key);
      expect(res.status, session).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(res.body.error)).toContain('session');
    }
  });
});
