import type { ServerResponse } from 'node:http';
import { expect } from 'vitest';
import { OPENAI_TEST_KEY, type OpenAiStandIn, startOpenAiStandIn } from '../ai/openai-stand-in.js';
import { apiClient } from '../helpers/client.js';
import { sendJson, type StandIn, startStandIn } from '../helpers/loopback-stand-in.js';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const prose = (label: string) => Array.from({ length: 8 }, (_, i) => `${label} sentence ${i} carries enough words to count as the article's prose.`).join(' ');

/** An article with chrome around it, and a page that says a lot about itself. */
export const ARTICLE_PAGE = `<!doctype html><html lang="en-GB"><head>
<title>Engine Notes</title>
<meta name="description" content="Notes on the Analytical Engine">
<meta name="keywords" content="engines, notes">
<meta property="og:title" content="Engine Notes OG"><meta property="og:site_name" content="Notes Site">
<meta name="twitter:card" content="summary">
</head><body>
<header><nav><a href="/home">Home</a></nav></header>
<main><article><h1>The Analytical Engine</h1><p>${prose('First')}</p><p>${prose('Second')}</p>
<img src="/img/engine.png" alt="The engine"></article></main>
<footer><a href="https://example.org/elsewhere">Elsewhere</a> Footer words</footer>
</body></html>`;

export interface FirecrawlWorld {
  site: RecordingServer;
  openai: OpenAiStandIn;
  searxng: StandIn;
  server: TestServer;
  api: ReturnType<typeof apiClient>;
  key: string;
  userId: string;
  balance(): Promise<number>;
  setBalance(balance: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Pluck with a loopback site (`/article`, `/second`, `/hang` that never answers), the OpenAI
 * stand-in for json, and a SearXNG stand-in whose results are the site's own pages (any query
 * with `nothing` finds none; with `refused`, a third result on an address the egress policy refuses), and one account with an API key.
 */
export async function startFirecrawlWorld(): Promise<FirecrawlWorld> {
  const send = (body: string) => (_req: unknown, res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  const site = await startRecordingServer({
    '/article': send(ARTICLE_PAGE),
    '/second': send(ARTICLE_PAGE.replaceAll('Engine Notes', 'Second Notes')),
    '/hang': () => {},
  });
  const searxng = await startStandIn((request, response) => {
    const query = request.url.searchParams.get('q') ?? '';
    const results = query.includes('nothing')
      ? []
      : [
          { url: `${site.origin}/article`, title: 'Engine notes', content: 'Notes on the engine', engine: 'stand-in' },
          { url: `${site.origin}/second`, title: 'Second notes', content: 'More notes', engine: 'stand-in' },
          ...(query.includes('refused') ? [{ url: 'http://10.9.9.9/private', title: 'Private', content: 'Behind the egress policy', engine: 'stand-in' }] : []),
        ];
    sendJson(response, 200, { query, number_of_results: results.length, results, answers: [], suggestions: [], unresponsive_engines: [] });
  });
  const openai = await startOpenAiStandIn();
  const server = await startTestServer('sqlite', {
    ALLOW_PRIVATE_HOSTS: site.hostPort,
    OPENAI_BASE_URL: `${openai.url}/v1`,
    OPENAI_API_KEY: OPENAI_TEST_KEY,
    AI_MODEL: 'stand-in-model',
    SEARXNG_URL: searxng.url,
  });
  const api = apiClient(server.baseUrl);
  const { key, userId } = await api.signUpWithKey();
  return {
    site,
    openai,
    searxng,
    server,
    api,
    key,
    userId,
    balance: async () => (await api.get('/v1/user/credits', key)).body.data.balance as number,
    setBalance: async (balance) => {
      await server.ctx.database.db.updateTable('credit_balance').set({ balance }).where('user_id', '=', userId).execute();
    },
    close: async () => {
      await server.close();
      await Promise.all([site.close(), openai.close(), searxng.close()]);
    },
  };
}

/** What a failed SDK call threw, checked to be the SDK's own error class (which carries the status it read). */
export async function sdkError<E extends Error>(call: Promise<unknown>, errorClass: new (...args: never[]) => E): Promise<E> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(errorClass);
  return error as E;
}
