import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMonths, CreditStore } from '../../src/accounts/credits.js';
import { apiClient } from '../helpers/client.js';
import { testDialects } from '../helpers/databases.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe('addMonths', () => {
  it('clamps to the end of shorter months and keeps the time of day', () => {
    expect(addMonths('2026-01-31T10:00:00.000Z', 1).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(addMonths('2026-03-15T00:00:00.000Z', 12).toISOString()).toBe('2027-03-15T00:00:00.000Z');
  });
});

for (const dialect of await testDialects()) {
  describe(`credit store [${dialect}]`, () => {
    let server: TestServer;
    let api: ReturnType<typeof apiClient>;

    beforeAll(async () => {
      server = await startTestServer(dialect);
      api = apiClient(server.baseUrl);
    });
    afterAll(() => server?.close());

    it('never overspends under parallel reservations and ledgers every debit', async () => {
      const { userId } = await api.signUp();
      const store = new CreditStore(server.ctx.database.db);
      await server.ctx.database.db.updateTable('credit_balance').set({ balance: 3 }).where('user_id', '=', userId).execute();
      const attempts = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) => store.reserve(userId, 1, 'test:op', `req-${i}`, 1000)),
      );
      expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(3);
      const rejected = attempts.filter((a) => a.status === 'rejected') as PromiseRejectedResult[];
      expect(rejected.map((r) => r.reason.code)).toEqual(Array(7).fill('INSUFFICIENT_CREDITS'));
      expect((await store.get(userId, 1000, null))!.balance).toBe(0);
      const debits = (await store.ledger(userId)).filter((e) => e.reason === 'test:op');
      expect(debits.map((e) => e.delta)).toEqual([-1, -1, -1]);
    });

    it('refunds with its own ledger row', async () => {
      const { userId } = await api.signUp();
      const store = new CreditStore(server.ctx.database.db);
      const reservation = await store.reserve(userId, 5, 'web:pdf', 'req-a', 1000);
      await store.refund(reservation);
      expect((await store.get(userId, 1000, null))!.balance).toBe(1000);
      const tail = (await store.ledger(userId)).slice(-2);
      expect(tail).toEqual([
        expect.objectContaining({ delta: -5, reason: 'web:pdf', request_id: 'req-a', balance_after: 995 }),
        expect.objectContaining({ delta: 5, reason: 'refund:web:pdf', request_id: 'req-a', balance_after: 1000 }),
      ]);
    });

    it('billing refunds when the work fails and keeps the charge when it succeeds', async () => {
      const { token, userId } = await api.signUp();
      const me = await api.get('/v1/user/me', token);
      const principal = await server.ctx.authenticator.resolve(`Bearer ${token}`);
      expect(me.status).toBe(200);
      await expect(
        server.ctx.billing.run({ principal: principal!, cost: 7, operation: 'web:test', requestId: 'r1' }, async () => {
          throw new Error('target exploded');
        }),
      ).rejects.toThrow('target exploded');
      expect((await server.ctx.credits.get(userId, 1000, null))!.balance).toBe(1000);
      const value = await server.ctx.billing.run({ principal: principal!, cost: 7, operation: 'web:test', requestId: 'r2' }, async () => 'done');
      expect(value).toBe('done');
      expect((await server.ctx.credits.get(userId, 1000, null))!.balance).toBe(993);
      const reasons = (await server.ctx.credits.ledger(userId)).map((e) => `${e.reason}:${e.delta}`);
      expect(reasons).toEqual(['signup_grant:1000', 'web:test:-7', 'refund:web:test:7', 'web:test:-7']);
    });

    it('refills monthly from lastRefill, once, topping up to the grant', async () => {
      const { userId } = await api.signUp();
      const db = server.ctx.database.db;
      await db
        .updateTable('credit_balance')
        .set({ balance: 40, last_refill: '2026-01-31T12:00:00.000Z' })
        .where('user_id', '=', userId)
        .execute();
      const march = new CreditStore(db, () => new Date('2026-03-30T00:00:00.000Z'));
      // Jan 31 -> Feb 28 (clamped) -> Mar 28: both have passed by Mar 30, and one refill covers them.
      const results = await Promise.all([1, 2, 3].map(() => march.get(userId, 1000, 'refill-req')));
      for (const info of results) expect(info).toEqual({ balance: 1000, lastRefill: '2026-03-28T12:00:00.000Z' });
      await db.updateTable('credit_balance').set({ balance: 10 }).where('user_id', '=', userId).execute();
      expect(await march.get(userId, 1000, null)).toEqual({ balance: 10, lastRefill: '2026-03-28T12:00:00.000Z' });
      const refills = (await march.ledger(userId)).filter((e) => e.reason === 'monthly_refill');
      expect(refills).toEqual([expect.objectContaining({ delta: 960, balance_after: 1000 })]);

      // Not due again until 2026-04-28T12:00, one month after the new lastRefill.
      const april = new CreditStore(db, () => new Date('2026-04-01T00:00:00.000Z'));
      await db.updateTable('credit_balance').set({ balance: 2000 }).where('user_id', '=', userId).execute();
      expect(await april.get(userId, 1000, null)).toEqual({ balance: 2000, lastRefill: '2026-03-28T12:00:00.000Z' });
    });
  });
}
