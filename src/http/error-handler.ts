import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { AppEnv } from './context.js';
import { errorBody } from './envelope.js';
import { databaseUnavailable, isDatabaseUnavailable } from '../db/database.js';
import { AppError } from './errors.js';

/**
 * The only place besides the validation hook that builds error bodies. AppErrors carry their
 * own status; Hono's HTTPExceptions (a wrong media type) keep theirs; a database
 * that cannot be reached is 503; anything else is a bug and answers 500 with nothing internal
 * in the body.
 */
export function handleError(thrown: Error, c: Context<AppEnv>) {
  const requestId = c.get('requestId') ?? crypto.randomUUID();
  const log = c.get('log');
  const err = isDatabaseUnavailable(thrown) ? databaseUnavailable(thrown) : thrown;
  if (err instanceof AppError) {
    if (err.status >= 500) log?.error({ err, cause: err.cause, code: err.code }, 'request failed');
    for (const [name, value] of Object.entries(err.headers)) c.header(name, value);
    return c.json(errorBody(requestId, err.code, err.message, err.details), err.status);
  }
  if (err instanceof HTTPException) {
    const { code, message } = describeHttpException(err);
    return c.json(errorBody(requestId, code, message), err.status);
  }
  log?.error({ err }, 'unhandled error');
  return c.json(errorBody(requestId, 'INTERNAL_ERROR', 'An internal error occurred'), 500);
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
