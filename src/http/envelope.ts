import type { Context } from 'hono';
import type { z } from 'zod';
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

/**
 * The success envelope around `data` given as JSON text, spliced in as it is: for answers of
 * megabytes that exist as JSON already (a job's stored results), which parsing and writing again
 * would hold in memory several times over. Typed as `ok(c, data)` with data of `schema`'s type,
 * the route's own schema of `data`, which the text must follow.
 */
export function okJsonText<T, E extends AppEnv>(c: Context<E>, dataJson: string, _schema: z.ZodType<T>, creditsCost = 0) {
  const { success, data: _data, ...rest } = successBody(c, null, creditsCost);
  const body = `{"success":${success},"data":${dataJson},${JSON.stringify(rest).slice(1)}`;
  // The body is the JSON text of the envelope ok() answers; only its type is unknown to Hono.
  return c.body(body, 200, { 'Content-Type': 'application/json' }) as unknown as ReturnType<typeof ok<T, E>>;
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
