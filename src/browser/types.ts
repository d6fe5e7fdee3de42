import type { BrowserContext, Page } from 'playwright-core';

/**
 * The contract between the browser engine (src/browser, src/net) and the page operations
 * (src/web). The engine owns Chromium, its pool and the egress guard; operations only ever see
 * a loaded Page for the duration of one request.
 */

/** Per-request browser context settings. Each request gets a fresh context: nothing is shared. */
export interface ContextOptions {
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

export interface LoadOptions {
  /** Already checked by the address policy: exactly the string Chromium is given. */
  url: string;
  waitUntil?: 'load' | 'domcontentloaded' | 'networkidle';
  /** Navigation timeout in ms (default 30 000, capped by config). */
  timeoutMs?: number;
  waitForSelector?: string;
  /** Extra wait after load, 0..5000 ms. */
  waitTimeMs?: number;
}

export interface LoadedPage {
  page: Page;
  context: BrowserContext;
  /** Where the page ended up after redirects. */
  finalUrl: string;
  /** HTTP status of the main document (0 when unknown, e.g. about:blank). */
  statusCode: number;
  contentType: string;
}

/** The pool hands out a page for the duration of `work` and always cleans up after it. */
export interface PageRunner {
  withLoadedPage<T>(context: ContextOptions, load: LoadOptions, work: (loaded: LoadedPage) => Promise<T>): Promise<T>;
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

/** Chromium died or disconnected while the request was using it: 503, safe to retry. */
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
