import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { waitForJob } from './job-client.js';

/** The verification snippet of docs/jobs.md, as a receiver would write it. */
function verifyPluckSignature(secret: string, header: string, rawBody: string, toleranceSeconds = 300): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=') as [string, string]));
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

interface Delivery {
  signature: string;
  body: string;
  event: { event: string; jobId: string; data: any };
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

describe('job webhooks', () => {
  let site: RecordingServer;
  let receiver: RecordingServer;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  const deliveries: Delivery[] = [];
  let refuseNext = 0;

  beforeAll(async () => {
    site = await startRecordingServer();
    receiver = await startRecordingServer({
      '/hook': (req, res) =>
        void readBody(req).then((body) => {
          // The receiver fails now and then: the event comes again, and later ones wait for it.
          if (refuseNext > 0) {
            refuseNext -= 1;
            res.writeHead(503).end();
            return;
          }
          deliveries.push({ signature: String(req.headers['pluck-signature']), body, event: JSON.parse(body) });
          res.writeHead(204).end();
        }),
    });
    server = await startTestServer('sqlite', {
      ALLOW_PRIVATE_HOSTS: `${site.hostPort},${receiver.hostPort}`,
      FREE_MONTHLY_CREDITS: '3',
      JOB_CONCURRENCY: '1',
      JOB_RETRY_BASE_MS: '50',
      JOB_POLL_INTERVAL_MS: '200',
      LOG_LEVEL: 'warn',
    });
    api = apiClient(server.baseUrl);
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all([site?.close(), receiver?.close()]);
  });

  const eventsOf = async (jobId: string, last: string) => {
    for (let polls = 0; polls < 200; polls += 1) {
      const events = deliveries.filter((delivery) => delivery.event.jobId === jobId);
      if (events.some((delivery) => delivery.event.event === last)) return events;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no ${last} event for ${jobId}: ${JSON.stringify(deliveries.map((d) => d.event))}`);
  };

  it('signs started, page and completed events with the caller secret and sends them in order, retrying a failing receiver', async () => {
    const { key } = await api.signUpWithKey();
    const secret = 'a-secret-the-caller-chose-0123456789';
    const urls = [`${site.origin}/one`, `${site.origin}/two`, `${site.origin}/three`];
    refuseNext = 2;
    const create = await api.post('/v1/jobs/batch', { urls, formats: ['links'], waitUntil: 'domcontentloaded', webhook: { url: `${receiver.origin}/hook`, secret } }, key);
    expect(create.status, create.text).toBe(201);
    expect(create.body.data.webhook).toEqual({ url: `${receiver.origin}/hook`, events: ['started', 'page', 'completed', 'failed'], secret });
    const id = create.body.data.id as string;
    await waitForJob(api, key, id);
    const events = await eventsOf(id, 'completed');
    expect(events.map((delivery) => delivery.event.event)).toEqual(['started', 'page', 'page', 'page', 'completed']);
    for (const delivery of events) expect(verifyPluckSignature(secret, delivery.signature, delivery.body), delivery.signature).toBe(true);
    expect(verifyPluckSignature('another-secret-entirely-0000', events[0]!.signature, events[0]!.body)).toBe(false);
    expect(verifyPluckSignature(secret, events[0]!.signature, events[0]!.body.replace('started', 'startex'))).toBe(false);
    expect(events.filter((delivery) => delivery.event.event === 'page').map((delivery) => delivery.event.data.url).sort()).toEqual([...urls].sort());
    expect(events.at(-1)!.event.data).toMatchObject({ id, status: 'completed', progress: { total: 3, completed: 3, failed: 0 }, creditsUsed: 3 });
    expect(events.at(-1)!.event.data.webhook).toBeUndefined();
    // The secret is shown once: the job's status does not carry it.
    expect((await api.get(`/v1/jobs/${id}`, key)).body.data.webhook).toEqual({ url: `${receiver.origin}/hook`, events: ['started', 'page', 'completed', 'failed'] });
  }, 60_000);

  it('sends a failed event, with a secret made for the job, when the account runs out of credits', async () => {
    const { key } = await api.signUpWithKey();
    const urls = Array.from({ length: 5 }, (_, i) => `${site.origin}/credit-${i}`);
    const create = await api.post('/v1/jobs/batch', { urls, formats: ['links'], waitUntil: 'domcontentloaded', webhook: { url: `${receiver.origin}/hook`, events: ['completed', 'failed'] } }, key);
    expect(create.status, create.text).toBe(201);
    const secret = create.body.data.webhook.secret as string;
    expect(secret).toMatch(/^whsec_/);
    const job = await waitForJob(api, key, create.body.data.id);
    expect(job).toMatchObject({ status: 'failed', error: { code: 'INSUFFICIENT_CREDITS' }, creditsUsed: 3 });
    const events = await eventsOf(job.id, 'failed');
    expect(events.map((delivery) => delivery.event.event)).toEqual(['failed']);
    expect(verifyPluckSignature(secret, events[0]!.signature, events[0]!.body)).toBe(true);
    expect(events[0]!.event.data).toMatchObject({ status: 'failed', error: { code: 'INSUFFICIENT_CREDITS' } });
  }, 60_000);
});
