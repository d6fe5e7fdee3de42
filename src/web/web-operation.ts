import type { Logger } from 'pino';
import type { Billing } from '../accounts/billing.js';
import { type MeteredDeps, runMetered } from '../accounts/metered-operation.js';
import type { Principal } from '../auth/principal.js';
import { withAppErrors } from '../browser/errors.js';
import { AppError } from '../http/errors.js';
import type { ContextOptions, LoadedPage, LoadOptions, PageRunner } from '../browser/types.js';
import { fingerprint } from '../cache/fingerprint.js';
import { cacheKey, type ResultCache } from '../cache/result-cache.js';
import type { Config, WebOperation } from '../config.js';
import type { ConcurrencyLimiter } from '../limits/concurrency-limiter.js';
import type { AddressPolicy } from '../net/address-policy.js';
import { type PageRequest, toLoadOptions } from './page-options.js';

export interface WebOperationRequest<T> {
  operation: WebOperation;
  principal: Principal;
  requestId: string;
  log: Logger;
  page: PageRequest & { maxAge?: number };
  /** Everything that changes the result, besides the page fields; part of the cache key. */
  variant?: unknown;
  context: ContextOptions;
  /** Produces the JSON-serialisable result from the loaded page. */
  work: (loaded: LoadedPage) => Promise<T>;
  /** A cached value that can no longer be served (its stored file is gone) counts as a miss. */
  isUsable?: (cached: T) => Promise<boolean>;
  /** What of the result goes into the cache (default: all of it); e.g. without image bytes. */
  toCacheValue?: (value: T) => T;
  /** A result answered without charge and not cached (default: none): an empty page. */
  isFree?: (value: T) => boolean;
  /** What the page is loaded for (default text): a rendering also waits for images and fonts. */
  settleFor?: LoadOptions['settleFor'];
  /** The caller's connection: when it closes, the request leaves the queue or its page closes at once. */
  signal?: AbortSignal;
}

export interface WebOperationResult<T> {
  value: T;
  cache: 'HIT' | 'MISS';
  creditsCost: number;
}

export interface WebOperationDeps {
  config: Config;
  policy: AddressPolicy;
  browser: PageRunner;
  billing: Billing;
  cache: ResultCache;
  concurrency: ConcurrencyLimiter;
  metrics?: MeteredDeps['metrics'];
}

/**
 * The path every page operation takes: URL form check, then the metered path shared with
 * search and captions (`runMetered`: concurrency slot -> credit reservation -> cache lookup),
 * then the browser. Engine and policy errors become API errors here.
 */
export class WebOperationRunner {
  constructor(private readonly deps: WebOperationDeps) {}

  async run<T>(request: WebOperationRequest<T>): Promise<WebOperationResult<T>> {
    return this.metered(request, () => this.loadPage(request, request.work));
  }

  /**
   * A page operation with a further step once the browser page is given back (e.g. a slow model
   * call that should not hold a pooled page): still inside the metering, so its failure refunds
   * the credits, and its result is what gets cached.
   */
  async runAfterPage<P, T>(
    request: Omit<WebOperationRequest<T>, 'work'> & { work: (loaded: LoadedPage) => Promise<P> },
    afterPage: (fromPage: P) => Promise<T>,
  ): Promise<WebOperationResult<T>> {
    return this.metered(request, async () => afterPage(await this.loadPage(request, request.work)));
  }

  private loadPage<P>(
    request: Pick<WebOperationRequest<unknown>, 'context' | 'page' | 'settleFor' | 'principal' | 'signal'>,
    work: (loaded: LoadedPage) => Promise<P>,
  ) {
    const load = { ...toLoadOptions(request.page), settleFor: request.settleFor };
    const claim = { account: request.principal.userId, signal: request.signal };
    return withAppErrors(() => this.deps.browser.withLoadedPage(request.context, load, work, claim));
  }

  private async metered<T>(request: Omit<WebOperationRequest<T>, 'work'>, produce: () => Promise<T>): Promise<WebOperationResult<T>> {
    const { config, policy } = this.deps;
    // Scheme and literal-address refusals need no slot, credits or browser.
    await withAppErrors(async () => policy.parse(request.page.url));
    const metered = {
      principal: request.principal,
      requestId: request.requestId,
      log: request.log,
      operation: `web:${request.operation}`,
      cost: config.web.creditCosts[request.operation],
      cache: {
        key: cacheKey('v1', request.operation, pageFingerprint(request)),
        maxAgeSeconds: request.page.maxAge,
        isUsable: request.isUsable,
        toCacheValue: request.toCacheValue,
      },
      isFree: request.isFree,
      // A page held until its timeout is paid for: otherwise holding pages with targets that never
      // answer would cost an account nothing while keeping them from everyone else.
      chargesFailure: isTargetTimeout,
    };
    return runMetered(this.deps, metered, produce);
  }
}

function isTargetTimeout(error: unknown): boolean {
  return error instanceof AppError && error.code === 'TARGET_TIMEOUT';
}

/** Everything that determines the result (maxAge left out: it only chooses among results). */
function pageFingerprint({ page, variant }: { page: PageRequest & { maxAge?: number }; variant?: unknown }): string {
  const { maxAge: _maxAge, ...fields } = page;
  return fingerprint({ page: fields, variant: variant ?? null });
}
