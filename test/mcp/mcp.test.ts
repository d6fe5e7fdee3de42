import type { IncomingMessage, ServerResponse } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAI_TEST_KEY, type OpenAiStandIn, startOpenAiStandIn } from '../ai/openai-stand-in.js';
import { apiClient } from '../helpers/client.js';
import type { StandIn } from '../helpers/loopback-stand-in.js';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { type BuiltPluckCli, buildPluckCli } from '../helpers/pluck-cli.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { startSearxngStandIn } from '../search/search-stand-ins.js';
import { imageSize } from '../../src/web/image-size.js';
import { pngSize } from '../web/fixtures.js';

const prose = Array.from({ length: 12 }, (_, i) => `Sentence ${i} of the engine notes has enough words to be the article.`).join(' ');
const PAGE = `<!doctype html><html lang="en"><head><title>Engine Notes</title><meta name="description" content="Notes on the engine"></head>
<body><nav><a href="/a">A</a> <a href="/b">B</a></nav><main><article><h1>The Engine</h1><p>${prose}</p>
<p>Price: <span id="price"></span></p></article></main><footer>Footer text</footer>
<script>document.getElementById('price').textContent = '42 pounds';</script></body></html>`;

/** A client of the official MCP SDK connected to Pluck's /mcp with an API key. */
async function connect(baseUrl: string, key: string | undefined): Promise<Client> {
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers } });
  const client = new Client({ name: 'pluck-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const texts = (result: CallToolResult): string[] => result.content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
function textAt(result: CallToolResult, index: number): string {
  const text = texts(result)[index];
  if (text === undefined) throw new Error(`no text part ${index} in ${JSON.stringify(result)}`);
  return text;
}

describe('MCP at /mcp, driven by the official SDK client', () => {
  let site: RecordingServer;
  let searxng: StandIn;
  let openai: OpenAiStandIn;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let key: string;
  let client: Client;

  beforeAll(async () => {
    const page = (name: string) => (_req: IncomingMessage, res: ServerResponse) =>
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<title>Page ${name}</title><main><h1>Page ${name}</h1><p>${prose}</p></main>`);
    const send = (_req: IncomingMessage, res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    [site, searxng, openai] = await Promise.all([startRecordingServer({ '/notes': send, '/a': page('A'), '/b': page('B') }), startSearxngStandIn(), startOpenAiStandIn()]);
    server = await startTestServer('sqlite', {
      ALLOW_PRIVATE_HOSTS: site.hostPort,
      SEARXNG_URL: searxng.url,
      OPENAI_BASE_URL: `${openai.url}/v1`,
      OPENAI_API_KEY: OPENAI_TEST_KEY,
      AI_MODEL: 'stand-in-model',
    });
    api = apiClient(server.baseUrl, null);
    ({ key } = await api.signUpWithKey());
    client = await connect(server.baseUrl, key);
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
    await Promise.all([site?.close(), searxng?.close(), openai?.close()]);
  });

  const balance = async () => (await api.get('/v1/user/credits', key)).body.data.balance as number;

  it('lists its tools with descriptions and JSON schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['crawl', 'extract', 'job_status', 'map', 'scrape', 'screenshot', 'search']);
    const scrape = tools.find((tool) => tool.name === 'scrape')!;
    expect(scrape.description).toContain('markdown');
    expect(scrape.inputSchema.required).toEqual(['url']);
    expect(Object.keys(scrape.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['url', 'formats', 'onlyMainContent', 'waitForSelector']));
  });

  it('scrapes a page, scripts run, as markdown plus the other formats asked for, charged like the API', async () => {
    const before = await balance();
    const result = (await client.callTool({ name: 'scrape', arguments: { url: `${site.origin}/notes`, formats: ['markdown', 'links'], engine: 'browser' } })) as CallToolResult;
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    const [markdown, details] = [textAt(result, 0), textAt(result, 1)];
    expect(markdown).toContain('# The Engine');
    expect(markdown).toContain('Price: 42 pounds');
    expect(markdown).not.toContain('Footer text');
    const rest = JSON.parse(details);
    expect(rest.links).toEqual(expect.arrayContaining([`${site.origin}/a`, `${site.origin}/b`]));
    expect(rest.metadata).toMatchObject({ title: 'Engine Notes', description: 'Notes on the engine', language: 'en', statusCode: 200 });
    expect(before - (await balance())).toBe(rest.creditsCost);
    expect(rest.creditsCost).toBeGreaterThan(0);
  });

  it('answers a screenshot as image content', async () => {
    const result = (await client.callTool({ name: 'screenshot', arguments: { url: `${site.origin}/notes`, viewport: { width: 640, height: 400 } } })) as CallToolResult;
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    const image = result.content.find((part) => part.type === 'image');
    expect(image?.mimeType).toBe('image/png');
    const bytes = Buffer.from(image!.data, 'base64');
    expect(pngSize(bytes)).toEqual({ width: 640, height: 400 });
    expect(JSON.parse(textAt(result, 0)).permanentUrl).toMatch(/^http/);
  });

  it('answers a screenshot at the device scale asked, and says the size of the image sent', async () => {
    for (const type of ['png', 'webp']) {
      const viewport = { width: 640, height: 400, deviceScaleFactor: 2 };
      const result = (await client.callTool({ name: 'screenshot', arguments: { url: `${site.origin}/notes`, viewport, type } })) as CallToolResult;
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
      const image = result.content.find((part) => part.type === 'image')!;
      expect(image.mimeType).toBe(`image/${type}`);
      const bytes = Buffer.from(image.data, 'base64');
      expect(imageSize(bytes), type).toEqual({ width: 1280, height: 800 });
      expect(JSON.parse(textAt(result, 0)).metadata, type).toMatchObject({ width: 1280, height: 800, size: bytes.byteLength });
    }
  });

  it('searches through the configured provider', async () => {
    const result = (await client.callTool({ name: 'search', arguments: { query: 'pluck engine', limit: 3 } })) as CallToolResult;
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    const { results } = JSON.parse(textAt(result, 0));
    expect(results.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThanOrEqual(3);
    expect(results[0]).toEqual(expect.objectContaining({ title: expect.any(String), url: expect.stringMatching(/^https?:/) }));
  });

  it('extracts JSON from a page with the model', async () => {
    openai.reply({ content: JSON.stringify({ price: '42 pounds' }) });
    const result = (await client.callTool({ name: 'extract', arguments: { url: `${site.origin}/notes`, prompt: 'What does it cost?', engine: 'browser' } })) as CallToolResult;
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(JSON.parse(textAt(result, 0))).toEqual({ price: '42 pounds' });
    const sent = openai.chatBodies().at(-1)!;
    expect(sent.messages.map((message) => message.content).join('\n')).toContain('Price: 42 pounds');
  });

  it('maps a site, and crawls it as a job followed with job_status', async () => {
    const mapped = (await client.callTool({ name: 'map', arguments: { url: `${site.origin}/notes` } })) as CallToolResult;
    expect(mapped.isError, JSON.stringify(mapped)).toBeFalsy();
    expect(JSON.parse(textAt(mapped, 0)).urls).toEqual(expect.arrayContaining([`${site.origin}/a`, `${site.origin}/b`]));

    const started = (await client.callTool({ name: 'crawl', arguments: { url: `${site.origin}/notes`, limit: 3, includePaths: ['^/(notes|a|b)$'] } })) as CallToolResult;
    expect(started.isError, JSON.stringify(started)).toBeFalsy();
    const { id } = JSON.parse(textAt(started, 0));
    let status: { status: string; progress: { completed: number }; results: Array<{ url: string; data: { markdown: string } }> };
    const deadline = Date.now() + 20_000;
    do {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = JSON.parse(textAt((await client.callTool({ name: 'job_status', arguments: { id, limit: 10 } })) as CallToolResult, 0));
    } while (status.status !== 'completed' && Date.now() < deadline);
    expect(status.status).toBe('completed');
    expect(status.progress.completed).toBe(3);
    const pageA = status.results.find((result) => result.url === `${site.origin}/a`);
    expect(pageA?.data.markdown).toContain('# Page A');

    const stranger = await api.signUpWithKey();
    const elsewhere = await connect(server.baseUrl, stranger.key);
    const notTheirs = (await elsewhere.callTool({ name: 'job_status', arguments: { id } })) as CallToolResult;
    expect(notTheirs.isError).toBe(true);
    expect(textAt(notTheirs, 0)).toMatch(/^NOT_FOUND \(404\)/);
    await elsewhere.close();
  });

  it('answers failures as tool errors naming the API code, and charges nothing for them', async () => {
    const before = await balance();
    const refused = (await client.callTool({ name: 'scrape', arguments: { url: 'http://169.254.169.254/latest/meta-data' } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(textAt(refused, 0)).toMatch(/^URL_NOT_ALLOWED \(400\)/);

    const invalid = (await client.callTool({ name: 'extract', arguments: { url: `${site.origin}/notes` } })) as CallToolResult;
    expect(invalid.isError).toBe(true);
    expect(textAt(invalid, 0)).toContain('VALIDATION_ERROR');

    const badArguments = (await client.callTool({ name: 'scrape', arguments: { url: 42 } })) as CallToolResult;
    expect(badArguments.isError).toBe(true);

    // A pattern that backtracks for long would run against every URL the crawl finds.
    const slowPattern = (await client.callTool({ name: 'crawl', arguments: { url: `${site.origin}/notes`, includePaths: ['(a+)+$'] } })) as CallToolResult;
    expect(slowPattern.isError).toBe(true);
    expect(textAt(slowPattern, 0)).toContain('At most 2 repetitions');
    expect(await balance()).toBe(before);
  });

  it('refuses a client without a valid key, GET streams, and oversized batches', async () => {
    await expect(connect(server.baseUrl, undefined)).rejects.toThrow(/UNAUTHORIZED/);
    await expect(connect(server.baseUrl, 'pk_not_a_real_key')).rejects.toThrow(/UNAUTHORIZED/);

    const get = await fetch(`${server.baseUrl}/mcp`, { headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');

    const batch = Array.from({ length: 11 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'tools/list' }));
    const tooMany = await fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(batch),
    });
    expect(tooMany.status).toBe(400);
  });

  it('serves the same tools to a desktop agent through the stdio bridge (pluck mcp)', async () => {
    const cli: BuiltPluckCli = await buildPluckCli();
    const bridge = (apiKey: string) =>
      new StdioClientTransport({
        command: process.execPath,
        args: [cli.entry, 'mcp'],
        env: { PATH: process.env.PATH ?? '', PLUCK_URL: server.baseUrl, PLUCK_API_KEY: apiKey },
        stderr: 'pipe',
      });
    const bridged = new Client({ name: 'desktop-agent', version: '1.0.0' });
    const transport = bridge(key);
    await bridged.connect(transport);
    try {
      const { tools } = await bridged.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['scrape', 'crawl']));
      const result = (await bridged.callTool({ name: 'scrape', arguments: { url: `${site.origin}/notes` } })) as CallToolResult;
      // engine auto: the notes show their text without scripts, which are not run.
      expect(textAt(result, 0)).toContain('Sentence 11 of the engine notes');
      expect(textAt(result, 0)).not.toContain('Price: 42 pounds');
    } finally {
      await bridged.close();
    }

    const refused = new Client({ name: 'desktop-agent', version: '1.0.0' });
    await expect(refused.connect(bridge('pk_wrong'))).rejects.toThrow(/UNAUTHORIZED/);
    await refused.close();
    await cli.remove();
  });
});
