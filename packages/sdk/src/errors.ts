/**
 * What a failed call tells its caller: the HTTP status, the API's error code (see the API's
 * error table, e.g. INSUFFICIENT_CREDITS, TARGET_TIMEOUT), its message and the request id to
 * quote to the operator. A request that never got an answer has status 0 and code NETWORK_ERROR.
 */
export class PluckError extends Error {
  override readonly name = 'PluckError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | undefined,
    /** The whole `error` object of the body: VALIDATION_ERROR carries `issues`, for one. */
    readonly details: Record<string, unknown> = {},
    /** Seconds the server asked to wait (Retry-After), when it said. */
    readonly retryAfterSeconds?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export const NETWORK_ERROR = 'NETWORK_ERROR';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The PluckError for an answer that was not 2xx; `body` is the parsed JSON or the text. */
export function errorFromResponse(response: Response, body: unknown): PluckError {
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  const code = typeof error?.code === 'string' ? error.code : `HTTP_${response.status}`;
  const text = typeof body === 'string' ? body.trim().slice(0, 200) : '';
  const message = typeof error?.message === 'string' ? error.message : text || `${response.status} ${response.statusText}`.trim();
  const requestId = (typeof error?.requestId === 'string' ? error.requestId : undefined) ?? response.headers.get('x-request-id') ?? undefined;
  const retryAfter = retryAfterMs(response.headers.get('retry-after'));
  return new PluckError(response.status, code, message, requestId, error ?? {}, retryAfter === undefined ? undefined : retryAfter / 1000);
}

/** A fetch that failed before any answer (refused, reset, DNS, aborted). */
export function networkError(cause: unknown): PluckError {
  const reason = cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause);
  return new PluckError(0, NETWORK_ERROR, `No answer from Pluck: ${reason}`, undefined, {}, undefined, { cause });
}

/** Retry-After as milliseconds: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
