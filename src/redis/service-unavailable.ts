import { AppError } from '../http/errors.js';
import { RedisUnavailable } from './redis-connection.js';

/** Seconds a client is asked to wait: the client reconnects within about two. */
const RETRY_AFTER_SECONDS = 5;

/**
 * Runs work that needs a shared backend (limiter, cache). When Redis cannot answer, the caller
 * gets a clear 503 SERVICE_UNAVAILABLE with Retry-After, never a 500 or a hang.
 */
export async function unlessUnavailable<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof RedisUnavailable)) throw error;
    throw new AppError('SERVICE_UNAVAILABLE', 'A shared service (Redis) is unavailable; retry shortly', {
      cause: error,
      headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
    });
  }
}
