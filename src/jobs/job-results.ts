import type { JobResultTable } from '../db/schema.js';

/** A stored result without its data: enough to know how big its answer is before loading it. */
export type ResultHead = Omit<JobResultTable, 'job_id' | 'data' | 'created_at'>;

/** A stored result with its data's JSON text, as written by the runner (null for a failure or a map's URL). */
export type StoredResult = ResultHead & { data: string | null };

/** Codes of the results, and of the job, that the stored-results bounds leave behind (docs/jobs.md#big-results). */
/** A page's result as a runner records it: its answer (stored as JSON) or its failure, and its price. */
export interface NewResult {
  url: string;
  status: 'completed' | 'failed';
  data?: unknown;
  errorCode?: string;
  errorMessage?: string;
  credits: number;
}

export const RESULT_TOO_LARGE = 'RESULT_TOO_LARGE';
export const JOB_RESULTS_TOO_LARGE = 'JOB_RESULTS_TOO_LARGE';

/** `,"data":` between an entry's head and its data. */
const DATA_KEY_BYTES = Buffer.byteLength(',"data":');

/**
 * A result's entry in a status answer (and a line of the JSON-lines download), in two parts
 * around its data: `{"url","status"` [`,"data":` + data] `,"error"?,"creditsCost"}`. The data is
 * the stored JSON text, spliced in as it is: a page of megabytes is never parsed and written again.
 */
function entryParts(result: ResultHead): { head: string; tail: string } {
  const error = result.error_code ? `,"error":${JSON.stringify({ code: result.error_code, message: result.error_message ?? '' })}` : '';
  return {
    head: `{"url":${JSON.stringify(result.url)},"status":${JSON.stringify(result.status)}`,
    tail: `${error},"creditsCost":${Number(result.credits)}}`,
  };
}

/**
 * The entry's JSON text in pieces, exactly `resultEntryBytes(result)` bytes together: written one
 * after the other, the data's text (megabytes) is never copied into a longer string.
 */
export function resultEntryParts(result: StoredResult): string[] {
  const { head, tail } = entryParts(result);
  return result.data === null ? [head, tail] : [head, ',"data":', result.data, tail];
}

/** The entry's JSON text. */
export function resultEntry(result: StoredResult): string {
  return resultEntryParts(result).join('');
}

/** Bytes (UTF-8) of the entry's JSON text, from the stored size of its data, without loading it. */
export function resultEntryBytes(result: ResultHead): number {
  const { head, tail } = entryParts(result);
  const size = Number(result.size);
  return Buffer.byteLength(head) + Buffer.byteLength(tail) + (size > 0 ? DATA_KEY_BYTES + size : 0);
}

/**
 * The first of `heads` whose entries, joined by commas, take at most `maxBytes`: at least one,
 * so that a result bigger than the bound is answered alone and paging always moves on.
 */
export function headsWithin(heads: ResultHead[], maxBytes: number): ResultHead[] {
  const taken: ResultHead[] = [];
  let bytes = 0;
  for (const head of heads) {
    const size = resultEntryBytes(head) + (taken.length > 0 ? 1 : 0);
    if (taken.length > 0 && bytes + size > maxBytes) break;
    taken.push(head);
    bytes += size;
  }
  return taken;
}

/**
 * `data` of a status answer as pieces of JSON text: the job's fields, then `results` spliced from
 * their entries' pieces, then `next`. Same fields and order as JSON.stringify of the parsed results.
 */
export function statusDataParts(job: object, results: StoredResult[], next: string | null): string[] {
  const fields = JSON.stringify(job);
  const parts = [`${fields === '{}' ? '{' : `${fields.slice(0, -1)},`}"results":[`];
  results.forEach((result, index) => {
    if (index > 0) parts.push(',');
    parts.push(...resultEntryParts(result));
  });
  parts.push(`],"next":${JSON.stringify(next)}}`);
  return parts;
}
