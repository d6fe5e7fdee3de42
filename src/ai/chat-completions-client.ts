import { fetchJson, UpstreamError } from '../providers/bounded-fetch.js';

/**
 * An OpenAI-compatible chat completions client speaking the plain documented wire format:
 * `POST {base}/chat/completions` with `{model, messages, response_format}`, answered by
 * `{model, choices: [{message: {content, refusal?}, finish_reason}], usage: {prompt_tokens,
 * completion_tokens}}`. OpenAI, vLLM, Ollama (`/v1`) and llama.cpp's server all speak it.
 *
 * Why not the `ai` SDK: its OpenAI provider defaults to the Responses API, which the
 * self-hosted servers implement only in part, and it brings its own retries and unbounded
 * reads. Chat completions is what all four share; going through `fetchJson` gives the same
 * time limit, size cap and failure taxonomy as every other provider call.
 *
 * Egress: like the search providers and YouTube, the base URL is operator configuration, not
 * caller input, so these calls do not pass the caller-URL egress policy (a local Ollama or vLLM
 * on a private address is the normal case). Callers only ever influence the request *body*
 * (page text, prompt); the destination is fixed, and redirects are never followed.
 */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** What kind of answer to ask for; `text` sends no `response_format` at all. */
export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; json_schema: { name: string; schema: Record<string, unknown>; strict: boolean } };

export interface ChatCompletion {
  content: string;
  /** The model the server says answered (falls back to the one asked for). */
  model: string;
  finishReason: string;
  /** From the server's `usage`; 0 when it reports none. */
  inputTokens: number;
  outputTokens: number;
}

export interface ChatCompletionsSettings {
  /** e.g. `https://api.openai.com/v1`, `http://localhost:11434/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer`; local servers usually need none. */
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
}

/** The model declined to answer (OpenAI's `message.refusal` under structured outputs). */
export class ModelRefusal extends Error {
  constructor(readonly refusal: string) {
    super(`the model refused: ${refusal}`);
    this.name = 'ModelRefusal';
  }
}

/** A completion is a few kilobytes; this only stops a broken server from flooding memory. */
const MAX_COMPLETION_BYTES = 4 * 1024 * 1024;

export class ChatCompletionsClient {
  private readonly endpoint: URL;

  constructor(private readonly settings: ChatCompletionsSettings) {
    this.endpoint = new URL(`${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`);
  }

  get model(): string {
    return this.settings.model;
  }

  /** One completion; throws UpstreamError (transport, status, malformed answer) or ModelRefusal. */
  async complete(messages: ChatMessage[], responseFormat: ResponseFormat, signal?: AbortSignal): Promise<ChatCompletion> {
    const body = {
      model: this.settings.model,
      messages,
      ...(responseFormat.type === 'text' ? {} : { response_format: responseFormat }),
      stream: false,
    };
    const answer = await fetchJson({
      url: this.endpoint,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.settings.apiKey ? { authorization: `Bearer ${this.settings.apiKey}` } : {}),
      },
      body: JSON.stringify(body),
      timeoutMs: this.settings.timeoutMs,
      maxBytes: MAX_COMPLETION_BYTES,
      signal,
    });
    return readCompletion(answer, this.settings.model);
  }
}

function readCompletion(answer: unknown, requestedModel: string): ChatCompletion {
  const record = (answer ?? {}) as { model?: unknown; choices?: unknown; usage?: unknown };
  const choice = Array.isArray(record.choices) ? (record.choices[0] as Record<string, unknown> | undefined) : undefined;
  const message = choice?.message as { content?: unknown; refusal?: unknown } | undefined;
  if (!message) throw new UpstreamError('the chat completion has no choices[0].message', 'invalid_body');
  if (typeof message.refusal === 'string' && message.refusal.trim() !== '') throw new ModelRefusal(message.refusal);
  const content = contentText(message.content);
  if (content === undefined) throw new UpstreamError('the chat completion message has no text content', 'invalid_body');
  const usage = (record.usage ?? {}) as { prompt_tokens?: unknown; completion_tokens?: unknown };
  return {
    content,
    model: typeof record.model === 'string' && record.model !== '' ? record.model : requestedModel,
    finishReason: typeof choice?.finish_reason === 'string' ? choice.finish_reason : '',
    inputTokens: tokenCount(usage.prompt_tokens),
    outputTokens: tokenCount(usage.completion_tokens),
  };
}

/** `content` is a string; a few servers answer a list of `{type: 'text', text}` parts instead. */
function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts = content.flatMap((part) => {
    const text = (part as { text?: unknown } | null)?.text;
    return typeof text === 'string' ? [text] : [];
  });
  return parts.length > 0 ? parts.join('') : undefined;
}

function tokenCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : 0;
}
