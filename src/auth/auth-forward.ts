import type { Context } from 'hono';
import { sql } from 'kysely';
import { databaseUnavailable } from '../db/database.js';
import type { AppEnv } from '../http/context.js';
import { toleratingMailFailure } from './account-mail.js';
import { translateAuthError } from './auth-errors.js';
import type { AccountServices } from '../accounts/account-services.js';
import type { Platform } from '../platform.js';

/** Headers better-auth may see from any caller. Cookies never: Pluck authenticates by header only. */
const PASSED_HEADERS = ['authorization', 'user-agent', 'accept-language'];

/** A browser page's request names its origin or site; these are what better-auth's CSRF checks read. */
const BROWSER_HEADERS = ['origin', 'referer', 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest'];
const BROWSER_MARKS = ['origin', 'referer', 'sec-fetch-site'];

/**
 * The headers handed to better-auth. A request naming no origin and no site is not a browser
 * page's (curl, scripts, Node's fetch, which sends only Sec-Fetch-Mode): better-auth's
 * cross-site checks exist for browsers, and given Sec-Fetch-Mode alone they demand an Origin
 * no script sends. So only a request that marks itself a browser's passes its fetch
 * metadata, and is checked as before: its Origin must be PUBLIC_BASE_URL or FRONTEND_URL.
 * A browser's POST always carries Origin, or Sec-Fetch-Site on secure origins; a cross-site
 * form post without either is not JSON and was refused with 415 before reaching here.
 */
function authHeaders(incoming: Headers): Headers {
  const headers = new Headers({ 'content-type': 'application/json' });
  const fromBrowser = BROWSER_MARKS.some((name) => incoming.has(name));
  for (const name of fromBrowser ? [...PASSED_HEADERS, ...BROWSER_HEADERS] : PASSED_HEADERS) {
    const value = incoming.get(name);
    if (value !== null) headers.set(name, value);
  }
  return headers;
}

export interface ForwardOptions {
  /** The validated body, sent as JSON; none for GET. */
  body?: unknown;
  /**
   * The route may send mail: its answer says where it went (`mailDelivery`), and a message the
   * mail server refuses does not fail it. `report` answers `failed` then (sign-up, which tells
   * a taken address anyway); `conceal` answers as usual, for routes that must answer alike for
   * every address. Either way the refusal is logged.
   */
  mail?: 'report' | 'conceal';
}

/** What these functions use of the running service. */
type Services = Pick<AccountServices, 'accountMail' | 'auth'> & Pick<Platform, 'database'>;

/**
 * Hands a validated request to better-auth and answers with its result. Successes keep
 * better-auth's body (plus `mailDelivery` on mail routes) and its `set-auth-token` header, without cookies; errors
 * become Pluck's envelope with Pluck's codes (auth-errors.ts).
 */
export async function forwardToAuth(c: Context<AppEnv>, ctx: Services, options: ForwardOptions = {}): Promise<Response> {
  const request = new Request(c.req.url, {
    method: c.req.method,
    headers: authHeaders(c.req.raw.headers),
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const { value: response, mailFailed } = options.mail
    ? await toleratingMailFailure(() => ctx.auth.handler(request))
    : { value: await ctx.auth.handler(request), mailFailed: false };
  if (response.status >= 400) {
    const body: unknown = await response.json().catch(() => undefined);
    if (response.status >= 500) await assertDatabaseReachable(ctx);
    throw translateAuthError(response.status, body);
  }
  const headers = new Headers(response.headers);
  headers.delete('set-cookie');
  headers.delete('content-length');
  if (!options.mail || !headers.get('content-type')?.includes('json')) {
    return new Response(response.body, { status: response.status, headers });
  }
  const body: unknown = await response.json();
  const mailDelivery = mailFailed && options.mail === 'report' ? 'failed' : ctx.accountMail.delivery;
  const merged = typeof body === 'object' && body !== null ? { ...body, mailDelivery } : body;
  return new Response(JSON.stringify(merged), { status: response.status, headers });
}

/** better-auth answers 500 when the database is gone; callers should hear 503, retry later. */
async function assertDatabaseReachable(ctx: Services): Promise<void> {
  try {
    await sql`select 1`.execute(ctx.database.db);
  } catch (error) {
    throw databaseUnavailable(error);
  }
}
