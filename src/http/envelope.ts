import type { Context } from 'hono';
import type { AppEnv } from './context.js';

function successBody<T, E extends AppEnv>(c: Context<E>, data: T, creditsCost: number) {
  return {
    success: true as const,
    data,
    requestId: c.get('requestId'),
    timestamp: new Date().toISOString(),
    creditsCost,
  };
}

/** The success envelope every JSON operation answers with. */
export function ok<T, E extends AppEnv>(c: Context<E>, data: T, creditsCost = 0) {
  return c.json(successBody(c, data, creditsCost), 200);
}

/** The success envelope with 201 Created. */
export function created<T, E extends AppEnv>(c: Context<E>, data: T, creditsCost = 0) {
  return c.json(successBody(c, data, creditsCost), 201);
}

export interface ErrorBody {
  success: false;
  error: { code: string; message: string; requestId: string } & Record<string, unknown>;
  timestamp: string;
}

export function errorBody(
  requestId: string,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
): ErrorBody {
  return {
    success: false,
    error: { ...extra, code, message, requestId },
    timestamp: new Date().toISOString(),
  };
}
