import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { clearOfWindowEnd } from '../helpers/limit-window.js';
import type { StandIn } from '../helpers/loopback-stand-in.js';
import { backendEnv, deleteRedisKeys, testBackends, uniqueRedisPrefix } from '../helpers/redis.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { startSearxngStandIn } from '../search/search-stand-ins.js';

const PER_KEY = 8;

let nextId = 1;
/** A tools/call message; job_status of an unknown job is free and answers at once (a tool error). */
const jobStatus = () => ({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name: 'job_status', arguments: { id: 'no-such-job' } } });
const search = (query: string) => ({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name: 'search', arguments: { query } } });
const toolsList = () => ({ jsonrpc: '2.0', id: nextId++, method: 'tools/list' });

for (const backend of await testBackends()) {
  describe(`MCP tool calls against the hourly rate limits [${backend}]`, () => {
    const prefix = uniqueRedisPrefix();
    let searxng: StandIn;
    let server: TestServer;
    let api: ReturnType<typeof apiClient>;

    beforeAll(async () => {
      searxng = await startSearxngStandIn();
      server = await startTestServer('sqlite', { ...backendEnv(backend, prefix), FREE_REQUESTS_PER_HOUR: String(PER_KEY), SEARXNG_URL: searxng.url });
      api = apiClient(server.baseUrl, null);
    });
    afterAll(async () => {
      await server?.close();
      await searxng?.close();
      if (backend === 'redis') await deleteRedisKeys(prefix);
    });
    beforeEach(() => clearOfWindowEnd(3600), 20_000);

    /** One raw JSON-RPC POST (a message or a batch), as an MCP client sends it. */
    async function post(key: string, body: unknown) {
      const response = await fetch(`${server.baseUrl}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, remaining: response.headers.get('x-ratelimit-remaining'), body: JSON.parse(text), text };
    }

    it('counts each tools/call of a batch as one request, the POST itself the first; a batch past the limit runs nothing', async () => {
      const { key, userId } = await api.signUpWithKey();
      expect(await post(key, toolsList())).toMatchObject({ status: 200, remaining: '7' });

      const calls = await post(key, [jobStatus(), jobStatus(), jobStatus(), jobStatus()]);
      expect(calls.status, calls.text).toBe(200);
      expect(calls.body).toHaveLength(4);
      expect(calls.remaining).toBe('3');

      // Other messages ride along free: two calls and a listing are two requests.
      const mixed = await post(key, [toolsList(), search('first'), search('second')]);
      expect(mixed.status, mixed.text).toBe(200);
      expect(mixed.body.map((answer: { result: { isError?: boolean } }) => answer.result.isError ?? false)).toEqual([false, false, false]);
      expect(mixed.remaining).toBe('1');

      const providerCalls = searxng.requests.length;
      const refused = await post(key, [search('third'), search('fourth')]);
      expect(refused.status, refused.text).toBe(429);
      expect(refused.body).toMatchObject({ success: false, error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Rate limit exceeded', limit: 'key', requestsPerHour: PER_KEY } });
      expect(refused.remaining).toBe('1');
      expect(searxng.requests.length).toBe(providerCalls);
      const charged = (await server.ctx.credits.ledger(userId)).filter((entry) => entry.reason === 'web:search');
      expect(charged).toHaveLength(2);

      // The request it had left still serves a batch of one call.
      const last = await post(key, [toolsList(), jobStatus()]);
      expect(last.status, last.text).toBe(200);
      expect(last.remaining).toBe('0');
      expect((await post(key, toolsList())).status).toBe(429);
    });

    it("counts an agent's tool calls (official SDK client) on its key: two keys of one account each get their own budget", async () => {
      const { token } = await api.signUp();
      const keys = [(await api.createKey(token, 'agent one')).key, (await api.createKey(token, 'agent two')).key];
      for (const key of keys) {
        const client = new Client({ name: 'pluck-limit-test', version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
        try {
          let answered = 0;
          let refusal: unknown;
          while (refusal === undefined && answered < PER_KEY) {
            await client.callTool({ name: 'job_status', arguments: { id: 'no-such-job' } }).then(
              () => void (answered += 1),
              (error: unknown) => void (refusal = error),
            );
          }
          // initialize and notifications/initialized were the key's first two requests.
          expect(answered).toBe(PER_KEY - 2);
          // The SDK raises the HTTP 429 with the API's error body as its message.
          expect(refusal).toMatchObject({ code: 429 });
          expect(String(refusal)).toMatch(/"limit":"key".*"code":"RATE_LIMIT_EXCEEDED","message":"Rate limit exceeded"/);
        } finally {
          await client.close();
        }
      }
    });
  });
}
