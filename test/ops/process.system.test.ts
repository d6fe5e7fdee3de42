import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { type ServerProcess, startServerProcess, TSX } from '../helpers/server-process.js';

const run = promisify(execFile);
const PUBLIC_URL = 'http://pluck.test';

describe('the service process', { timeout: 120_000 }, () => {
  let dataDir: string;
  let started: ServerProcess;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'pluck-proc-'));
  });
  afterAll(async () => {
    started?.child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('creates an account and key from the admin CLI that the server accepts', async () => {
    const { stdout, stderr } = await run(
      process.execPath,
      [...TSX, 'src/cli/admin.ts', 'create-key', '--email', 'Operator@Example.com', '--plan', 'pro', '--name', 'ops'],
      { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' } },
    );
    const key = stdout.trim();
    expect(key).toMatch(/^pk_\S+$/);
    expect(stderr).toContain('shown only once');
    expect(stderr).not.toContain(key);

    started = await startServerProcess({ DATA_DIR: dataDir, ADMIN_EMAILS: 'operator@example.com', PUBLIC_BASE_URL: PUBLIC_URL });
    const api = apiClient(started.baseUrl);
    const credits = await api.get('/v1/user/credits', key);
    expect(credits.status, credits.text).toBe(200);
    expect(credits.body.data).toMatchObject({ plan: 'pro', balance: 100_000 });
    const me = await api.get('/v1/user/me', key);
    expect(me.body.data.user).toMatchObject({ email: 'operator@example.com', emailVerified: true, isAdmin: true });

    const again = await run(process.execPath, [...TSX, 'src/cli/admin.ts', 'create-key', '--email', 'operator@example.com'], {
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    });
    expect(again.stdout.trim()).not.toBe(key);
    expect((await api.get('/v1/api-keys', key)).body.data.apiKeys).toHaveLength(2);
  });

  it('rejects bad CLI usage with a message and a non-zero exit', async () => {
    const failure = await run(process.execPath, [...TSX, 'src/cli/admin.ts', 'create-key'], {
      env: { ...process.env, DATA_DIR: dataDir },
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 2 });
    expect((failure as { stderr: string }).stderr).toContain('--email is required');
  });

  it('finishes in-flight requests on SIGTERM, then exits cleanly', async () => {
    const api = apiClient(started.baseUrl, PUBLIC_URL);
    const { token } = await api.signUp();
    const url = new URL(`${started.baseUrl}/v1/api-keys`);
    const body = JSON.stringify({ name: 'during shutdown' });
    // Send the headers and half the body, then signal, then the rest: the request is in flight.
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(
        url,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            origin: PUBLIC_URL,
          },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 5));
      setTimeout(() => {
        started.child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(5)), 300);
      }, 200);
    });
    const result = await answer;
    expect(result.status, result.text).toBe(201);
    expect(await started.exited).toBe(0);
    expect(started.output.join('')).toContain('"msg":"stopped"');
    await expect(fetch(`${started.baseUrl}/health`)).rejects.toThrow();
  });

  it('refuses to start with invalid configuration, listing every problem', async () => {
    const failure = await run(process.execPath, [...TSX, 'src/server.ts'], {
      env: { ...process.env, PORT: 'eighty', FREE_CONCURRENCY: '-1', DATA_DIR: dataDir },
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toMatch(/PORT[\s\S]*FREE_CONCURRENCY/);
  });
});
