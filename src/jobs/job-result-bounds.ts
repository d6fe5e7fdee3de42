import type { JobsConfig } from '../config.js';
import { JOB_RESULTS_TOO_LARGE, type NewResult, RESULT_TOO_LARGE } from './job-results.js';

/** How much a job may store: per page's result and for all of them (bytes of JSON). */
export type ResultLimits = Pick<JobsConfig, 'resultMaxBytes' | 'totalMaxBytes'>;

/** A result ready to be written: its data's JSON text and its size in bytes; `refused` when the bounds kept its data out. */
export type SerializedResult = Omit<NewResult, 'data'> & { text: string | null; size: number; refused?: boolean };

/** A result with its data as the JSON text to store; one over JOB_RESULT_MAX_BYTES is replaced by its failure. */
export function serializeResult(result: NewResult, limits: ResultLimits): SerializedResult {
  const max = limits.resultMaxBytes;
  const tooLarge = (size: string) =>
    notStored(result, RESULT_TOO_LARGE, `The page's result took ${size} bytes of JSON, more than one page's result may take (JOB_RESULT_MAX_BYTES, ${max} bytes): it was not stored, nor charged; ask for fewer formats`);
  if (result.data === undefined) return { ...result, text: null, size: 0 };
  let text: string;
  try {
    text = JSON.stringify(result.data);
  } catch (error) {
    // Past V8's longest string the text cannot even be made.
    if (error instanceof RangeError) return tooLarge(`more than ${max}`);
    throw error;
  }
  const size = Buffer.byteLength(text);
  return size > max ? tooLarge(String(size)) : { ...result, text, size };
}

/**
 * With `stored` bytes of the job's results already stored, replaces (in place) the results whose
 * data would take the job past JOB_TOTAL_MAX_BYTES by their failure.
 */
export function keepWithinJobTotal(results: SerializedResult[], stored: number, limits: ResultLimits): void {
  const adding = results.reduce((sum, result) => sum + result.size, 0);
  if (stored + adding <= limits.totalMaxBytes) return;
  results.forEach((result, index) => {
    if (result.size === 0) return;
    results[index] = notStored(
      result,
      JOB_RESULTS_TOO_LARGE,
      `The job's results already take ${stored} bytes; this page's ${result.size} more would pass the bound on one job's results (JOB_TOTAL_MAX_BYTES, ${limits.totalMaxBytes} bytes): it was not stored, nor charged, and the job stops here`,
    );
  });
}

/** The result as a failure that says why its data was not stored; it costs nothing. */
function notStored(result: Pick<NewResult, 'url'>, code: string, message: string): SerializedResult {
  return { url: result.url, status: 'failed', errorCode: code, errorMessage: message, credits: 0, text: null, size: 0, refused: true };
}
