import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { urlKey } from '../../src/jobs/crawl-urls.js';
import { JobStore, LeaseLost } from '../../src/jobs/job-store.js';
import { apiClient } from '../helpers/client.js';
import { testDialects } from '../helpers/databases.js';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { allResults, waitForJob } from './job-client.js';

const dialects = await testDialects();
const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();
const task = (url: string) => ({ url, urlKey: urlKey(url), depth: 0 });

for (const dialect of dialects) {
  describe(`job state on ${dialect}`, () => {
    let site: RecordingServer;
    let server: TestServer;
    let store: JobStore;

    beforeAll(async () => {
      site = await startRecordingServer();
      // This suite claims jobs itself: the server's own runner stays off.
      server = await startTestServer(dialect, { ALLOW_PRIVATE_HOSTS: site.hostPort, JOBS_RUNNER: 'off', LOG_LEVEL: 'warn' });
      store = new JobStore(server.ctx.database.db, server.ctx.credits, server.ctx.config.jobs);
    });
    afterAll(async () => {
      await server?.close();
      await site?.close();
    });

    it('leases a job to one runner, hands it over when the lease lapses, and refuses writes from the runner that lost it', async () => {
      const id = `job-${dialect}-lease`;
      await store.create({ id, user_id: 'u1', kind: 'batch', options: '{}', webhook: null, created_at: at(0) }, [task('https://a.test/1'), task('https://a.test/2'), task('https://a.test/2')]);
      expect(await store.find(id)).toMatchObject({ status: 'queued', total: 2 });
      expect(await store.countOpen('u1')).toBe(1);

      const [claimed] = await store.claim('runner-a', 5, at(1), at(31));
      expect(claimed).toMatchObject({ id, status: 'active', lease_owner: 'runner-a' });
      expect(await store.claim('runner-b', 5, at(10), at(40)), 'a held lease is not taken').toEqual([]);
      expect(await store.renew('runner-a', [id], at(20), at(50))).toEqual(new Set([id]));

      const first = { taskSeq: 0, results: [{ url: 'https://a.test/1', status: 'completed' as const, data: { markdown: 'one' }, credits: 1 }], discovered: [], firstSeq: 2 };
      await store.recordPage(id, 'runner-a', 1, first, at(21));
      // runner-a stops renewing (it died); after the lease, runner-b takes the job over.
      const [taken] = await store.claim('runner-b', 5, at(51), at(81));
      expect(taken).toMatchObject({ id, lease_owner: 'runner-b', completed: 1, credits_used: 1 });
      expect(await store.queuedTasks(id, -1, 10)).toEqual([{ seq: 1, url: 'https://a.test/2', depth: 0 }]);
      const second = { taskSeq: 1, results: [{ url: 'https://a.test/2', status: 'failed' as const, errorCode: 'TARGET_UNREACHABLE', errorMessage: 'gone', credits: 0 }], discovered: [task('https://a.test/3')], firstSeq: 2 };
      await expect(store.recordPage(id, 'runner-a', 2, second, at(52))).rejects.toBeInstanceOf(LeaseLost);
      expect(await store.renew('runner-a', [id], at(52), at(82))).toEqual(new Set());
      await store.recordPage(id, 'runner-b', (await store.maxOrdinal(id)) + 1, second, at(53));
      expect(await store.find(id)).toMatchObject({ total: 3, completed: 1, failed: 1 });
      expect((await store.resultHeads(id, 1, 10)).map((row) => [row.ordinal, row.url, row.error_code])).toEqual([[2, 'https://a.test/2', 'TARGET_UNREACHABLE']]);

      expect(await store.finish(id, 'runner-a', 'completed', at(60), at(100))).toBe(false);
      expect(await store.finish(id, 'runner-b', 'completed', at(60), at(100))).toBe(true);
      expect(await store.countOpen('u1')).toBe(0);
      expect(await store.cancel(id, 'u1', at(61), at(100)), 'a finished job is not cancelled').toBe(false);
      expect(await store.deleteExpired(at(99))).toBe(0);
      expect(await store.deleteExpired(at(101))).toBe(1);
      expect(await store.find(id)).toBeUndefined();
      expect(await store.resultHeads(id, 0, 10)).toEqual([]);
    });

    it('gives a job back when its runner stops, and a cancelled job drops out of its runner', async () => {
      const id = `job-${dialect}-release`;
      await store.create({ id, user_id: 'u2', kind: 'batch', options: '{}', webhook: null, created_at: at(0) }, [task('https://b.test/1')]);
      await store.claim('runner-a', 1, at(1), at(31));
      await store.release(id, 'runner-a');
      expect(await store.find(id)).toMatchObject({ status: 'queued', lease_owner: null });
      await store.claim('runner-c', 1, at(2), at(32));
      expect(await store.cancel(id, 'someone-else', at(3), at(100))).toBe(false);
      expect(await store.cancel(id, 'u2', at(3), at(100))).toBe(true);
      expect(await store.renew('runner-c', [id], at(4), at(34))).toEqual(new Set());
      expect(await store.claim('runner-d', 5, at(40), at(70))).toEqual([]);
    });

    it('runs a batch through the routes', async () => {
      const runner = await startTestServer(dialect, { ALLOW_PRIVATE_HOSTS: site.hostPort, JOB_POLL_INTERVAL_MS: '200', LOG_LEVEL: 'warn' });
      try {
        const api = apiClient(runner.baseUrl);
        const { key } = await api.signUpWithKey();
        const urls = [`${site.origin}/x`, `${site.origin}/y`];
        const create = await api.post('/v1/jobs/batch', { urls, formats: ['markdown'], waitUntil: 'domcontentloaded' }, key);
        expect(create.status, create.text).toBe(201);
        const job = await waitForJob(api, key, create.body.data.id);
        expect(job).toMatchObject({ status: 'completed', progress: { total: 2, completed: 2, failed: 0 }, creditsUsed: 2 });
        expect((await allResults(api, key, job.id)).map((result) => result.data.markdown).sort()).toEqual(['ok /x', 'ok /y']);
      } finally {
        await runner.close();
      }
    }, 60_000);
  });
}
