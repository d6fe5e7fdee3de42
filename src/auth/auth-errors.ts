import { AppError, type ErrorCode } from '../errors/app-error.js';

type Translation = [ErrorCode, string];

const ORIGIN_REFUSED: Translation = [
  'ORIGIN_NOT_ALLOWED',
  'Browsers may call the auth routes only from PUBLIC_BASE_URL or FRONTEND_URL',
];
const ALREADY_REGISTERED: Translation = [
  'EMAIL_ALREADY_REGISTERED',
  'An account with this e-mail address already exists: sign in, or reset its password',
];
const BAD_LINK: Translation = ['INVALID_TOKEN', 'This link is invalid, used or expired: ask for a new one'];
const NO_SESSION: Translation = ['UNAUTHORIZED', 'Authentication required'];

/**
 * better-auth's error codes, as Pluck answers them. Several of its codes mean one thing to a
 * caller (five ways to refuse an origin), and its wording changes between versions, so the
 * codes callers see are Pluck's own and stable; docs/api-conventions.md lists them.
 */
const TRANSLATIONS: Record<string, Translation> = {
  INVALID_EMAIL_OR_PASSWORD: ['INVALID_CREDENTIALS', 'Invalid email or password'],
  USER_ALREADY_EXISTS: ALREADY_REGISTERED,
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: ALREADY_REGISTERED,
  EMAIL_NOT_VERIFIED: ['EMAIL_NOT_VERIFIED', 'Verify your e-mail address before signing in: open the link we sent'],
  INVALID_PASSWORD: ['INVALID_PASSWORD', 'The current password is not correct'],
  CREDENTIAL_ACCOUNT_NOT_FOUND: ['INVALID_PASSWORD', 'This account has no password yet: set one through a password reset'],
  INVALID_TOKEN: BAD_LINK,
  TOKEN_EXPIRED: BAD_LINK,
  INVALID_ORIGIN: ORIGIN_REFUSED,
  MISSING_OR_NULL_ORIGIN: ORIGIN_REFUSED,
  CROSS_SITE_NAVIGATION_LOGIN_BLOCKED: ORIGIN_REFUSED,
  INVALID_CALLBACK_URL: ORIGIN_REFUSED,
  INVALID_REDIRECT_URL: ORIGIN_REFUSED,
  UNAUTHORIZED: NO_SESSION,
  FAILED_TO_GET_SESSION: NO_SESSION,
  SESSION_EXPIRED: NO_SESSION,
  SESSION_NOT_FRESH: NO_SESSION,
};

const BY_STATUS: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  429: 'RATE_LIMIT_EXCEEDED',
};

/**
 * An error answer of better-auth (`{code, message}` with a status) as Pluck's AppError, which
 * the error handler turns into the spec's envelope. Codes not in the table keep their status
 * class with a generic code and better-auth's message; a 5xx is Pluck's INTERNAL_ERROR.
 */
export function translateAuthError(status: number, body: unknown): AppError {
  const code = isRecord(body) && typeof body.code === 'string' ? body.code : undefined;
  const message = isRecord(body) && typeof body.message === 'string' && body.message ? body.message : undefined;
  const known = code ? TRANSLATIONS[code] : undefined;
  if (known) return new AppError(known[0], known[1]);
  if (status >= 500) return new AppError('INTERNAL_ERROR', 'An internal error occurred', { cause: body });
  return new AppError(BY_STATUS[status] ?? 'BAD_REQUEST', message ?? 'The request was refused');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
