import { unlessBackendUnavailable } from '../errors/app-error.js';
import { RedisUnavailable } from './redis-connection.js';

/**
 * Runs work that needs a shared backend (limiter, cache). When Redis cannot answer, the caller
 * gets a clear 503 SERVICE_UNAVAILABLE with Retry-After, never a 500 or a hang.
 */
export function unlessUnavailable<T>(work: () => Promise<T>): Promise<T> {
  return unlessBackendUnavailable(work, (error) => error instanceof RedisUnavailable, 'A shared service (Redis)');
}
