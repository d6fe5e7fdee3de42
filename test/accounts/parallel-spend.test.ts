import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { testDialects } from '../helpers/databases.js';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const CREDITS = 3;
const REQUESTS = 8;

for (const dialect of await testDialects()) {
  // On PostgreSQL the requests are split across two instances sharing the database, as when scaled out.
  const instanceCount = dialect === 'postgres' ? 2 : 1;

  describe(`parallel spending of a small balance [${dialect}, ${instanceCount} instance(s)]`, () => {
    let site: RecordingServer;
    const servers: TestServer[] = [];

    beforeAll(async () => {
      site = await startRecordingServer();
      // Concurrency high enough that only credits can refuse a request.
      const env = { FREE_MONTHLY_CREDITS: String(CREDITS), FREE_CONCURRENCY: '20', ALLOW_PRIVATE_HOSTS: site.hostPort };
      servers.push(await startTestServer(dialect, env));
      if (instanceCount === 2) {
        servers.push(await startTestServer('sqlite', { ...env, DATABASE_URL: servers[0]!.ctx.config.databaseUrl! }));
      }
    });
    afterAll(async () => {
      // The first server owns (and drops) the shared database, so it closes last.
      for (const server of [...servers].reverse()) await server.close();
      await site?.close();
    });

    it(`${CREDITS} credits, ${REQUESTS} parallel page requests from two keys: exactly ${CREDITS} succeed and the ledger shows it`, async () => {
      const api = apiClient(servers[0]!.baseUrl);
      const { token, userId } = await api.signUp();
      const keys = [(await api.createKey(token, 'one')).key, (await api.createKey(token, 'two')).key];
      expect((await api.get('/v1/user/credits', token)).body.data.balance).toBe(CREDITS);

      const responses = await Promise.all(
        Array.from({ length: REQUESTS }, (_, i) =>
          apiClient(servers[i % servers.length]!.baseUrl).post('/v1/web/content', { url: `${site.origin}/spend/${i}` }, keys[i % 2]),
        ),
      );
      const succeeded = responses.filter((res) => res.status === 200);
      const refused = responses.filter((res) => res.status === 402);
      expect(succeeded, responses.map((res) => `${res.status} ${res.text.slice(0, 200)}`).join('\n')).toHaveLength(CREDITS);
      expect(refused).toHaveLength(REQUESTS - CREDITS);
      for (const res of refused) expect(res.body).toMatchObject({ success: false, error: { code: 'INSUFFICIENT_CREDITS' } });
      // Refused requests never reached the target page.
      expect(site.hits.filter((hit) => hit.path.startsWith('/spend/'))).toHaveLength(CREDITS);

      expect((await api.get('/v1/user/credits', token)).body.data.balance).toBe(0);
      const ledger = (await servers[0]!.ctx.credits.ledger(userId)).filter((entry) => entry.reason.endsWith('web:content'));
      const debits = ledger.filter((entry) => entry.reason === 'web:content');
      const refunds = ledger.filter((entry) => entry.reason === 'refund:web:content');
      expect(debits.every((entry) => entry.delta === -1) && refunds.every((entry) => entry.delta === 1)).toBe(true);
      expect(debits.length - refunds.length).toBe(CREDITS);
      // Any request that failed after reserving was refunded under its own request id.
      for (const refund of refunds) expect(debits.some((debit) => debit.request_id === refund.request_id)).toBe(true);
      const debitedRequests = new Set(debits.map((entry) => entry.request_id));
      for (const res of succeeded) expect(debitedRequests.has(res.body.requestId)).toBe(true);
      for (const res of refused) expect(debitedRequests.has(res.body.error.requestId)).toBe(false);
      expect(ledger.every((entry) => entry.balance_after >= 0)).toBe(true);
    });
  });
}
