import { statSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostResolver } from '../../src/net/address-policy.js';
import { apiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { startFixtureSite } from './fixtures.js';
import type { RecordingServer } from '../helpers/recording-server.js';

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
