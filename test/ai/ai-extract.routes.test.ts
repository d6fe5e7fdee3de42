import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateTokens, TRIM_MARKER } from '../../src/ai/token-budget.js';
import { apiClient } from '../helpers/client.js';
import type { RecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { FIRST_MARKER, LAST_MARKER, PRODUCT_SENTENCE, startAiFixtureSite } from './fixtures.js';
import { OPENAI_TEST_KEY, type OpenAiStandIn, startOpenAiStandIn } from './openai-stand-in.js';

const MODEL = 'llama-3.1-8b-instruct';
const AI_TIMEOUT_MS = 1500;

describe('POST /v1/web/ai-extract against an OpenAI-compatible stand-in', () => {
  let site: RecordingServer;
  let openai: OpenAiStandIn;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let key: string;
  let userId: string;

  beforeAll(async () => {
    [site, openai] = await Promise.all([startAiFixtureSite(), startOpenAiStandIn()]);
    server = await startTestServer('sqlite', {
      ALLOW_PRIVATE_HOSTS: site.hostPort,
      OPENAI_BASE_URL: `${openai.url}/v1`,
      OPENAI_API_KEY: OPENAI_TEST_KEY,
      AI_MODEL: MODEL,
      AI_TIMEOUT_MS: String(AI_TIMEOUT_MS),
    });
    api = apiClient(server.baseUrl);
    ({ key, userId } = await api.signUpWithKey());
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all([site?.close(), openai?.close()]);
  });

  const balance = async () => (await api.get('/v1/user/credits', key)).body.data.balance as number;
  const product = () => `${site.origin}/product`;
  /** maxAge 0: every call reaches the model, so each test sees its own scripted reply. */
  const extract = (body: Record<string, unknown>) => api.post('/v1/web/ai-extract', { url: product(), maxAge: 0, ...body }, key);

  it("sends the rendered page's main content and the prompt to the model, and answers its JSON", async () => {
    const before = await balance();
    openai.reply({ content: '{"price": 42, "currency": "EUR"}', usage: { prompt_tokens: 321, completion_tokens: 12 } });
    const res = await extract({ prompt: 'What does the kettle cost?' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.creditsCost).toBe(5);
    expect(res.body.data.extracted).toEqual({ price: 42, currency: 'EUR' });
    expect(res.body.data.text).toBe('{"price": 42, "currency": "EUR"}');
    expect(res.body.data.metadata).toMatchObject({
      url: product(),
      finalUrl: product(),
      title: 'Zephyr-9 Kettle',
      model: MODEL,
      responseType: 'json',
      extractionType: 'prompt',
      fieldsExtracted: 2,
      inputTokens: 321,
      outputTokens: 12,
      inputTrimmed: false,
      attempts: 1,
    });
    expect(Number.isNaN(Date.parse(res.body.data.metadata.timestamp))).toBe(false);

    const sent = openai.chatBodies().at(-1)!;
    const call = openai.requests.at(-1)!;
    expect(call.url.pathname).toBe('/v1/chat/completions');
    expect(call.headers.authorization).toBe(`Bearer ${OPENAI_TEST_KEY}`);
    expect(sent.model).toBe(MODEL);
    expect(sent.response_format).toEqual({ type: 'json_object' });
    expect(sent.messages.map((m) => m.role)).toEqual(['system', 'user']);
    // Text the page's script rendered reached the model, with the caller's prompt.
    expect(sent.messages[1]!.content).toContain(PRODUCT_SENTENCE);
    expect(sent.messages[1]!.content).toContain('What does the kettle cost?');
    expect(sent.messages[0]!.content).toMatch(/JSON object/);

    expect(await balance()).toBe(before - 5);
    const ledger = (await server.ctx.credits.ledger(userId)).filter((e) => e.reason === 'web:ai-extract');
    expect(ledger.at(-1)?.delta).toBe(-5);
  });

  it('sends a schema as response_format json_schema, and instructions in the system message', async () => {
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' }, price: { type: 'number' }, capacityLitres: { type: 'number' } },
      required: ['name', 'price'],
    };
    openai.reply({ content: '{"name":"Zephyr-9 Kettle","price":42,"capacityLitres":1.7}' });
    const res = await extract({ schema, instructions: 'Prices are numbers without currency.' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.extracted).toEqual({ name: 'Zephyr-9 Kettle', price: 42, capacityLitres: 1.7 });
    expect(res.body.data.metadata).toMatchObject({ extractionType: 'schema', responseType: 'json', fieldsExtracted: 3 });
    const sent = openai.chatBodies().at(-1)!;
    expect(sent.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'extraction', schema, strict: false } });
    expect(sent.messages[0]!.content).toContain('Prices are numbers without currency.');
    expect(sent.messages[0]!.content).toContain(JSON.stringify(schema));
    expect(sent.messages[1]!.content).toContain(PRODUCT_SENTENCE);
  });

  it('checks the answer against the schema: one retry naming the violations, then 502 AI_INVALID_JSON, refunded', async () => {
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' }, price: { type: 'number' } },
      required: ['name', 'price'],
      additionalProperties: false,
    };
    const calls = openai.requests.length;
    openai.reply({ content: '{"name":"Zephyr-9 Kettle","price":"42 EUR"}' }, { content: '{"name":"Zephyr-9 Kettle","price":42}' });
    const fixed = await extract({ schema });
    expect(fixed.status, fixed.text).toBe(200);
    expect(fixed.body.data.extracted).toEqual({ name: 'Zephyr-9 Kettle', price: 42 });
    expect(fixed.body.data.metadata.attempts).toBe(2);
    const retry = openai.chatBodies().at(-1)!;
    expect(retry.messages.at(-1)!.content).toContain('/price: Instance type "string" is invalid. Expected "number".');
    expect(openai.requests.length).toBe(calls + 2);

    const before = await balance();
    openai.reply({ content: '{"name":"Zephyr-9 Kettle"}' }, { content: '{"name":"Zephyr-9 Kettle","price":42,"colour":"red"}' });
    const res = await extract({ schema });
    expect(res.status, res.text).toBe(502);
    expect(res.body.error.code).toBe('AI_INVALID_JSON');
    expect(res.body.error.message).toContain('does not follow the schema');
    expect(res.body.error.schemaViolations).toEqual(['/: Property "colour" does not match additional properties schema.']);
    expect(await balance()).toBe(before);
  });

  it('responseType text asks for no JSON and fills text only', async () => {
    openai.reply({ content: 'A steel kettle for 42 euros.', model: 'served-model-name' });
    const res = await extract({ prompt: 'Summarise in one sentence.', responseType: 'text' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.text).toBe('A steel kettle for 42 euros.');
    expect(res.body.data.extracted).toEqual({});
    expect(res.body.data.metadata).toMatchObject({ responseType: 'text', extractionType: 'prompt', fieldsExtracted: 0, model: 'served-model-name' });
    expect(openai.chatBodies().at(-1)!.response_format).toBeUndefined();
  });

  it('accepts a JSON object wrapped in a markdown code fence', async () => {
    openai.reply({ content: '```json\n{"price": 42}\n```' });
    const res = await extract({ prompt: 'Price?' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.extracted).toEqual({ price: 42 });
  });

  it('retries once when the answer is not JSON, showing the model its answer, and sums the usage', async () => {
    const calls = openai.requests.length;
    openai.reply(
      { content: 'The kettle costs 42 euros.', usage: { prompt_tokens: 100, completion_tokens: 7 } },
      { content: '{"price":42}', usage: { prompt_tokens: 130, completion_tokens: 5 } },
    );
    const res = await extract({ prompt: 'Price?' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.extracted).toEqual({ price: 42 });
    expect(res.body.data.metadata).toMatchObject({ attempts: 2, inputTokens: 230, outputTokens: 12 });
    expect(openai.requests.length).toBe(calls + 2);
    const retry = openai.chatBodies().at(-1)!;
    expect(retry.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(retry.messages[2]!.content).toBe('The kettle costs 42 euros.');
    expect(retry.messages[3]!.content).toMatch(/not valid JSON/);
  });

  it('answers 502 AI_INVALID_JSON after a second unusable answer, and refunds the credits', async () => {
    const before = await balance();
    const calls = openai.requests.length;
    openai.reply({ content: 'no json here' }, { content: '[1, 2, 3]' });
    const res = await extract({ prompt: 'Price?' });
    expect(res.status, res.text).toBe(502);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe('AI_INVALID_JSON');
    expect(res.body.error.message).toMatch(/array, not an object/);
    expect(openai.requests.length).toBe(calls + 2);
    expect(await balance()).toBe(before);
  });

  it('answers 502 PROVIDER_ERROR when the provider fails, without its address or key, and refunds', async () => {
    const before = await balance();
    openai.reply({ status: 500 });
    const res = await extract({ prompt: 'Price?' });
    expect(res.status, res.text).toBe(502);
    expect(res.body.error.code).toBe('PROVIDER_ERROR');
    expect(res.body.error.message).toContain('HTTP 500');
    expect(res.text).not.toContain('127.0.0.1');
    expect(res.text).not.toContain(OPENAI_TEST_KEY);
    expect(server.logs.join('\n')).not.toContain(OPENAI_TEST_KEY);
    expect(await balance()).toBe(before);
  });

  it('answers 503 PROVIDER_RATE_LIMITED with the provider\'s Retry-After on a 429, and refunds', async () => {
    const before = await balance();
    openai.reply({ status: 429, retryAfter: '20' });
    const res = await extract({ prompt: 'Price?' });
    expect(res.status, res.text).toBe(503);
    expect(res.body.error.code).toBe('PROVIDER_RATE_LIMITED');
    expect(res.headers.get('retry-after')).toBe('20');
    expect(res.text).not.toContain('127.0.0.1');
    expect(await balance()).toBe(before);

    // A wait past an hour is capped: the caller may always try sooner.
    openai.reply({ status: 429, retryAfter: '86400' });
    const capped = await extract({ prompt: 'Price?' });
    expect(capped.headers.get('retry-after')).toBe('3600');
  });

  it('answers 502 PROVIDER_ERROR when the model refuses', async () => {
    openai.reply({ content: null, refusal: 'I cannot help with that.' });
    const res = await extract({ prompt: 'Price?' });
    expect(res.status, res.text).toBe(502);
    expect(res.body.error.code).toBe('PROVIDER_ERROR');
    expect(res.body.error.message).toContain('I cannot help with that.');
  });

  it('answers 504 PROVIDER_TIMEOUT when the provider does not answer within AI_TIMEOUT_MS', async () => {
    const before = await balance();
    openai.reply({ delayMs: AI_TIMEOUT_MS + 2000 });
    const started = Date.now();
    const res = await extract({ prompt: 'Price?' });
    expect(res.status, res.text).toBe(504);
    expect(res.body.error.code).toBe('PROVIDER_TIMEOUT');
    expect(Date.now() - started).toBeLessThan(AI_TIMEOUT_MS + 1900);
    expect(await balance()).toBe(before);
  });

  it('trims a page over AI_MAX_INPUT_TOKENS, keeps its start, and says so', async () => {
    openai.reply({ content: '{"topic":"water supply"}' });
    const res = await api.post('/v1/web/ai-extract', { url: `${site.origin}/long`, prompt: 'What is the report about?' }, key);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.metadata.inputTrimmed).toBe(true);
    const sent = openai.chatBodies().at(-1)!;
    const user = sent.messages[1]!.content;
    expect(user).toContain(FIRST_MARKER);
    expect(user).not.toContain(LAST_MARKER);
    expect(user).toContain(TRIM_MARKER.trim());
    expect(user).toContain('What is the report about?');
    const sentTokens = sent.messages.reduce((sum, m) => sum + estimateTokens(m.content), 0) + estimateTokens(JSON.stringify(sent.response_format));
    expect(sentTokens).toBeLessThanOrEqual(8000);
    expect(sentTokens).toBeGreaterThan(7000);
  });

  it('serves a repeated request from the cache without asking the model, still charging it', async () => {
    const body = { url: product(), prompt: 'Cache me?' };
    openai.reply({ content: '{"cached":false}' });
    const first = await api.post('/v1/web/ai-extract', body, key);
    expect(first.status, first.text).toBe(200);
    const calls = openai.requests.length;
    const before = await balance();
    const second = await api.post('/v1/web/ai-extract', body, key);
    expect(second.status, second.text).toBe(200);
    expect(second.headers.get('x-cache')).toBe('HIT');
    expect(second.body.data).toEqual(first.body.data);
    expect(openai.requests.length).toBe(calls);
    expect(await balance()).toBe(before - 5);

    const otherPrompt = await api.post('/v1/web/ai-extract', { ...body, prompt: 'Cache me too?' }, key);
    expect(otherPrompt.status, otherPrompt.text).toBe(200);
    expect(otherPrompt.headers.get('x-cache')).toBe('MISS');
    expect(openai.requests.length).toBe(calls + 1);
  });

  it.each([
    ['none of prompt, instructions, schema', {}, [], /At least one of prompt, instructions or schema/],
    ['a blank prompt only', { prompt: '   ' }, ['prompt'], undefined],
    ['a schema that is an array', { schema: [{ type: 'string' }] }, ['schema'], undefined],
    ['a schema that is a string', { schema: '{"type":"object"}' }, ['schema'], undefined],
    ['a schema of another type', { schema: { type: 'array', items: { type: 'string' } } }, ['schema'], /type "object"/],
    ['an empty schema', { schema: {} }, ['schema'], /empty/],
    ['a schema over 32 KiB', { schema: { type: 'object', description: 'x'.repeat(33 * 1024) } }, ['schema'], /at most 32768 bytes/],
    ['a schema with responseType text', { schema: { type: 'object' }, responseType: 'text' }, ['schema'], /responseType json/],
    ['an unknown responseType', { prompt: 'q', responseType: 'xml' }, ['responseType'], undefined],
    ['a prompt over 20 000 characters', { prompt: 'x'.repeat(20_001) }, ['prompt'], undefined],
    ['a prompt leaving no room for the page', { prompt: '水'.repeat(9000) }, [], /AI_MAX_INPUT_TOKENS/],
  ])('answers 422 for %s, charging nothing and asking no model', async (_name, fields, path, message) => {
    const before = await balance();
    const calls = openai.requests.length;
    const res = await api.post('/v1/web/ai-extract', { url: product(), ...fields }, key);
    expect(res.status, res.text).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    const issue = res.body.error.issues.find((i: { path: unknown[] }) => JSON.stringify(i.path) === JSON.stringify(path));
    expect(issue, res.text).toBeDefined();
    if (message) expect(issue.message).toMatch(message);
    expect(openai.requests.length).toBe(calls);
    expect(await balance()).toBe(before);
  });

  it('refuses callers without credentials', async () => {
    const res = await api.post('/v1/web/ai-extract', { url: product(), prompt: 'q' });
    expect(res.status, res.text).toBe(401);
  });
});

describe('POST /v1/web/ai-extract without a configured provider', () => {
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    api = apiClient(server.baseUrl);
    ({ key } = await api.signUpWithKey());
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers 503 PROVIDER_NOT_CONFIGURED naming the variables, before loading or charging anything', async () => {
    const before = (await api.get('/v1/user/credits', key)).body.data.balance;
    const res = await api.post('/v1/web/ai-extract', { url: 'http://127.0.0.1:9/never-loaded', prompt: 'q' }, key);
    expect(res.status, res.text).toBe(503);
    expect(res.body.error.code).toBe('PROVIDER_NOT_CONFIGURED');
    expect(res.body.error.message).toContain('OPENAI_API_KEY');
    expect(res.body.error.message).toContain('OPENAI_BASE_URL');
    expect(res.body.error.variables).toEqual(['OPENAI_API_KEY', 'OPENAI_BASE_URL']);
    expect((await api.get('/v1/user/credits', key)).body.data.balance).toBe(before);
    expect(server.ctx.browser.stats().browserPid).toBeUndefined();
  });

  it('describes the operation in /openapi.json', async () => {
    const res = await api.get('/openapi.json');
    expect(res.status, res.text).toBe(200);
    const operation = res.body.paths['/v1/web/ai-extract']?.post;
    expect(operation, 'ai-extract missing from the API description').toBeDefined();
    const body = operation.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(['url', 'waitTime', 'prompt', 'instructions', 'schema', 'responseType']));
    expect(body.properties.responseType).toMatchObject({ enum: ['json', 'text'], default: 'json' });
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '422', '502', '503', '504']));
  });
});
