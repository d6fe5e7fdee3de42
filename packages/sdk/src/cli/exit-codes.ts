import { NETWORK_ERROR, PluckError } from '../errors.js';

/** The CLI's exit codes, by what went wrong: scripts branch on them (documented in --help and docs/sdk-and-cli.md). */
export const EXIT = {
  OK: 0,
  /** Anything else: a local file that cannot be written, a bug. */
  FAILED: 1,
  /** The command line, or the request it made, was wrong (unknown flag, missing key, a 4xx about the request). */
  USAGE: 2,
  /** The API key was refused (401, 403). */
  AUTH: 3,
  /** Out of credits or over a limit (402, 429 after the retries). */
  LIMITS: 4,
  /** The page or target failed: unreachable, timed out, crashed, not allowed, not found. */
  TARGET: 5,
  /** Pluck itself failed or could not be reached (5xx other than a target's failure, no answer). */
  SERVER: 6,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Codes about the page asked for rather than the request or the service, whatever their status. */
const TARGET_CODES = new Set([
  'TARGET_UNREACHABLE',
  'TARGET_CRASHED',
  'TARGET_TIMEOUT',
  'URL_NOT_ALLOWED',
  // An action the page did not let happen (no such element, its script threw or never ended).
  'ACTION_FAILED',
  'ACTION_TIMEOUT',
  // What the URL serves cannot be read: an image, a locked or damaged document, one over a bound.
  'UNSUPPORTED_CONTENT_TYPE',
  'DOCUMENT_UNREADABLE',
  'DOCUMENT_TOO_LARGE',
  'DOCUMENT_TIMEOUT',
  'VIDEO_NOT_FOUND',
  'CAPTIONS_NOT_FOUND',
  'LANGUAGE_NOT_AVAILABLE',
]);

export function exitCodeFor(error: unknown): ExitCode {
  if (!(error instanceof PluckError)) return EXIT.FAILED;
  if (TARGET_CODES.has(error.code)) return EXIT.TARGET;
  if (error.code === NETWORK_ERROR || error.status >= 500) return EXIT.SERVER;
  if (error.status === 401 || error.status === 403) return EXIT.AUTH;
  if (error.status === 402 || error.status === 429) return EXIT.LIMITS;
  if (error.status >= 400) return EXIT.USAGE;
  return EXIT.FAILED;
}

/** The CLI's code for a page that loaded but answered an HTTP error: Pluck answers it (with the content) as a success. */
export const PAGE_HTTP_ERROR = 'PAGE_HTTP_ERROR';

/** Why a loaded page counts as failed: its HTTP status was an error. */
export function pageStatusError(statusCode: number | undefined): string | undefined {
  return statusCode !== undefined && statusCode >= 400 ? `the page answered HTTP ${statusCode}` : undefined;
}

/** One line for stderr: code, message and the request id to quote to the operator. */
export function describeError(error: unknown): string {
  if (error instanceof PluckError) {
    const id = error.requestId ? ` (request ${error.requestId})` : '';
    return `${error.code}: ${error.message}${id}`;
  }
  return error instanceof Error ? error.message : String(error);
}
