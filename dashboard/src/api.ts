/**
 * The dashboard's one way to reach Pluck: same-origin fetch with `Authorization: Bearer`.
 * Pluck reads credentials from that header only (never from cookies), so a cross-site page
 * cannot act for the user, and better-auth checks the Origin of its own POSTs.
 */

export interface ValidationIssue {
  path: Array<string | number>;
  message: string;
}

/** An answer that was not a success, described in words taken from the API's error body. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
    readonly issues: ValidationIssue[] = [],
    readonly requestId?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiAnswer<T> {
  data: T;
  headers: Headers;
  status: number;
  /** `creditsCost` of Pluck's success envelope, when there is one. */
  creditsCost?: number;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Answer with the raw bytes (images, PDFs) instead of JSON. */
  binary?: boolean;
  signal?: AbortSignal;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null;
}

/** Turns any of the API's error shapes (Pluck's envelope, its validation body, better-auth's) into an ApiError. */
export function errorFromBody(status: number, body: unknown): ApiError {
  if (isObject(body)) {
    const inner = isObject(body.error) ? body.error : body;
    const code = typeof inner.code === 'string' ? inner.code : undefined;
    const rawIssues = Array.isArray(inner.issues) ? inner.issues : [];
    const issues = rawIssues.filter(isObject).map((issue) => ({
      path: Array.isArray(issue.path) ? (issue.path as Array<string | number>) : [],
      message: typeof issue.message === 'string' ? issue.message : 'Invalid value',
    }));
    const requestId = typeof inner.requestId === 'string' ? inner.requestId : undefined;
    const message =
      typeof inner.message === 'string' && inner.message
        ? inner.message
        : issues.length
          ? 'Some fields are not valid'
          : `The server answered ${status}`;
    return new ApiError(message, status, code, issues, requestId);
  }
  return new ApiError(`The server answered ${status}`, status, undefined);
}

let rejectedTokenListener: ((token: string) => void) | undefined;

/** Called with the credential of any request answered 401, so an expired session can end the UI's session too. */
export function onRejectedToken(listener: ((token: string) => void) | undefined): void {
  rejectedTokenListener = listener;
}

export async function apiRequest<T = Json>(method: string, path: string, options: RequestOptions = {}): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { accept: options.binary ? '*/*' : 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body, signal: options.signal, credentials: 'omit' });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError('Could not reach the server. Check your connection and try again.', 0, 'NETWORK_ERROR');
  }
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok) {
    if (response.status === 401 && options.token) rejectedTokenListener?.(options.token);
    const parsed = type.includes('json') ? await response.json().catch(() => undefined) : undefined;
    throw errorFromBody(response.status, parsed);
  }
  if (options.binary && !type.includes('json')) {
    return { data: (await response.blob()) as T, headers: response.headers, status: response.status };
  }
  const parsed: unknown = await response.json().catch(() => undefined);
  // Pluck's routes answer an envelope; better-auth's answer the object itself.
  if (isObject(parsed) && parsed.success === true && 'data' in parsed) {
    const creditsCost = typeof parsed.creditsCost === 'number' ? parsed.creditsCost : undefined;
    return { data: parsed.data as T, headers: response.headers, status: response.status, creditsCost };
  }
  return { data: parsed as T, headers: response.headers, status: response.status };
}

export interface AuthUser {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
}

export interface Me {
  authType: 'session' | 'api-key' | 'guest';
  isAuthenticated: boolean;
  user: (AuthUser & { plan: string; isAdmin: boolean; createdAt: string }) | null;
}

export interface ApiKeyRecord {
  id: string;
  name: string;
  start: string;
  prefix: string;
  enabled: boolean;
  requestCount: number;
  lastRequest: string | null;
  expiresAt: string | null;
  createdAt: string;
}

export interface FileRecord {
  id: string;
  type: 'screenshot' | 'pdf';
  url: string;
  filename: string;
  public_url: string;
  metadata: string;
  created_at: string;
  expires_at: string;
}

export interface PlanLimits {
  /** Per API key; the account's sessions (this dashboard) count together as one more caller. */
  requestsPerHour: number;
  /** Every key and session of the account together (absent from servers before the ceiling). */
  accountRequestsPerHour?: number;
  concurrency: number;
  monthlyCredits: number;
  fileRetentionDays: number;
}

export interface CreditInfo {
  balance: number;
  plan: string;
  lastRefill: string;
  limits?: PlanLimits;
}
