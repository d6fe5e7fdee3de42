import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.js';

const PUBLIC_URL = 'http://pluck.test';

interface KeepAliveAnswer {
  status: number;
  text: string;
  answeredAt: number;
  /** When the server closed the connection the answer came on. */
  connectionClosed: Promise<number>;
}

/** A POST on a keep-alive connection, as a load balancer sends it, watching when the server closes it. */
function postOnKeepAlive(url: string, body: unknown, key: string): Promise<KeepAliveAnswer> {
  const payload = JSON.stringify(body);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'POST', agent, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        const socket = res.socket;
        const connectionClosed = new Promise<number>((closed) => socket.once('close', () => closed(performance.now())));
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, answeredAt: performance.now(), connectionClosed }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('draining on SIGTERM while pages render', { timeout: 120_000 }, () => {
  const SLOW_PAGE_MS = 2500;
  const SHUTDOWN_DELAY_MS = 1000;
  const SHUTDOWN_GRACE_MS = 4000;
  let dataDir: string;
  let site: RecordingServer;
  let started: ServerProcess;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'pluck-drain-'));
    site = await startRecordingServer({
      '/slow': (_req, res) => {
        setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<title>slow</title><p>rendered late</p>'), SLOW_PAGE_MS);
      },
      '/never': () => undefined, // answers nothing: the render outlives any grace period
    });
    started = await startServerProcess({
      DATA_DIR: dataDir,
      PUBLIC_BASE_URL: PUBLIC_URL,
      ALLOW_PRIVATE_HOSTS: site.hostPort,
      SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
      SHUTDOWN_GRACE_MS: String(SHUTDOWN_GRACE_MS),
    });
  });
  afterAll(async () => {
    started?.child.kill('SIGKILL');
    await site?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('turns /ready to 503, refuses new connections, finishes the render in flight, and exits in bounded time', async () => {
    const api = apiClient(started.baseUrl, PUBLIC_URL);
    const { key } = await api.signUpWithKey();
    let slowAnswered = false;
    const slow = postOnKeepAlive(`${started.baseUrl}/v1/web/content`, { url: `${site.origin}/slow`, maxAge: 0 }, key).finally(
      () => (slowAnswered = true),
    );
    const endless = api.post('/v1/web/content', { url: `${site.origin}/never`, maxAge: 0, timeout: 60_000 }, key);
    endless.catch(() => undefined);
    while (site.hitsTo('/slow').length === 0 || site.hitsTo('/never').length === 0) await new Promise((resolve) => setTimeout(resolve, 20));

    const signalled = performance.now();
    started.child.kill('SIGTERM');
    // Load balancers polling /ready get SHUTDOWN_DELAY_MS to take the instance out.
    const draining = await api.get('/ready');
    expect(draining.status, draining.text).toBe(503);
    expect(draining.body.checks).toMatchObject({ shutdown: 'draining', database: 'ok' });

    // Then the listener closes: new connections are refused while the render is still going.
    for (;;) {
      const refused = await fetch(`${started.baseUrl}/health`).then(() => false, () => true);
      if (refused) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const refusedAfterMs = performance.now() - signalled;
    expect(slowAnswered).toBe(false);
    expect(refusedAfterMs).toBeGreaterThanOrEqual(SHUTDOWN_DELAY_MS - 50);

    const answer = await slow;
    expect(answer.status, answer.text).toBe(200);
    expect(JSON.parse(answer.text).data.content).toContain('rendered late');
    // Its keep-alive connection is closed once the answer is out, not held until a timeout.
    const closedAfterAnswerMs = (await answer.connectionClosed) - answer.answeredAt;
    expect(closedAfterAnswerMs).toBeLessThan(1500);
    // The endless one is cut when the grace period ends; the process still exits cleanly.
    await expect(endless).rejects.toThrow();
    expect(await started.exited).toBe(0);
    const exitedAfterMs = performance.now() - signalled;
    expect(exitedAfterMs).toBeLessThan(SHUTDOWN_DELAY_MS + SHUTDOWN_GRACE_MS + 5000);
    expect(started.output.join('')).toContain('"msg":"stopped"');
    process.stderr.write(
      `measured: SIGTERM -> new connections refused after ${Math.round(refusedAfterMs)} ms (delay ${SHUTDOWN_DELAY_MS} ms), ` +
        `keep-alive connection closed ${Math.round(closedAfterAnswerMs)} ms after its answer, process exited after ${Math.round(exitedAfterMs)} ms (delay + grace ${SHUTDOWN_DELAY_MS + SHUTDOWN_GRACE_MS} ms)\n`,
    );
  });
});
