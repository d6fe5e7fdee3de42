import type { Logger } from 'pino';
import type { AiConfig } from '../config.js';
import { AppError } from '../errors/app-error.js';
import { validationError } from '../errors/validation-error.js';
import { describeUpstreamFailure, UpstreamError } from '../providers/bounded-fetch.js';
import { rateLimitedError } from '../providers/provider-errors.js';
import { type ChatCompletion, ChatCompletionsClient, type ChatMessage, ModelRefusal, type ResponseFormat } from './chat-completions-client.js';
import { schemaViolations } from './schema-check.js';
import { buildExtractionPrompt, type ExtractionAsk, fixedTokens, type PageText, retryMessages } from './extraction-prompt.js';

/** Used when only OPENAI_API_KEY is set. */
export const OPENAI_BASE_URL_DEFAULT = 'https://api.openai.com/v1';
export const OPENAI_MODEL_DEFAULT = 'gpt-4o-mini';

/** A prompt, instructions and schema that leave the page less than this are refused up front. */
const MIN_PAGE_TOKENS = 200;
/** One retry after an answer that is not a JSON object, or not one that follows the schema. */
const MAX_JSON_ATTEMPTS = 2;
/** How much of an unusable answer is shown back to the model on the retry. */
const MAX_ECHOED_ANSWER = 4000;

export interface AiExtraction {
  /** The parsed JSON object; `{}` for responseType `text`. */
  extracted: Record<string, unknown>;
  /** The model's raw answer. */
  text: string;
  model: string;
  extractionType: 'prompt' | 'schema';
  /** Summed over attempts: a retry is paid for too. */
  inputTokens: number;
  outputTokens: number;
  inputTrimmed: boolean;
  attempts: number;
}

type Setup = { client: ChatCompletionsClient } | { missing: string; variables: string[] };

/**
 * AI extraction over an OpenAI-compatible server: builds the messages from the page and the
 * caller's ask, calls the model, reads its answer. Provider failures become API errors here
 * and nowhere else.
 */
export class AiExtractor {
  private readonly setup: Setup;

  constructor(private readonly settings: AiConfig) {
    this.setup = resolveSetup(settings);
  }

  /** 503 PROVIDER_NOT_CONFIGURED naming what to set. Checked before anything is charged. */
  ensureConfigured(): void {
    this.configuredClient();
  }

  /** 422 when the prompt, instructions and schema alone leave no room for the page. */
  ensureRoomForPage(ask: ExtractionAsk, url: string): void {
    const fixed = fixedTokens(ask, { url, title: '' });
    if (fixed + MIN_PAGE_TOKENS <= this.settings.maxInputTokens) return;
    const message = `prompt, instructions and schema take about ${fixed} tokens, leaving too little of AI_MAX_INPUT_TOKENS (${this.settings.maxInputTokens}) for the page`;
    throw validationError([{ code: 'custom', path: [], message }]);
  }

  /** Cache identity of the answers this extractor gives: another model or budget, another answer. */
  get variant() {
    return { model: 'client' in this.setup ? this.setup.client.model : '', maxInputTokens: this.settings.maxInputTokens };
  }

  async extract(ask: ExtractionAsk, page: PageText, log: Logger, signal?: AbortSignal): Promise<AiExtraction> {
    const client = this.configuredClient();
    const prompt = buildExtractionPrompt(ask, page, this.settings.maxInputTokens);
    const result = {
      extractionType: ask.schema ? ('schema' as const) : ('prompt' as const),
      inputTrimmed: prompt.inputTrimmed,
      inputTokens: 0,
      outputTokens: 0,
    };
    let messages = prompt.messages;
    for (let attempt = 1; ; attempt++) {
      const completion = await this.complete(client, messages, prompt.responseFormat, log, signal);
      result.inputTokens += completion.inputTokens;
      result.outputTokens += completion.outputTokens;
      const answer = { ...result, text: completion.content, model: completion.model, attempts: attempt };
      if (ask.responseType === 'text') return { ...answer, extracted: {} };
      const parsed = readAnswer(completion.content, ask.schema);
      if ('object' in parsed) return { ...answer, extracted: parsed.object };
      log.warn({ attempt, problem: parsed.problem, finishReason: completion.finishReason }, 'model answer was not a usable JSON object');
      if (attempt >= MAX_JSON_ATTEMPTS) {
        throw new AppError('AI_INVALID_JSON', `The model did not answer with a usable JSON object after ${attempt} attempts (${parsed.problem})`, {
          details: { attempts: attempt, ...(parsed.violations ? { schemaViolations: parsed.violations } : {}) },
        });
      }
      messages = retryMessages(prompt.messages, completion.content.slice(0, MAX_ECHOED_ANSWER), parsed.problem);
    }
  }

  private configuredClient(): ChatCompletionsClient {
    if ('client' in this.setup) return this.setup.client;
    throw new AppError('PROVIDER_NOT_CONFIGURED', `AI extraction is not configured: ${this.setup.missing}`, {
      details: { variables: this.setup.variables },
    });
  }

  private async complete(client: ChatCompletionsClient, messages: ChatMessage[], format: ResponseFormat, log: Logger, signal?: AbortSignal): Promise<ChatCompletion> {
    try {
      return await client.complete(messages, format, signal);
    } catch (error) {
      if (error instanceof ModelRefusal) {
        throw new AppError('PROVIDER_ERROR', `The model refused to answer: ${error.refusal.slice(0, 500)}`, { cause: error });
      }
      if (!(error instanceof UpstreamError)) throw error;
      const reason = describeUpstreamFailure(error);
      log.warn({ reason, err: error }, 'AI provider failed');
      const limited = rateLimitedError('The AI provider', [error]);
      if (limited) throw limited;
      if (error.failure === 'timeout') {
        throw new AppError('PROVIDER_TIMEOUT', `The AI provider did not answer within ${this.settings.timeoutMs} ms`, { cause: error });
      }
      throw new AppError('PROVIDER_ERROR', `The AI provider failed: ${reason}`, { cause: error, details: { reason } });
    }
  }
}

function resolveSetup(settings: AiConfig): Setup {
  const { baseUrl, apiKey, model, timeoutMs } = settings;
  if (!baseUrl && !apiKey) {
    return {
      missing: 'set OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL (an OpenAI-compatible server: vLLM, Ollama, llama.cpp)',
      variables: ['OPENAI_API_KEY', 'OPENAI_BASE_URL'],
    };
  }
  // Another server has other models: guessing OpenAI's name there would only fail per request.
  if (baseUrl && !model) return { missing: 'set AI_MODEL to a model OPENAI_BASE_URL serves', variables: ['AI_MODEL'] };
  return {
    client: new ChatCompletionsClient({
      baseUrl: baseUrl ?? OPENAI_BASE_URL_DEFAULT,
      apiKey,
      model: model ?? OPENAI_MODEL_DEFAULT,
      timeoutMs,
    }),
  };
}

type ReadAnswer = { object: Record<string, unknown> } | { problem: string; violations?: string[] };

/** The answer's JSON object, when there is one and it follows the caller's schema (if any). */
function readAnswer(answer: string, schema: Record<string, unknown> | undefined): ReadAnswer {
  const parsed = parseJsonObject(answer);
  if (!('object' in parsed) || !schema) return parsed;
  const violations = schemaViolations(schema, parsed.object);
  if (!violations || violations.length === 0) return parsed;
  return { problem: `the object does not follow the schema: ${violations.join('; ')}`, violations };
}

/**
 * The answer as a JSON object. Models without enforced JSON output like to wrap it in a
 * markdown code fence; that much is forgiven.
 */
export function parseJsonObject(answer: string): { object: Record<string, unknown> } | { problem: string } {
  const fenced = /^\s*```[a-zA-Z]*\s*\n([\s\S]*?)\n?```\s*$/.exec(answer);
  const body = (fenced ? fenced[1]! : answer).trim();
  if (body === '') return { problem: 'the answer was empty' };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { problem: 'the answer was not valid JSON' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { problem: `the answer was JSON ${Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value}, not an object` };
  }
  return { object: value as Record<string, unknown> };
}
