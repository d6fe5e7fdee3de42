import type { Context } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from './context.js';
import { utf8 } from '../utf8-pieces.js';

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
 * The success envelope around `data` given as pieces of JSON text, written one after the other as
 * the client takes them: for answers of megabytes that exist as JSON already (a job's stored
 * results), which parsing and writing again, or joining into one string, would hold in memory
 * several times over. Typed as `ok(c, data)` with data of `schema`'s type, the route's own schema
 * of `data`, which the pieces must follow.
 */
export function okJsonParts<T, E extends AppEnv>(c: Context<E>, dataParts: string[], _schema: z.ZodType<T>, creditsCost = 0) {
  const { success, data: _data, ...rest } = successBody(c, null, creditsCost);
  const parts = [`{"success":${success},"data":`, ...dataParts, `,${JSON.stringify(rest).slice(1)}`];
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      // Small pieces go together, up to a chunk; a big one (a page's data) goes alone.
      const pieces: string[] = [];
      for (let length = 0; next < parts.length && (pieces.length === 0 || length + parts[next]!.length <= CHUNK_CHARS); next += 1) {
        pieces.push(parts[next]!);
        length += parts[next]!.length;
        // Handed on, the piece is not kept: the answer holds only what is still to be written.
        parts[next] = '';
      }
      if (pieces.length === 0) controller.close();
      else controller.enqueue(utf8(pieces));
    },
  });
  // The body is the JSON text of the envelope ok() answers; only its type is unknown to Hono.
  return c.body(body, 200, { 'Content-Type': 'application/json' }) as unknown as ReturnType<typeof ok<T, E>>;
}

/** Characters of small pieces written together in one chunk. */
const CHUNK_CHARS = 64 * 1024;

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
