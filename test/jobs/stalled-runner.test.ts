import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { allResults, waitForJob } from './job-client.js';

describe('a runner whose process stalls past its lease', () => {
  let site: RecordingServer;
  let server: TestServer;
  const held: ServerResponse[] = [];
  const html = (text: string) => `<!doctype html><html><body><main><h1>${text}</h1><p>${text} text.</p></main></body></html>`;

  beforeAll(async () => {
    site = await startRecordingServer({
      '/slow': (_req, res, recording) => {
        if (recording.hitsTo('/slow').length === 1) held.push(res);
        else res.writeHead(200, { 'content-type': 'text/html' }).end(html('Slow again'));
      },
    });
    server = await startTestServer('sqlite', { ALLOW_PRIVATE_HOSTS: site.hostPort, JOB_LEASE_SECONDS: '1', JOB_POLL_INTERVAL_MS: '100', JOB_CONCURRENCY: '1', LOG_LEVEL: 'warn' });
  });
  afterAll(async () => {
    for (const res of held) res.destroy();
    await server?.close();
    await site?.close();
  });

  it('goes on with its job rather than claiming it a second time: no page is loaded or charged twice', async () => {
    const api = apiClient(server.baseUrl, null);
    const { key, userId } = await api.signUpWithKey();
    const urls = ['/slow', '/quick/1', '/quick/2'].map((path) => `${site.origin}${path}`);
    const create = await api.post('/v1/jobs/batch', { urls, formats: ['markdown'], waitUntil: 'domcontentloaded' }, key);
    expect(create.status, create.text).toBe(201);
    const id = create.body.data.id as string;
    for (let polls = 0; site.hitsTo('/slow').length === 0; polls += 1) {
      if (polls > 1200) throw new Error('the job did not load its first page');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The whole process stalls (its event loop blocked) well past the job's lease, then runs its timers.
    const until = Date.now() + 3000;
    while (Date.now() < until);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    held.shift()!.writeHead(200, { 'content-type': 'text/html' }).end(html('Slow'));

    const job = await waitForJob(api, key, id, 60_000);
    const results = await allResults(api, key, id);
    const outcome = JSON.stringify({ job, results: results.map(({ url, status, creditsCost }) => ({ url, status, creditsCost })), slowHits: site.hitsTo('/slow').length });
    expect(results.map((result) => result.url).sort(), outcome).toEqual([...urls].sort());
    expect(site.hitsTo('/slow').length, outcome).toBe(1);
    const ledger = (await server.ctx.credits.ledger(userId)).filter((row) => row.request_id === id);
    expect(-ledger.reduce((sum, row) => sum + Number(row.delta), 0), outcome).toBe(job.creditsUsed);
    expect(job.creditsUsed, outcome).toBe(3);
  }, 120_000);
});
