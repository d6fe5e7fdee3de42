/**
 * Plain HTTP calls to external providers (search engines, YouTube): every call has a time
 * limit, a response size cap, and never follows redirects, so an upstream can neither hang a
 * request, flood memory, nor bounce us somewhere else.
 */

export type UpstreamFailure = 'timeout' | 'network' | 'status' | 'rate_limited' | 'too_large' | 'invalid_body' | 'aborted';

/**
 * A provider call that did not produce a usable answer. `status` is set for HTTP errors;
 * `retryAfterSeconds` when a provider that refused us (429, 503) said when to come back.
 */
export class UpstreamError extends Error {
  readonly retryAfterSeconds: number | undefined;

  constructor(
    message: string,
    readonly failure: UpstreamFailure,
    readonly status?: number,
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(message, options);
    this.name = 'UpstreamError';
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }
}

/** `Retry-After` as seconds from now: delta-seconds or an HTTP date; undefined when unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  // An HTTP date names its weekday and month; Date.parse alone would take "-5" for a year.
  if (!/[a-z]{3}/i.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * A short reason for API answers and logs. It leaves out the URL: base URLs are operator
 * configuration and may name internal hosts.
 */
export function describeUpstreamFailure(error: unknown): string {
  if (!(error instanceof UpstreamError)) return 'internal error';
  const reasons: Record<UpstreamFailure, string> = {
    status: `HTTP ${error.status}`,
    rate_limited: `rate limited (HTTP ${error.status})`,
    timeout: 'timed out',
    network: 'unreachable',
    too_large: 'response too large',
    invalid_body: 'unreadable response',
    aborted: 'cancelled',
  };
  return reasons[error.failure];
}

export interface BoundedRequest {
  url: URL;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  maxBytes: number;
  /** Aborts the call early, e.g. when the caller of our API goes away. */
  signal?: AbortSignal;
}

export interface BoundedResponse {
  status: number;
  contentType: string;
  text: string;
}

/** Fetches `url` and returns its body as text; any non-2xx status is an UpstreamError. */
export async function fetchText(request: BoundedRequest): Promise<BoundedResponse> {
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
  const where = `${request.url.origin}${request.url.pathname}`;
  try {
    const response = await fetch(request.url, {
      method: request.method ?? 'GET',
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal,
    });
    if (response.status < 200 || response.status > 299) {
      await response.body?.cancel().catch(() => {});
      throw statusError(response, where);
    }
    const text = await readCapped(response, request.maxBytes, where);
    return { status: response.status, contentType: response.headers.get('content-type') ?? '', text };
  } catch (error) {
    if (error instanceof UpstreamError) throw error;
    const cause = { cause: error };
    if (timeout.aborted) throw new UpstreamError(`${where} did not answer within ${request.timeoutMs} ms`, 'timeout', undefined, cause);
    if (request.signal?.aborted) throw new UpstreamError(`call to ${where} was cancelled`, 'aborted', undefined, cause);
    throw new UpstreamError(`${where} could not be reached`, 'network', undefined, cause);
  }
}

/**
 * 429 is a provider rationing us, and so is a 503 that says when to come back: both pass in time,
 * unlike other errors.
 */
function statusError(response: Response, where: string): UpstreamError {
  const retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'));
  const rateLimited = response.status === 429 || (response.status === 503 && retryAfterSeconds !== undefined);
  return new UpstreamError(`${where} answered HTTP ${response.status}`, rateLimited ? 'rate_limited' : 'status', response.status, {
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
  });
}

/** Like fetchText, then parses JSON; a body that is not JSON is an UpstreamError too. */
export async function fetchJson(request: BoundedRequest): Promise<unknown> {
  const response = await fetchText({ ...request, headers: { accept: 'application/json', ...request.headers } });
  try {
    return JSON.parse(response.text) as unknown;
  } catch (error) {
    throw new UpstreamError(`${request.url.origin}${request.url.pathname} did not answer with JSON`, 'invalid_body', undefined, {
      cause: error,
    });
  }
}

async function readCapped(response: Response, maxBytes: number, where: string): Promise<string> {
  const tooLarge = () => new UpstreamError(`${where} answered with more than ${maxBytes} bytes`, 'too_large');
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
