import { describe, expect, it } from 'vitest';
import { AiExtractor, OPENAI_BASE_URL_DEFAULT, OPENAI_MODEL_DEFAULT, parseJsonObject } from '../../src/ai/ai-extract.service.js';
import { buildExtractionPrompt } from '../../src/ai/extraction-prompt.js';
import { schemaViolations } from '../../src/ai/schema-check.js';
import { estimateTokens, TRIM_MARKER, trimToTokens } from '../../src/ai/token-budget.js';
import { loadConfig } from '../../src/config.js';
import { AppError } from '../../src/errors/app-error.js';
import { statusOf } from '../../src/http/error-status.js';

const aiConfig = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', ...env }).ai;

function notConfigured(env: Record<string, string>): AppError {
  try {
    new AiExtractor(aiConfig(env)).ensureConfigured();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected PROVIDER_NOT_CONFIGURED');
}

describe('AI provider configuration', () => {
  it('names AI_MODEL when a self-hosted server is set without a model', () => {
    const error = notConfigured({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' });
    expect(error.code).toBe('PROVIDER_NOT_CONFIGURED');
    expect(statusOf(error.code)).toBe(503);
    expect(error.message).toContain('AI_MODEL');
    expect(error.details).toEqual({ variables: ['AI_MODEL'] });
  });

  it("uses OpenAI's API and a default model when only OPENAI_API_KEY is set", () => {
    const extractor = new AiExtractor(aiConfig({ OPENAI_API_KEY: 'sk-x' }));
    expect(() => extractor.ensureConfigured()).not.toThrow();
    expect(extractor.variant.model).toBe(OPENAI_MODEL_DEFAULT);
    expect(OPENAI_BASE_URL_DEFAULT).toMatch(/^https:\/\/.+\/v1$/);
  });

  it('defaults to 5 credits and an 8000-token budget, and refuses a budget under 500', () => {
    const config = loadConfig({ NODE_ENV: 'test' });
    expect(config.web.creditCosts['ai-extract']).toBe(5);
    expect(config.ai.maxInputTokens).toBe(8000);
    expect(() => loadConfig({ AI_MAX_INPUT_TOKENS: '100' })).toThrow(/AI_MAX_INPUT_TOKENS/);
    expect(() => loadConfig({ OPENAI_BASE_URL: 'ftp://models.internal' })).toThrow(/OPENAI_BASE_URL/);
  });
});

describe('token budget', () => {
  it('estimates Latin text at about four characters a token and other scripts at one a character', () => {
    expect(estimateTokens('abcdefgh')).toBe(2);
    expect(estimateTokens('水水水')).toBe(3);
    expect(estimateTokens('')).toBe(0);
  });

  it('leaves text within the budget alone', () => {
    expect(trimToTokens('short text', 100)).toEqual({ text: 'short text', trimmed: false });
  });

  it('cuts at a paragraph break near the limit and marks the cut', () => {
    const paragraphs = Array.from({ length: 50 }, (_, i) => `Paragraph ${i} has a few words in it.`).join('\n\n');
    const { text, trimmed } = trimToTokens(paragraphs, 200);
    expect(trimmed).toBe(true);
    expect(text.endsWith(TRIM_MARKER)).toBe(true);
    expect(estimateTokens(text)).toBeLessThanOrEqual(200);
    expect(text.slice(0, -TRIM_MARKER.length)).toMatch(/in it\.$/);
    expect(estimateTokens(text)).toBeGreaterThan(150);
  });

  it('never splits a surrogate pair', () => {
    const { text } = trimToTokens('😀'.repeat(500), 100);
    expect(text.slice(0, -TRIM_MARKER.length)).toBe('😀'.repeat(100 - estimateTokens(TRIM_MARKER)));
  });

  it('fits the whole prompt, not only the page, into the budget', () => {
    const page = { url: 'https://example.com/', title: 'T', markdown: 'word '.repeat(20_000) };
    const ask = { prompt: 'Summarise. '.repeat(100), responseType: 'json' as const };
    const { messages, inputTrimmed } = buildExtractionPrompt(ask, page, 2000);
    expect(inputTrimmed).toBe(true);
    const total = messages.reduce((sum, m) => sum + estimateTokens(m.content), 0);
    expect(total).toBeLessThanOrEqual(2000);
    expect(total).toBeGreaterThan(1800);
  });
});

describe('reading the model answer', () => {
  it.each([
    ['{"a":1}', { object: { a: 1 } }],
    ['  ```json\n{"a":1}\n```  ', { object: { a: 1 } }],
    ['```\n{"a":[1]}\n```', { object: { a: [1] } }],
    ['Sure! {"a":1}', { problem: 'the answer was not valid JSON' }],
    ['[1]', { problem: 'the answer was JSON array, not an object' }],
    ['null', { problem: 'the answer was JSON null, not an object' }],
    ['"text"', { problem: 'the answer was JSON string, not an object' }],
    ['   ', { problem: 'the answer was empty' }],
  ])('%j -> %j', (answer, expected) => {
    expect(parseJsonObject(answer)).toEqual(expected);
  });
});

describe('schema check of the answer', () => {
  it('names where and how the object breaks the schema, and nothing when it follows it', () => {
    const schema = {
      type: 'object',
      properties: { price: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } } },
      required: ['price'],
    };
    expect(schemaViolations(schema, { price: 4.5, tags: ['a'] })).toEqual([]);
    expect(schemaViolations(schema, { tags: [1] })).toEqual([
      '/: Instance does not have required property "price".',
      '/tags/0: Instance type "number" is invalid. Expected "string".',
    ]);
  });

  it('leaves the regular-expression keywords out, and what patternProperties allowed stays allowed', () => {
    // Were these run, a caller's pattern would judge (and could stall on) text a page shaped.
    const schema = {
      type: 'object',
      properties: { code: { type: 'string', pattern: '^(a+)+$' }, pattern: { type: 'string' } },
      patternProperties: { '^x-': { type: 'number' } },
      additionalProperties: false,
      required: ['pattern'],
    };
    expect(schemaViolations(schema, { code: `${'a'.repeat(40)}!`, pattern: 'p', 'x-extra': 'text' })).toEqual([]);
    // A property named "pattern" is still a property: its own schema and `required` hold.
    expect(schemaViolations(schema, { pattern: 3 })).toEqual(['/pattern: Instance type "number" is invalid. Expected "string".']);
  });

  it('takes the answer as it is when the schema cannot be checked here (a $ref to another document)', () => {
    expect(schemaViolations({ type: 'object', properties: { a: { $ref: 'https://schemas.example/a.json' } } }, { a: 1 })).toBeUndefined();
  });
});
