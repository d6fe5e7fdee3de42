import type { Response } from 'undici';
import type { GuardedFetch } from './guarded-fetch.js';
import { AddressNotAllowed } from './errors.js';

/** Chromium follows at most 20 redirects; a reader of documents needs fewer. */
const MAX_REDIRECTS = 10;

export interface TargetCookie {
  name: string;
  value: string;
  /** The cookie's site: `domain` (and `path`), or the URL it was set for. */
  domain?: string;
  path?: string;
  url?: string;
}

export interface TargetRequest {
  url: string;
  /** The caller's extra headers, sent with every hop, as the browser sends them with every request. */
  headers?: Record<string, string>;
  cookies?: TargetCookie[];
  /** The browser's own, unless the caller set one: a site answers this reader as it answers the browser. */
  userAgent: string;
  timeoutMs: number;
  /** At most this many bytes of the (decoded) body are read; a longer body is cut there and says so. */
  maxBytes: number;
  signal?: AbortSignal;
}

/** A target's answer as one GET got it, redirects followed. */
export interface FetchedTarget {
  /** After redirects. */
  url: string;
  status: number;
  headers: Record<string, string>;
  /** The whole body, or its first `maxBytes` when `overLimit`. */
  body: Uint8Array;
  /** The body was longer than `maxBytes`: its reading stopped there. */
  overLimit: boolean;
  /** The body was still arriving when the time was up: this is the part that had arrived. */
  incomplete: boolean;
}

/** The target did not answer (refused, reset, TLS) or broke off its answer. */
export class TargetFetchFailed extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TargetFetchFailed';
  }
}

/** The target's answer did not arrive in time. */
export class TargetFetchTimedOut extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TargetFetchTimedOut';
  }
}

/**
 * One GET of a caller's URL on the server side, as the browser would send it (the caller's user
 * agent, headers and cookies), through the guarded fetch: every hop's address passes the policy
 * that pages pass. Redirects are followed here, hop by hop, so that each hop gets only its own
 * site's cookies and a redirect to another scheme is refused. The body is read as it streams in,
 * up to `maxBytes` of it decoded (a compressed bomb stops at the bound too), within `timeoutMs`
 * for the whole exchange.
 */
export async function fetchTarget(fetch: GuardedFetch, request: TargetRequest): Promise<FetchedTarget> {
  const timeout = AbortSignal.timeout(Math.max(1, request.timeoutMs));
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  let url = request.url;
  try {
    for (let hop = 0; ; hop += 1) {
      const response = await fetch(url, { method: 'GET', headers: headersFor(url, request), redirect: 'manual', signal });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location !== null) {
        await response.body?.cancel().catch(() => undefined);
        if (hop >= MAX_REDIRECTS) throw new TargetFetchFailed(`${request.url} redirected more than ${MAX_REDIRECTS} times`);
        const next = new URL(location, url);
        if (next.protocol !== 'http:' && next.protocol !== 'https:') {
          throw new AddressNotAllowed(`${request.url} redirected to ${next.protocol} URL`, next.href);
        }
        url = next.href;
        continue;
      }
      const { body, overLimit, incomplete } = await readUpTo(response, request.maxBytes, timeout);
      return { url, status: response.status, headers: Object.fromEntries(response.headers), body, overLimit, incomplete };
    }
  } catch (error) {
    if (error instanceof AddressNotAllowed || error instanceof TargetFetchFailed) throw error;
    if (timeout.aborted) throw new TargetFetchTimedOut(`${request.url} did not answer within ${request.timeoutMs} ms`, { cause: error });
    if (request.signal?.aborted) throw error;
    throw new TargetFetchFailed(`${url} could not be loaded (${causeOf(error)})`, { cause: error });
  }
}

/** The body up to `maxBytes`; when `timeout` fires after some of it came, the part that came. */
async function readUpTo(response: Response, maxBytes: number, timeout: AbortSignal): Promise<{ body: Uint8Array; overLimit: boolean; incomplete: boolean }> {
  if (!response.body) return { body: new Uint8Array(0), overLimit: false, incomplete: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = (await reader.read()) as ReadableStreamReadResult<Uint8Array>;
    } catch (error) {
      if (timeout.aborted && size > 0) return { body: join(chunks, size), overLimit: false, incomplete: true };
      throw error;
    }
    const { done, value } = next;
    if (done) break;
    if (size + value.byteLength > maxBytes) {
      chunks.push(value.subarray(0, maxBytes - size));
      size = maxBytes;
      await reader.cancel().catch(() => undefined);
      return { body: join(chunks, size), overLimit: true, incomplete: false };
    }
    chunks.push(value);
    size += value.byteLength;
  }
  return { body: join(chunks, size), overLimit: false, incomplete: false };
}

function join(chunks: Uint8Array[], size: number): Uint8Array {
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** What a browser sends for a top-level navigation, with the caller's additions. */
function headersFor(url: string, request: TargetRequest): Record<string, string> {
  const headers: Record<string, string> = {
    accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    'accept-language': 'en-US,en;q=0.9',
    'user-agent': request.userAgent,
  };
  for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
  const cookie = cookiesFor(new URL(url), request.cookies ?? []);
  if (cookie) headers.cookie = cookie;
  return headers;
}

/** The cookies a browser would send to `url`: those of its host (or a parent domain) and path. */
export function cookiesFor(url: URL, cookies: TargetCookie[]): string {
  const host = url.hostname.toLowerCase();
  return cookies
    .filter((cookie) => {
      if (cookie.url !== undefined) return URL.canParse(cookie.url) && new URL(cookie.url).hostname.toLowerCase() === host;
      const domain = (cookie.domain ?? '').toLowerCase().replace(/^\./, '');
      const path = cookie.path ?? '/';
      return (host === domain || host.endsWith(`.${domain}`)) && url.pathname.startsWith(path);
    })
    .map((cookie) => `${cookie.name}=${cookie.value}`)
    .join('; ');
}

function causeOf(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && !code.startsWith('UND_ERR_ABORTED')) return code;
    current = current.cause;
  }
  return error instanceof Error ? error.message : String(error);
}
