import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** Every error code the API answers with, and the HTTP status it travels with. */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  INVALID_JSON: 400,
  URL_NOT_ALLOWED: 400,
  INVALID_TOKEN: 400,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  INSUFFICIENT_CREDITS: 402,
  FORBIDDEN: 403,
  API_KEY_LIMIT_REACHED: 403,
  ORIGIN_NOT_ALLOWED: 403,
  EMAIL_NOT_VERIFIED: 403,
  INVALID_PASSWORD: 403,
  NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  VIDEO_NOT_FOUND: 404,
  CAPTIONS_NOT_FOUND: 404,
  LANGUAGE_NOT_AVAILABLE: 404,
  METHOD_NOT_ALLOWED: 405,
  EMAIL_ALREADY_REGISTERED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION_ERROR: 422,
  // nginx's code for a client that closed its connection first: only ever seen in logs and metrics.
  CLIENT_CLOSED_REQUEST: 499 as ContentfulStatusCode,
  RATE_LIMIT_EXCEEDED: 429,
  CONCURRENCY_LIMIT_EXCEEDED: 429,
  JOB_LIMIT_REACHED: 429,
  INTERNAL_ERROR: 500,
  TARGET_UNREACHABLE: 502,
  TARGET_CRASHED: 502,
  PROVIDER_ERROR: 502,
  AI_INVALID_JSON: 502,
  SERVICE_OVERLOADED: 503,
  SERVICE_UNAVAILABLE: 503,
  PROVIDER_NOT_CONFIGURED: 503,
  PROVIDER_RATE_LIMITED: 503,
  TARGET_TIMEOUT: 504,
  PROVIDER_TIMEOUT: 504,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface AppErrorOptions {
  cause?: unknown;
  /** Extra response headers, e.g. `Retry-After`. */
  headers?: Record<string, string>;
  /** Extra fields placed inside `error` in the body. */
  details?: Record<string, unknown>;
}

/**
 * The one error type the HTTP layer understands. Lower layers throw their own typed errors;
 * services translate them into an AppError once, and `app.onError` turns it into a body.
 */
export class AppError extends Error {
  readonly status: ContentfulStatusCode;
  readonly headers: Record<string, string>;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
    this.headers = options.headers ?? {};
    this.details = options.details;
  }
}

/** Seconds a client is asked to wait when a backend did not answer. */
const BACKEND_RETRY_AFTER_SECONDS = 5;

/**
 * A backend (database, Redis, the file bucket) that did not answer: 503 with Retry-After, so
 * clients retry instead of reporting a bug. `what` names it for the caller ("The database").
 */
export function backendUnavailable(what: string, cause: unknown): AppError {
  return new AppError('SERVICE_UNAVAILABLE', `${what} is unavailable; retry shortly`, {
    cause,
    headers: { 'Retry-After': String(BACKEND_RETRY_AFTER_SECONDS) },
  });
}

/** Runs `work`; a failure that `isUnavailable` recognises becomes `backendUnavailable(what)`. */
export async function unlessBackendUnavailable<T>(work: () => Promise<T>, isUnavailable: (error: unknown) => boolean, what: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw isUnavailable(error) ? backendUnavailable(what, error) : error;
  }
}

export const unauthorized = () => new AppError('UNAUTHORIZED', 'Authentication required');
export const forbidden = (message = 'You are not allowed to do this') => new AppError('FORBIDDEN', message);
export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
