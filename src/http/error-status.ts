import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorCode } from '../errors/app-error.js';

/** The HTTP status each error code travels with. */
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
  ACTION_FAILED: 422,
  // A document URL answered with something Pluck reads no text from, or a document it cannot
  // read within its bounds: the request was fine and so was the target's answer, so neither a
  // 4xx about the request's shape nor a 5xx; the same document fails the same way every time.
  UNSUPPORTED_CONTENT_TYPE: 422,
  DOCUMENT_UNREADABLE: 422,
  DOCUMENT_TOO_LARGE: 422,
  // Not TARGET_TIMEOUT (504, charged): the target answered in time; our parse of what it sent
  // ran out of its time bound, which a smaller page range avoids.
  DOCUMENT_TIMEOUT: 422,
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
  ACTION_TIMEOUT: 504,
} as const satisfies Record<ErrorCode, ContentfulStatusCode>;

export function statusOf(code: ErrorCode): ContentfulStatusCode {
  return ERROR_STATUS[code];
}
