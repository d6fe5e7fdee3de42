import type { ServerResponse } from 'node:http';
import { closedPort, type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { startSearxngStandIn } from '../search/search-stand-ins.js';
import type { StandIn } from '../helpers/loopback-stand-in.js';

export const ARTICLE_PAGE = `<!doctype html><html lang="en"><head><title>SDK Fixture</title></head><body>
<nav><a href="/home">Home</a></nav>
<main><article><h1>The Difference Engine</h1>
<p>${'Babbage designed a machine to tabulate polynomial functions by the method of finite differences. '.repeat(4)}</p>
<p>${'Its second paragraph keeps the article long enough to be read as the main content. '.repeat(4)}</p>
</article></main><footer>Footer words</footer></body></html>`;

/** A 404 page with something to say: Pluck answers it as a success, with statusCode 404. */
export const MISSING_PAGE = '<!doctype html><title>Not found</title><main><h1>Nothing here</h1><p>This page has moved somewhere else entirely.</p></main>';

/** Pluck with a page on loopback, a SearXNG stand-in, and a closed port it may try (a target that fails). */
export interface PluckUnderTest {
  server: TestServer;
  site: RecordingServer;
  searxng: StandIn;
  /** A URL Pluck is allowed to load that refuses connections: TARGET_UNREACHABLE. */
  unreachableUrl: string;
  close(): Promise<void>;
}

export async function startPluckUnderTest(): Promise<PluckUnderTest> {
  const send = (body: string, status = 200) => (_req: unknown, res: ServerResponse) => res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  const routes = { '/article': send(ARTICLE_PAGE), '/missing': send(MISSING_PAGE, 404) };
  const [site, searxng, port] = await Promise.all([startRecordingServer(routes), startSearxngStandIn(), closedPort()]);
  const server = await startTestServer('sqlite', { ALLOW_PRIVATE_HOSTS: `${site.hostPort},127.0.0.1:${port}`, SEARXNG_URL: searxng.url });
  return {
    server,
    site,
    searxng,
    unreachableUrl: `http://127.0.0.1:${port}/`,
    close: async () => {
      await server.close();
      await Promise.all([site.close(), searxng.close()]);
    },
  };
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
