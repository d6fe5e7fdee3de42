import { AppError } from '../errors/app-error.js';
import { validationError } from '../errors/validation-error.js';
import { AddressNotAllowed } from '../net/errors.js';
import { TargetFetchFailed, TargetFetchTimedOut } from '../net/target-fetch.js';
import { BrowserCrashed, InvalidPageOption, NavigationTimeout, PageCrashed, PoolOverloaded, RequestAborted, TargetUnreachable } from './types.js';

/**
 * Turns the browser engine's and the address policy's typed errors into the API's error
 * codes, once, at the service/route boundary. Anything else is returned untouched (a bug:
 * the error handler answers 500).
 */
export function toAppError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  // HostUnresolvable included: a name that does not resolve is answered like one that resolves to a refused address.
  if (error instanceof AddressNotAllowed) {
    return new AppError('URL_NOT_ALLOWED', `URL not allowed: ${error.message}`, { cause: error });
  }
  if (error instanceof TargetUnreachable || error instanceof TargetFetchFailed) {
    return new AppError('TARGET_UNREACHABLE', error.message, { cause: error });
  }
  if (error instanceof PageCrashed) {
    return new AppError('TARGET_CRASHED', error.message, { cause: error });
  }
  if (error instanceof NavigationTimeout || error instanceof TargetFetchTimedOut) {
    return new AppError('TARGET_TIMEOUT', error.message, { cause: error });
  }
  if (error instanceof PoolOverloaded) {
    return new AppError('SERVICE_OVERLOADED', 'The service is busy; retry shortly', {
      cause: error,
      retryAfterSeconds: error.retryAfterSeconds,
    });
  }
  if (error instanceof RequestAborted) {
    return new AppError('CLIENT_CLOSED_REQUEST', error.message, { cause: error });
  }
  if (error instanceof BrowserCrashed) {
    return new AppError('SERVICE_UNAVAILABLE', `The browser is unavailable: ${error.message}`, { cause: error });
  }
  if (error instanceof InvalidPageOption) {
    return validationError([{ code: 'custom', path: fieldPath(error.field), message: error.message }], error);
  }
  return error;
}

/** `elements.1.selector` -> ['elements', 1, 'selector'], the validation body's path form. */
function fieldPath(field: string): (string | number)[] {
  return field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/** Runs `work` and rethrows any engine or policy error as the matching AppError. */
export async function withAppErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toAppError(error);
  }
}
