import type { ServerResponse } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { apiClient } from '../helpers/client.js';
import { createPostgresDatabase, testDialects } from '../helpers/databases.js';
import { type RecordingServer, type RouteHandler, startRecordingServer } from '../helpers/recording-server.js';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { allResults, waitForJob } from './job-client.js';

const dialects = await testDialects();
const PAGES = 8;
/** Pages answered before the site starts holding its answers: recorded (and charged) before the crash. */
const ANSWERED_BEFORE_CRASH = 3;
/** JOB_CONCURRENCY: the pages in flight, reserved and never answered, when the process is killed. */
const IN_FLIGHT = 2;

for (const dialect of dialects) {
  describe(`credits of a job whose process is killed with pages in flight (${dialect})`, () => {
    let site: RecordingServer;
    let dataDir: string;
    let postgres: { url: string; drop: () => Promise<void> } | undefined;
    const processes: ServerProcess[] = [];
    // Until the crash, pages after the first few are held: the browser waits for them, their credits reserved.
    let holding = true;
    let answered = 0;
    const held = new Map<string, ServerResponse>();
    const answer = (res: ServerResponse, i: number) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<main><h1>Item ${i}</h1><p>Item ${i} text.</p></main>`);

    beforeAll(async () => {
      const routes: Record<string, RouteHandler> = {};
      for (let i = 0; i < PAGES; i += 1) {
        routes[`/item/${i}`] = (_req, res) => {
          if (holding && answered >= ANSWERED_BEFORE_CRASH) return void held.set(`/item/${i}`, res);
          answered += 1;
          answer(res, i);
        };
      }
      site = await startRecordingServer(routes);
      dataDir = await mkdtemp(join(tmpdir(), 'pluck-jobs-crash-credits-'));
      postgres = dialect === 'postgres' ? await createPostgresDatabase() : undefined;
    });
    afterAll(async () => {
      for (const child of processes) child.child.kill('SIGKILL');
      await Promise.all(processes.map((child) => child.exited));
      await site?.close();
      await postgres?.drop();
      await rm(dataDir, { recursive: true, force: true });
    });

    const start = async () => {
      const started = await startServerProcess({
        DATA_DIR: dataDir,
        ...(postgres ? { DATABASE_URL: postgres.url } : {}),
        PUBLIC_BASE_URL: 'http://127.0.0.1:1',
        AUTH_SECRET: 'crash-credits-test-secret-long-enough-for-better-auth',
        ALLOW_PRIVATE_HOSTS: site.hostPort,
        JOB_LEASE_SECONDS: '2',
        JOB_POLL_INTERVAL_MS: '200',
        JOB_CONCURRENCY: String(IN_FLIGHT),
      });
      processes.push(started);
      return started;
    };

    it('refunds the pages in flight when the job is taken over: each page is charged once and creditsUsed is what the ledger charged', async () => {
      const first = await start();
      let api = apiClient(first.baseUrl, null);
      const { key, userId } = await api.signUpWithKey();
      const initial = (await api.get('/v1/user/credits', key)).body.data.balance as number;
      const urls = Array.from({ length: PAGES }, (_, i) => `${site.origin}/item/${i}`);
      const create = await api.post('/v1/jobs/batch', { urls, formats: ['markdown'], waitUntil: 'domcontentloaded' }, key);
      expect(create.status, create.text).toBe(201);
      const id = create.body.data.id as string;
      for (let polls = 0; held.size < IN_FLIGHT; polls += 1) {
        if (polls > 1200) throw new Error(`no pages in flight: ${held.size} held, ${answered} answered; ${first.output.join('').slice(-3000)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const before = (await api.get(`/v1/jobs/${id}`, key)).body.data;
      expect(before.creditsUsed, 'charged pages recorded before the crash').toBe(ANSWERED_BEFORE_CRASH);
      first.child.kill('SIGKILL');
      await first.exited;
      holding = false;
      for (const [path, res] of held) answer(res, Number(path.split('/').pop()));

      const second = await start();
      api = apiClient(second.baseUrl, null);
      const job = await waitForJob(api, key, id, 90_000);
      expect(job).toMatchObject({ status: 'completed', progress: { total: PAGES, completed: PAGES, failed: 0 } });
      const results = await allResults(api, key, id);
      expect(results.map((result) => result.url).sort()).toEqual([...urls].sort());
      expect(results.map((result) => result.creditsCost), 'each page charged once').toEqual(urls.map(() => 1));
      expect(job.creditsUsed).toBe(PAGES);

      const database = openDatabase({ dataDir, databaseUrl: postgres?.url });
      try {
        const ledger = await database.db.selectFrom('credit_ledger').select(['delta', 'reason']).where('request_id', '=', id).execute();
        const charged = -ledger.reduce((sum, row) => sum + Number(row.delta), 0);
        expect(charged, `the job's ledger rows: ${JSON.stringify(ledger)}`).toBe(job.creditsUsed);
        expect(ledger.filter((row) => row.reason.startsWith('refund:')), 'the reservations of the pages in flight, given back').toHaveLength(IN_FLIGHT);
        expect((await api.get('/v1/user/credits', key)).body.data.balance).toBe(initial - job.creditsUsed);
        const balance = await database.db.selectFrom('credit_balance').select('balance').where('user_id', '=', userId).executeTakeFirstOrThrow();
        expect(Number(balance.balance)).toBe(initial - job.creditsUsed);
      } finally {
        await database.close();
      }
    }, 240_000);
  });
}
