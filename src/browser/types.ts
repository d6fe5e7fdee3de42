import type { BrowserContext, Page } from 'playwright-core';

/**
 * The contract between the browser engine (src/browser, src/net) and the page operations
 * (src/web). The engine owns Chromium, its pool and the egress guard; operations only ever see
 * a loaded Page for the duration of one request.
 */

/**
 * Per-request browser context settings. Nothing one request's page did reaches another request
 * (warm-pages.ts resets a reused page), unless both name the same `session` of one account.
 */
export interface ContextOptions {
  /** The account's named session to run in: its cookies and storage are kept between its requests (browser-sessions.ts). */
  session?: string;
  viewport?: { width: number; height: number };
  deviceScaleFactor?: number;
  isMobile?: boolean;
  hasTouch?: boolean;
  userAgent?: string;
  /** Extra HTTP headers sent with every request of the page. */
  extraHeaders?: Record<string, string>;
  /** Cookies set before navigation; `url` or `domain` + `path` as Playwright wants them. */
  cookies?: Array<{ name: string; value: string; domain?: string; path?: string; url?: string }>;
  javaScriptEnabled?: boolean;
}

/** What a page's device looks like: set when its context is created, fixed for the context's life. */
export interface PageDevice {
  /** Device pixels per CSS pixel: an image of the page has this many times its CSS size. */
  deviceScaleFactor: number;
  /** A phone: the meta viewport tag is honoured and the layout may be wider than the screen, zoomed out. */
  isMobile: boolean;
}

/** The device a request's context settings make (Playwright's defaults where they say nothing). */
export function deviceOf(options: ContextOptions): PageDevice {
  return { deviceScaleFactor: options.deviceScaleFactor ?? 1, isMobile: options.isMobile ?? false };
}

export interface LoadOptions {
  /** Already checked by the address policy: exactly the string Chromium is given. */
  url: string;
  /** Unset: the document parsed, then the page settled (page-settle.ts). Set: exactly that Playwright wait. */
  waitUntil?: 'load' | 'domcontentloaded' | 'networkidle';
  /** What the page is loaded for, which decides the requests the default wait waits for (default text). */
  settleFor?: 'text' | 'render';
  /** Navigation timeout in ms (default 30 000, capped by config). */
  timeoutMs?: number;
  waitForSelector?: string;
  /** Extra wait after load, 0..5000 ms. */
  waitTimeMs?: number;
  /** Time the work on the loaded page needs beyond the usual bound (a caller's actions, which have their own deadline). */
  extraWorkMs?: number;
  /**
   * The document, already fetched over HTTP (the static engine, src/web/engines): shown as it was
   * sent with scripts off and only stylesheets loaded (static-render.ts), instead of a navigation
   * to `url`. The waits above do not apply: nothing moves on a page without scripts.
   */
  served?: ServedDocument;
  /**
   * The document, already fetched over HTTP (by `auto`, which found it needs its scripts): the
   * navigation goes to its URL and is answered with it, scripts on, instead of fetching it again.
   */
  prefetched?: ServedDocument & { headers: Record<string, string> };
}

/** A document as its server sent it. */
export interface ServedDocument {
  /** Where it was served from, after redirects: its base URL. */
  url: string;
  status: number;
  contentType: string;
  body: Uint8Array;
}

/** Something the caller should know about an answer that is still an answer. */
export interface PageWarning {
  code:
    | 'PAGE_INCOMPLETE'
    | 'PAGE_NOT_SETTLED'
    | 'LOADING_PLACEHOLDER'
    | 'RENDERED_WITHOUT_SCRIPTS'
    | 'SIMPLIFIED_EXTRACTION'
    | 'NO_CONTENT'
    | 'ANSWER_TRUNCATED';
  message: string;
}

export interface LoadedPage {
  page: Page;
  context: BrowserContext;
  /**
   * The device the page emulates: its context's, which in a named session is the device of the
   * request that opened the session, whatever this request asked for.
   */
  device: PageDevice;
  /** Where the page ended up after redirects. */
  finalUrl: string;
  /** HTTP status of the main document (0 when unknown, e.g. about:blank). */
  statusCode: number;
  contentType: string;
  /** What the load could not do as usual (the page never settled, still loading...); operations add their own. */
  warnings: PageWarning[];
  /** The renderer of `page` crashed: nothing can be read from it any more (see page-recovery.ts). */
  readonly crashed: boolean;
  /**
   * Once per load: gives a page that shows nothing yet a last chance to fill itself (waits for its
   * DOM to change, then to settle). True when something changed; false at once on a second call.
   * `stillWaiting` looks at the page again, once the wait watches it: whether it still shows
   * nothing (it may have filled itself since the caller read it).
   */
  waitForLateContent(stillWaiting: () => Promise<boolean>): Promise<boolean>;
  /**
   * The same document rendered again with scripts off (stylesheets only, nothing else loaded), in
   * the same context: for pages whose scripts hid, removed or never built their content.
   * Undefined when the document's bytes are no longer available.
   */
  withoutScripts(): Promise<Page | undefined>;
  /** Stops following the page's events (its requests, load, a crash), and undoes what the load set on it: for when the work on it is done. */
  stopWatching(): void | Promise<void>;
}

/** Who a page is for: its account (for a fair share of the pages) and the caller's abort signal. */
export interface PageClaim {
  /** Pages are shared fairly between accounts; requests without one share a single account. */
  account?: string;
  /** Aborted when the caller's connection closes: the request leaves the queue or its page is closed at once. */
  signal?: AbortSignal;
}

/** The pool hands out a page for the duration of `work` and always cleans up after it. */
export interface PageRunner {
  withLoadedPage<T>(context: ContextOptions, load: LoadOptions, work: (loaded: LoadedPage) => Promise<T>, claim?: PageClaim): Promise<T>;
  /** The user agent the browser sends when a request sets none. */
  userAgent(): Promise<string>;
}

/** The pool and its queue are full, or a request waited too long: 503 SERVICE_OVERLOADED. */
export class PoolOverloaded extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = 'PoolOverloaded';
  }
}

/** The caller went away (its connection closed) before the answer was ready: the work stops. */
export class RequestAborted extends Error {
  constructor() {
    super('The client closed the request');
    this.name = 'RequestAborted';
  }
}

/** Chromium died or disconnected while the request was using it, or a new context of it could not be set up: 503, safe to retry. */
export class BrowserCrashed extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BrowserCrashed';
  }
}

/** The target did not answer (DNS failure, connection refused/reset, refused by the guard mid-way): 502. */
export class TargetUnreachable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TargetUnreachable';
  }
}

/** The page crashed its renderer and its document could not be rendered again: 502. */
export class PageCrashed extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PageCrashed';
  }
}

/** Navigation or waitForSelector exceeded its time: 504. */
export class NavigationTimeout extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NavigationTimeout';
  }
}

/** A page option Chromium rejected (an invalid `waitForSelector`, cookie or header): 422. */
export class InvalidPageOption extends Error {
  constructor(
    message: string,
    /** The request field at fault, e.g. `waitForSelector` or `cookies`. */
    readonly field: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'InvalidPageOption';
  }
}
