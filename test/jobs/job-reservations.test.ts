import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReservationKeeper } from '../../src/accounts/credits.js';
import type { Principal } from '../../src/auth/principal.js';
import { urlKey } from '../../src/jobs/crawl-urls.js';
import { JobStore, LeaseLost, type NewResult } from '../../src/jobs/job-store.js';
import { AppError } from '../../src/errors/app-error.js';
import { apiClient } from '../helpers/client.js';
import { testDialects } from '../helpers/databases.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const dialects = await testDialects();
const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();
const URLS = ['https://a.test/0', 'https://a.test/1'];
const page = (seq: number, credits = 1): NewResult => ({ url: URLS[seq]!, status: 'completed', data: { markdown: `page ${seq}` }, credits });

/** A page's work the test ends when it chooses, as a target slow to answer would; `started` once its credits are reserved. */
function slowPage() {
  let end!: { resolve: (value: string) => void; reject: (error: unknown) => void };
  const answer = new Promise<string>((resolve, reject) => (end = { resolve, reject }));
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  return { work: () => (markStarted(), answer), started, ...end };
}

for (const dialect of dialects) {
  describe(`a job's page credits when its runner loses the job (${dialect})`, () => {
    let server: TestServer;
    let store: JobStore;
    let api: ReturnType<typeof apiClient>;

    beforeAll(async () => {
      // This suite runs the jobs' steps itself: the server's own runner stays off.
      server = await startTestServer(dialect, { JOBS_RUNNER: 'off', LOG_LEVEL: 'warn' });
      store = new JobStore(server.ctx.database.db, server.ctx.credits, server.ctx.config.jobs);
      api = apiClient(server.baseUrl);
    });
    afterAll(() => server?.close());

    /** A new account and a batch job of two pages it owns, claimed by runner-a until second 31. */
    async function claimedJob(name: string) {
      const { token, userId } = await api.signUp();
      const principal = (await server.ctx.authenticator.resolve(`Bearer ${token}`)) as Principal;
      const id = `job-${dialect}-${name}-${randomUUID().slice(0, 8)}`;
      const tasks = URLS.map((url) => ({ url, urlKey: urlKey(url), depth: 0 }));
      await store.create({ id, user_id: userId, kind: 'batch', options: '{}', webhook: null, created_at: at(0) }, tasks);
      expect(await store.claimOne(id, 'runner-a', at(1), at(31))).toMatchObject({ lease_owner: 'runner-a' });
      const initial = await balanceOf(userId);
      return { id, userId, principal, initial };
    }

    async function balanceOf(userId: string): Promise<number> {
      const row = await server.ctx.database.db.selectFrom('credit_balance').select('balance').where('user_id', '=', userId).executeTakeFirstOrThrow();
      return Number(row.balance);
    }

    /** An attempt of `owner` at page `seq`: its keeper, and its id for the page's record. */
    function attemptAt(jobId: string, owner: string, seq: number): { id: string; keeper: ReservationKeeper } {
      const id = randomUUID();
      return { id, keeper: store.reservationKeeper({ id, jobId, owner, taskSeq: seq, startedAt: at(2) }) };
    }

    /** The page's work through Billing, as the page pipeline runs it: reserved first, refunded on failure or a free answer. */
    function charge(job: { id: string; principal: Principal }, keeper: ReservationKeeper, work: () => Promise<string>, options: { isFree?: boolean } = {}) {
      const chargesFailure = (error: unknown) => error instanceof AppError && error.code === 'TARGET_TIMEOUT';
      return server.ctx.billing.run({ principal: job.principal, cost: 1, operation: 'web:page', requestId: job.id, reservations: keeper, isFree: () => options.isFree ?? false, chargesFailure }, work);
    }

    /** What the job shows it used, what its ledger rows charged, and the account's balance. */
    async function books(job: { id: string; userId: string; initial: number }) {
      const row = await store.find(job.id);
      const ledger = await server.ctx.database.db.selectFrom('credit_ledger').select(['delta', 'reason']).where('request_id', '=', job.id).execute();
      return {
        creditsUsed: row!.credits_used,
        charged: ledger.reduce((sum, entry) => sum - Number(entry.delta), 0),
        refunds: ledger.filter((entry) => entry.reason.startsWith('refund:')).length,
        spent: job.initial - (await balanceOf(job.userId)),
      };
    }

    it('refunds the pages in flight of a runner whose lease lapsed, once: its late result is refused and its own refund does not repeat it', async () => {
      const job = await claimedJob('slow');
      const [first, second] = [attemptAt(job.id, 'runner-a', 0), attemptAt(job.id, 'runner-a', 1)];
      const [answered, failing] = [slowPage(), slowPage()];
      const answering = charge(job, first.keeper, answered.work);
      const failed = charge(job, second.keeper, failing.work);
      await Promise.all([answered.started, failing.started]);
      expect(await books(job)).toMatchObject({ charged: 2, spent: 2, creditsUsed: 0 });

      // runner-a stalls past its lease; runner-b takes the job over and gives back what runner-a holds.
      expect(await store.claimOne(job.id, 'runner-b', at(51), at(81))).toMatchObject({ lease_owner: 'runner-b' });
      expect(await books(job)).toEqual({ creditsUsed: 0, charged: 0, refunds: 2, spent: 0 });

      // runner-a wakes up: its answered page cannot be recorded, its failed page's refund is not paid twice.
      answered.resolve('page 0');
      await answering;
      await expect(store.recordPage(job.id, 'runner-a', 1, { taskSeq: 0, attempt: first.id, results: [page(0)], discovered: [], firstSeq: 2 }, at(52))).rejects.toBeInstanceOf(LeaseLost);
      failing.reject(new AppError('TARGET_UNREACHABLE', 'gone'));
      await expect(failed).rejects.toMatchObject({ code: 'TARGET_UNREACHABLE' });
      // Nor can it reserve for another page: nothing is debited.
      await expect(charge(job, attemptAt(job.id, 'runner-a', 1).keeper, async () => 'page 1')).rejects.toBeInstanceOf(LeaseLost);
      expect(await books(job)).toEqual({ creditsUsed: 0, charged: 0, refunds: 2, spent: 0 });

      // runner-b loads both pages again: each is charged once.
      for (const seq of [0, 1]) {
        const again = attemptAt(job.id, 'runner-b', seq);
        await charge(job, again.keeper, async () => `page ${seq}`);
        expect((await store.recordPage(job.id, 'runner-b', seq + 1, { taskSeq: seq, attempt: again.id, results: [page(seq)], discovered: [], firstSeq: 2 }, at(53))).credits).toBe(1);
      }
      expect(await store.finish(job.id, 'runner-b', 'completed', at(60), at(100))).toBe(true);
      expect(await books(job)).toEqual({ creditsUsed: 2, charged: 2, refunds: 2, spent: 2 });
    });

    it('refunds once when two runners race to take a job over', async () => {
      const job = await claimedJob('race');
      const stuck = [slowPage(), slowPage()];
      const charges = stuck.map((held, seq) => charge(job, attemptAt(job.id, 'runner-a', seq).keeper, held.work));
      await Promise.all(stuck.map((held) => held.started));
      const claims = await Promise.all(['runner-b', 'runner-c', 'runner-d'].map((owner) => store.claimOne(job.id, owner, at(51), at(81))));
      expect(claims.filter(Boolean), 'one runner wins the job').toHaveLength(1);
      expect(await books(job)).toEqual({ creditsUsed: 0, charged: 0, refunds: 2, spent: 0 });
      for (const held of stuck) held.resolve('late');
      await Promise.all(charges);
      expect(await books(job)).toEqual({ creditsUsed: 0, charged: 0, refunds: 2, spent: 0 });
    });

    it('settles each reservation once when the takeover races the old runner writing its page and refunding its failure', async () => {
      for (let round = 0; round < 8; round += 1) {
        const job = await claimedJob(`round-${round}`);
        const [first, second] = [attemptAt(job.id, 'runner-a', 0), attemptAt(job.id, 'runner-a', 1)];
        await charge(job, first.keeper, async () => 'page 0');
        const failing = slowPage();
        const failed = charge(job, second.keeper, failing.work).catch((error: unknown) => error);
        await failing.started;
        const write = () => store.recordPage(job.id, 'runner-a', 1, { taskSeq: 0, attempt: first.id, results: [page(0)], discovered: [], firstSeq: 2 }, at(50)).catch((error: unknown) => error);
        const takeOver = () => store.claimOne(job.id, 'runner-b', at(51), at(81));
        // Each starts first in turn, so that both orders happen.
        const claiming = round % 2 === 1 ? takeOver() : undefined;
        const recording = write();
        failing.reject(new AppError('TARGET_UNREACHABLE', 'gone'));
        const [recorded, claimed] = await Promise.all([recording, claiming ?? takeOver(), failed]);
        expect(claimed).toMatchObject({ lease_owner: 'runner-b' });
        const settled = await books(job);
        // Written before the takeover: page 0 is kept with its result; after it: refused and refunded.
        expect(settled, `round ${round}, the write ${recorded instanceof LeaseLost ? 'lost' : 'won'}`).toEqual(
          recorded instanceof LeaseLost ? { creditsUsed: 0, charged: 0, refunds: 2, spent: 0 } : { creditsUsed: 1, charged: 1, refunds: 1, spent: 1 },
        );
      }
    });

    it('settles a free answer and a charged failure with their page, and a cancel refunds the pages in flight', async () => {
      const job = await claimedJob('settled');
      const empty = attemptAt(job.id, 'runner-a', 0);
      await charge(job, empty.keeper, async () => '', { isFree: true });
      expect((await store.recordPage(job.id, 'runner-a', 1, { taskSeq: 0, attempt: empty.id, results: [page(0, 0)], discovered: [], firstSeq: 2 }, at(10))).credits).toBe(0);
      const timedOut = attemptAt(job.id, 'runner-a', 1);
      await expect(charge(job, timedOut.keeper, async () => Promise.reject(new AppError('TARGET_TIMEOUT', 'slow')))).rejects.toMatchObject({ code: 'TARGET_TIMEOUT' });
      const failure: NewResult = { url: URLS[1]!, status: 'failed', errorCode: 'TARGET_TIMEOUT', errorMessage: 'slow', credits: 1 };
      expect((await store.recordPage(job.id, 'runner-a', 2, { taskSeq: 1, attempt: timedOut.id, results: [failure], discovered: [], firstSeq: 2 }, at(11))).credits).toBe(1);
      // Settled with their pages: a takeover now gives nothing back.
      await store.claimOne(job.id, 'runner-b', at(51), at(81));
      expect(await books(job)).toEqual({ creditsUsed: 1, charged: 1, refunds: 1, spent: 1 });

      const cancelled = await claimedJob('cancelled');
      const inFlight = attemptAt(cancelled.id, 'runner-a', 0);
      await charge(cancelled, inFlight.keeper, async () => 'page 0');
      expect(await store.cancel(cancelled.id, cancelled.userId, at(20), at(100))).toBe(true);
      await expect(store.recordPage(cancelled.id, 'runner-a', 1, { taskSeq: 0, attempt: inFlight.id, results: [page(0)], discovered: [], firstSeq: 2 }, at(21))).rejects.toBeInstanceOf(LeaseLost);
      expect(await books(cancelled)).toEqual({ creditsUsed: 0, charged: 0, refunds: 1, spent: 0 });
    });

    it('refunds a page given up at the job page timeout once its work ends, or when the job finishes first', async () => {
      const job = await claimedJob('abandoned');
      // Page 0's first attempt was given up (the job recorded it failed, without charge) but its work went on and kept its credits.
      const givenUp = attemptAt(job.id, 'runner-a', 0);
      await charge(job, givenUp.keeper, async () => 'late');
      const timeout: NewResult = { url: URLS[0]!, status: 'failed', errorCode: 'TARGET_TIMEOUT', errorMessage: 'over the job page timeout', credits: 0 };
      expect((await store.recordPage(job.id, 'runner-a', 1, { taskSeq: 0, results: [timeout], discovered: [], firstSeq: 2 }, at(10))).credits).toBe(0);
      await store.refundAttempt(givenUp.id);
      await store.refundAttempt(givenUp.id);
      expect(await books(job)).toEqual({ creditsUsed: 0, charged: 0, refunds: 1, spent: 0 });

      // Page 1's given-up work is still running when the job finishes: the finish gives its credits back.
      const stillRunning = attemptAt(job.id, 'runner-a', 1);
      await charge(job, stillRunning.keeper, async () => 'late');
      expect((await store.recordPage(job.id, 'runner-a', 2, { taskSeq: 1, results: [{ ...timeout, url: URLS[1]! }], discovered: [], firstSeq: 2 }, at(11))).credits).toBe(0);
      expect(await store.finish(job.id, 'runner-a', 'completed', at(12), at(100))).toBe(true);
      await store.refundAttempt(stillRunning.id);
      expect(await books(job)).toEqual({ creditsUsed: 0, charged: 0, refunds: 2, spent: 0 });
    });
  });
}
