import { retryAfterMs } from './errors.js';

export interface RetryOptions {
  /** Further attempts after a 429 or 503 (default 2; 0 turns retrying off). */
  retries?: number;
  /** Longest wait between attempts, ms (default 30000). A Retry-After asking for more is not waited for: the error is answered. */
  maxRetryDelayMs?: number;
}

/** Answers that say "not now" before any work is done, so asking again cannot charge twice. */
const RETRYABLE_STATUS = new Set([429, 503]);
const FIRST_BACKOFF_MS = 500;

const sleep = (ms: number, signal?: AbortSignal | null) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * A fetch that asks again on 429 and on 503 with Retry-After, waiting what Retry-After says
 * (a 429 without it: 0.5 s, 1 s, 2 s, ...), at most `retries` times and never longer than
 * `maxRetryDelayMs` per wait.
 */
export function retryingFetch(baseFetch: typeof fetch, options: RetryOptions = {}): (request: Request) => Promise<Response> {
  const retries = Math.max(0, Math.floor(options.retries ?? 2));
  const maxDelay = Math.max(0, options.maxRetryDelayMs ?? 30_000);
  return async (request) => {
    for (let attempt = 0; ; attempt += 1) {
      // The body of a Request can be read once: each attempt sends a copy.
      const response = await baseFetch(attempt < retries ? request.clone() : request);
      if (!RETRYABLE_STATUS.has(response.status) || attempt >= retries) return response;
      const asked = retryAfterMs(response.headers.get('retry-after'));
      // Pluck sends Retry-After with every passing 503; one without it (PROVIDER_NOT_CONFIGURED) will not pass.
      if (response.status === 503 && asked === undefined) return response;
      const delay = asked ?? FIRST_BACKOFF_MS * 2 ** attempt;
      if (delay > maxDelay) return response;
      await response.body?.cancel();
      await sleep(delay, request.signal);
    }
  };
}
