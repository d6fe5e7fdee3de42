import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Logger } from 'pino';
import { databaseUnavailable, isDatabaseUnavailable } from '../db/database.js';
import { AppError } from '../errors/app-error.js';
import type { AppEnv } from './context.js';
import { errorBody } from './envelope.js';
import { statusOf } from './error-status.js';

/** What an HTTP answer says about a failure, whatever shape its body then takes. */
export interface DescribedError {
  status: ContentfulStatusCode;
  code: string;
  message: string;
  /** The error's own fields besides its code and message (a refused body's issues, which limit refused). */
  details: Record<string, unknown> | undefined;
  headers: Record<string, string>;
}

/**
 * The one place that decides what a failure answers, for the native and the Firecrawl bodies
 * alike. AppErrors carry their code; Hono's HTTPExceptions (a wrong media type) keep their
 * status; a database that cannot be reached is 503; anything else is a bug and answers 500 with
 * nothing internal in it. Failures of ours (5xx) are logged here.
 */
export function describeError(thrown: unknown, log: Logger | undefined): DescribedError {
  const err = isDatabaseUnavailable(thrown) ? databaseUnavailable(thrown) : thrown;
  if (err instanceof AppError) {
    const status = statusOf(err.code);
    if (status >= 500) log?.error({ err, cause: err.cause, code: err.code }, 'request failed');
    const headers: Record<string, string> = {};
    if (err.retryAfterSeconds !== undefined) headers['Retry-After'] = String(err.retryAfterSeconds);
    if (err.creditsCharged > 0) headers['X-Credits-Cost'] = String(err.creditsCharged);
    return { status, code: err.code, message: err.message, details: err.details, headers };
  }
  if (err instanceof HTTPException) {
    return { status: err.status, ...describeHttpException(err), details: undefined, headers: {} };
  }
  log?.error({ err }, 'unhandled error');
  return { status: 500, code: 'INTERNAL_ERROR', message: 'An internal error occurred', details: undefined, headers: {} };
}

/** The native error body (the spec's), for every route but Firecrawl's. */
export function handleError(thrown: Error, c: Context<AppEnv>) {
  const described = describeError(thrown, c.get('log'));
  for (const [name, value] of Object.entries(described.headers)) c.header(name, value);
  const requestId = c.get('requestId') ?? crypto.randomUUID();
  return c.json(errorBody(requestId, described.code, described.message, described.details), described.status);
}

function describeHttpException(err: HTTPException): { code: string; message: string } {
  switch (err.status) {
    case 400:
      return { code: 'BAD_REQUEST', message: err.message || 'Bad request' };
    case 401:
      return { code: 'UNAUTHORIZED', message: 'Authentication required' };
    case 413:
      return { code: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large' };
    case 415:
      return { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Content-Type must be application/json' };
    default:
      return { code: 'BAD_REQUEST', message: err.message || 'Bad request' };
  }
}

export function handleNotFound(c: Context<AppEnv>) {
  return c.json(errorBody(c.get('requestId'), 'NOT_FOUND', `No route for ${c.req.method} ${c.req.path}`), 404);
}
