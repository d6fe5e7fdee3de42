import type { Context } from 'hono';
import type { ZodError } from 'zod';
import type { AppEnv } from '../http/context.js';
import { describeError } from '../http/error-handler.js';
import { toSpecIssues } from '../errors/validation-error.js';

/**
 * Firecrawl answers a failed request with `{success: false, error: '<message>'}` and its SDKs
 * read `error` as a string (and `details`, when present, as extra detail: a refused body's
 * issues, or the fields Pluck's error carries besides its code and message). Pluck's own code
 * rides along in `code`, as Firecrawl does with its own codes.
 */
export interface FirecrawlErrorBody {
  success: false;
  error: string;
  code: string;
  details?: unknown;
}

/**
 * Pluck's statuses as Firecrawl uses them: every refused request is a 400 (the SDKs print the
 * message of a 400 and lose it for a 422), a page that did not answer in time 408, and a page
 * that could not be read 500 (the v2 SDK retries a 502 three times, which would load the page
 * three times over). 401, 402, 429 and 503 mean the same on both.
 */
const FIRECRAWL_STATUS: Record<string, number> = {
  VALIDATION_ERROR: 400,
  BAD_REQUEST: 400,
  INVALID_JSON: 400,
  URL_NOT_ALLOWED: 400,
  ACTION_FAILED: 400,
  TARGET_TIMEOUT: 408,
  PROVIDER_TIMEOUT: 408,
  ACTION_TIMEOUT: 408,
  TARGET_UNREACHABLE: 500,
  TARGET_CRASHED: 500,
  PROVIDER_ERROR: 500,
  AI_INVALID_JSON: 500,
};

/**
 * The error handler of the Firecrawl routes: the failure is described as for Pluck's own
 * routes (its logging, a database that is down, headers such as Retry-After and X-Credits-Cost),
 * then said in Firecrawl's shape.
 */
export function handleFirecrawlError(thrown: Error, c: Context<AppEnv>): Response {
  const { status, code, message, details, headers } = describeError(thrown, c.get('log'));
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  const { issues, ...fields } = details ?? {};
  // The error's own fields (which limit refused, say) ride in `details` when there are no issues.
  const firecrawlDetails = issues ?? (Object.keys(fields).length > 0 ? fields : undefined);
  return c.json(firecrawlError(code, message, firecrawlDetails), (FIRECRAWL_STATUS[code] ?? status) as 400);
}

/** The Firecrawl routes' validation hook: a body that does not fit answers 400 with its issues in `details`. */
export function firecrawlValidationHook(result: { success: boolean; error?: ZodError; data?: unknown }, c: Context<AppEnv>) {
  if (result.success || !result.error) return;
  const issues = toSpecIssues(result.error, result.data);
  const message = `Bad Request: ${issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`).join('; ')}`;
  return c.json(firecrawlError('VALIDATION_ERROR', message, issues), 400);
}

function firecrawlError(code: string, message: string, details: unknown): FirecrawlErrorBody {
  return details === undefined ? { success: false, error: message, code } : { success: false, error: message, code, details };
}
