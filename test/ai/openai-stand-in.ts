import { sendJson, startStandIn, type StandIn } from '../helpers/loopback-stand-in.js';

export const OPENAI_TEST_KEY = 'sk-test-pluck-0123456789abcdef';

/** How the stand-in answers the next chat completion; every field optional. */
export interface ScriptedReply {
  /** `choices[0].message.content`. */
  content?: string | null;
  refusal?: string;
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Reported as `model`; defaults to the model asked for. */
  model?: string;
  finishReason?: string;
  /** An HTTP error with OpenAI's error body instead of a completion. */
  status?: number;
  /** With `status`: the `retry-after` header OpenAI sends with a 429. */
  retryAfter?: string;
  /** Answer only after this long (the client's time limit is what is tested). */
  delayMs?: number;
}

/** The parts of a chat completions request the tests look at. */
export interface ChatRequestBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
  response_format?: { type: string; json_schema?: { name: string; schema: unknown; strict?: boolean } };
  stream?: boolean;
}

export interface OpenAiStandIn extends StandIn {
  /** Queues the replies for the next requests, in order; with none queued it answers `{"ok":true}`. */
  reply(...replies: ScriptedReply[]): void;
  /** Parsed bodies of the chat completion requests received so far. */
  chatBodies(): ChatRequestBody[];
}

function openAiError(status: number, message: string, code: string) {
  const type = status === 401 ? 'invalid_request_error' : status === 429 ? 'requests' : 'server_error';
  return { error: { message, type, param: null, code } };
}

/**
 * An OpenAI-compatible server on loopback: `POST /v1/chat/completions` as documented, with the
 * `usage` block, `response_format` and OpenAI's request checks that matter here (bearer key,
 * `messages` required, json_object mode wants the word "json" in the messages).
 */
export async function startOpenAiStandIn(): Promise<OpenAiStandIn> {
  const queue: ScriptedReply[] = [];
  let created = 1_700_000_000;
  const standIn = await startStandIn(async (request, response) => {
    if (request.method !== 'POST' || request.url.pathname !== '/v1/chat/completions') {
      sendJson(response, 404, openAiError(404, `Unknown request URL: ${request.method} ${request.url.pathname}`, 'unknown_url'));
      return;
    }
    if (request.headers.authorization !== `Bearer ${OPENAI_TEST_KEY}`) {
      sendJson(response, 401, openAiError(401, 'Incorrect API key provided', 'invalid_api_key'));
      return;
    }
    const body = JSON.parse(request.body) as ChatRequestBody;
    if (!Array.isArray(body.messages) || body.messages.length === 0 || typeof body.model !== 'string') {
      sendJson(response, 400, openAiError(400, "'messages' and 'model' are required", 'invalid_request'));
      return;
    }
    const allText = body.messages.map((m) => m.content).join('\n');
    if (body.response_format?.type === 'json_object' && !/json/i.test(allText)) {
      sendJson(response, 400, openAiError(400, "'messages' must contain the word 'json' in some form", 'invalid_request'));
      return;
    }
    const reply = queue.shift() ?? { content: '{"ok":true}' };
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (reply.status === 429) {
      const headers: Record<string, string> = reply.retryAfter ? { 'retry-after': reply.retryAfter } : {};
      sendJson(response, 429, openAiError(429, `Rate limit reached for ${body.model} on requests per min (RPM)`, 'rate_limit_exceeded'), headers);
      return;
    }
    if (reply.status) {
      sendJson(response, reply.status, openAiError(reply.status, 'The server had an error while processing your request', 'server_error'));
      return;
    }
    const content = reply.content === undefined ? '{"ok":true}' : reply.content;
    const usage = reply.usage ?? { prompt_tokens: Math.ceil(allText.length / 4), completion_tokens: Math.ceil((content ?? '').length / 4) };
    sendJson(response, 200, {
      id: `chatcmpl-${created}`,
      object: 'chat.completion',
      created: created++,
      model: reply.model ?? body.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, refusal: reply.refusal ?? null },
          logprobs: null,
          finish_reason: reply.finishReason ?? 'stop',
        },
      ],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    });
  });
  return {
    ...standIn,
    reply: (...replies) => void queue.push(...replies),
    chatBodies: () =>
      standIn.requests.filter((r) => r.url.pathname === '/v1/chat/completions').map((r) => JSON.parse(r.body) as ChatRequestBody),
  };
}
