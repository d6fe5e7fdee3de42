/**
 * The API's error codes, free of any transport: services and the layers below them throw an
 * AppError with one of these; the HTTP layer (http/error-status.ts) gives each its status, and
 * MCP and the Firecrawl routes their own shapes.
 */
export const ERROR_CODES = [
  'BAD_REQUEST',
  'INVALID_JSON',
  'URL_NOT_ALLOWED',
  'INVALID_TOKEN',
  'UNAUTHORIZED',
  'INVALID_CREDENTIALS',
  'INSUFFICIENT_CREDITS',
  'FORBIDDEN',
  'API_KEY_LIMIT_REACHED',
  'ORIGIN_NOT_ALLOWED',
  'EMAIL_NOT_VERIFIED',
  'INVALID_PASSWORD',
  'NOT_FOUND',
  'USER_NOT_FOUND',
  'VIDEO_NOT_FOUND',
  'CAPTIONS_NOT_FOUND',
  'LANGUAGE_NOT_AVAILABLE',
  'METHOD_NOT_ALLOWED',
  'EMAIL_ALREADY_REGISTERED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'VALIDATION_ERROR',
  'ACTION_FAILED',
  'UNSUPPORTED_CONTENT_TYPE',
  'DOCUMENT_UNREADABLE',
  'DOCUMENT_TOO_LARGE',
  'DOCUMENT_TIMEOUT',
  'CLIENT_CLOSED_REQUEST',
  'RATE_LIMIT_EXCEEDED',
  'CONCURRENCY_LIMIT_EXCEEDED',
  'JOB_LIMIT_REACHED',
  'INTERNAL_ERROR',
  'TARGET_UNREACHABLE',
  'TARGET_CRASHED',
  'PROVIDER_ERROR',
  'AI_INVALID_JSON',
  'SERVICE_OVERLOADED',
  'SERVICE_UNAVAILABLE',
  'PROVIDER_NOT_CONFIGURED',
  'PROVIDER_RATE_LIMITED',
  'TARGET_TIMEOUT',
  'PROVIDER_TIMEOUT',
  'ACTION_TIMEOUT',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface AppErrorOptions {
  cause?: unknown;
  /** Extra fields placed inside `error` in the body. */
  details?: Record<string, unknown>;
  /** How long a caller should wait before trying again (a busy service, a spent limit). */
  retryAfterSeconds?: number;
}

/**
 * The one error type the transports understand. Lower layers throw their own typed errors;
 * services translate them into an AppError once, and each transport renders it.
 */
export class AppError extends Error {
  readonly details: Record<string, unknown> | undefined;
  readonly retryAfterSeconds: number | undefined;
  /**
   * Credits charged for the failed work all the same (a page held until its timeout is paid
   * for); 0 when the failure was refunded. Set by the metered operation that charged it.
   */
  creditsCharged = 0;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** Seconds a client is asked to wait when a backend did not answer. */
const BACKEND_RETRY_AFTER_SECONDS = 5;

/**
 * A backend (database, Redis, the file bucket) that did not answer: SERVICE_UNAVAILABLE with a
 * time to retry after, so clients retry instead of reporting a bug. `what` names it for the
 * caller ("The database").
 */
export function backendUnavailable(what: string, cause: unknown): AppError {
  return new AppError('SERVICE_UNAVAILABLE', `${what} is unavailable; retry shortly`, { cause, retryAfterSeconds: BACKEND_RETRY_AFTER_SECONDS });
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
