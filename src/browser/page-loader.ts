import { type BrowserContext, errors, type Page, type Request, type Response } from 'playwright-core';
import type { AddressPolicy } from '../net/address-policy.js';
import { EGRESS_HEADER, type EgressOutcome } from '../net/egress-proxy.js';
import { AddressNotAllowed } from '../net/errors.js';
import { InvalidPageOption, type LoadedPage, type LoadOptions, NavigationTimeout, TargetUnreachable } from './types.js';

export const DEFAULT_NAVIGATION_TIMEOUT_MS = 30_000;
export const MAX_WAIT_TIME_MS = 5_000;

/** What the loader needs from the engine around it. */
export interface LoadGuard {
  policy: AddressPolicy;
  /** Reads the egress proxy's mark on an answer it wrote itself (refusal or unreachable target). */
  egressOutcome(headerValue: string | undefined): EgressOutcome | undefined;
  navigationTimeoutMaxMs: number;
}

/** The navigation timeout actually used: the caller's (default 30 s), at least 1 ms, capped by config. */
export function navigationTimeout(requestedMs: number | undefined, maxMs: number): number {
  return Math.min(Math.max(1, Math.round(requestedMs ?? DEFAULT_NAVIGATION_TIMEOUT_MS)), maxMs);
}

/**
 * Navigates `page` to an address-checked URL and waits as asked. Every wait is bounded:
 * navigation and `waitForSelector` share the navigation timeout, `waitTimeMs` is capped at 5 s.
 * A target answering 4xx/5xx still loads and says so in `statusCode`.
 */
export async function loadPage(page: Page, context: BrowserContext, options: LoadOptions, guard: LoadGuard): Promise<LoadedPage> {
  const checked = await guard.policy.check(options.url);
  const timeoutMs = navigationTimeout(options.timeoutMs, guard.navigationTimeoutMaxMs);
  const deadline = Date.now() + timeoutMs;
  const tracker = trackMainDocument(page);
  try {
    await navigate(page, checked.url, options.waitUntil ?? 'load', timeoutMs, tracker, guard);
    await refuseEgressAnswer(tracker.response, checked.url, guard);
    if (options.waitForSelector) await waitForSelector(page, options.waitForSelector, deadline);
    const waitTimeMs = Math.min(Math.max(0, options.waitTimeMs ?? 0), MAX_WAIT_TIME_MS);
    if (waitTimeMs > 0) await page.waitForTimeout(waitTimeMs);
    // A script or meta refresh may have navigated again, possibly somewhere refused.
    await refuseEgressAnswer(tracker.response, checked.url, guard);
  } finally {
    tracker.stop();
  }
  const main = tracker.response;
  return {
    page,
    context,
    finalUrl: page.url(),
    statusCode: main?.status() ?? 0,
    contentType: main?.headers()['content-type'] ?? '',
  };
}

interface MainDocumentTracker {
  /** The last main-frame document response (after redirects and later navigations). */
  readonly response: Response | undefined;
  /** The URL of the last main-frame navigation request, even one that never got an answer. */
  readonly requestUrl: string | undefined;
  stop(): void;
}

function trackMainDocument(page: Page): MainDocumentTracker {
  const state: { response?: Response; requestUrl?: string } = {};
  const isMainNavigation = (request: Request) => {
    try {
      return request.isNavigationRequest() && request.frame() === page.mainFrame();
    } catch {
      return false; // service-worker requests have no frame
    }
  };
  const onRequest = (request: Request) => {
    if (isMainNavigation(request)) state.requestUrl = request.url();
  };
  const onResponse = (response: Response) => {
    if (isMainNavigation(response.request())) state.response = response;
  };
  page.on('request', onRequest);
  page.on('response', onResponse);
  return {
    get response() {
      return state.response;
    },
    get requestUrl() {
      return state.requestUrl;
    },
    stop() {
      page.off('request', onRequest);
      page.off('response', onResponse);
    },
  };
}

async function navigate(
  page: Page,
  url: string,
  waitUntil: NonNullable<LoadOptions['waitUntil']>,
  timeoutMs: number,
  tracker: MainDocumentTracker,
  guard: LoadGuard,
): Promise<void> {
  try {
    await page.goto(url, { waitUntil, timeout: timeoutMs });
  } catch (error) {
    if (error instanceof errors.TimeoutError) {
      throw new NavigationTimeout(`${url} did not finish loading within ${timeoutMs} ms`, { cause: error });
    }
    // The failing hop may be a redirect to a refused address: an https tunnel the proxy
    // refused only shows up as a failed connection, so the hop is checked again here.
    const failedUrl = tracker.requestUrl ?? url;
    await guard.policy.check(failedUrl).catch((refusal: unknown) => {
      if (refusal instanceof AddressNotAllowed && failedUrl !== url) {
        throw new AddressNotAllowed(`${url} redirected to ${failedUrl}: ${refusal.message}`, failedUrl);
      }
      throw refusal;
    });
    throw new TargetUnreachable(`${url} could not be loaded (${networkErrorOf(error)})`, { cause: error });
  }
}

/** The main document is an answer the egress proxy wrote: turn it into the matching error. */
async function refuseEgressAnswer(response: Response | undefined, requestedUrl: string, guard: LoadGuard): Promise<void> {
  if (!response) return;
  const outcome = guard.egressOutcome(response.headers()[EGRESS_HEADER]);
  if (outcome === undefined) return;
  const url = response.url();
  const via = url === requestedUrl ? '' : `${requestedUrl} led to ${url}: `;
  if (outcome === 'unreachable') throw new TargetUnreachable(`${via}${url} could not be reached`);
  // Checking again gives the reason (the proxy's own check happened in another place).
  const reason = await guard.policy.check(url).then(
    () => `${url} resolved to an address that is not allowed`,
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
  throw new AddressNotAllowed(`${via}${reason}`, url);
}

async function waitForSelector(page: Page, selector: string, deadline: number): Promise<void> {
  const timeout = Math.max(1, deadline - Date.now());
  try {
    await page.waitForSelector(selector, { state: 'attached', timeout });
  } catch (error) {
    if (error instanceof errors.TimeoutError) {
      throw new NavigationTimeout(`No element matched waitForSelector "${selector}" in time`, { cause: error });
    }
    throw new InvalidPageOption(`waitForSelector "${selector}" is not a valid selector`, 'waitForSelector', { cause: error });
  }
}

/** Chromium's net error name (e.g. `net::ERR_CONNECTION_REFUSED`) for the message, when present. */
function networkErrorOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return /net::ERR_[A-Z_]+/.exec(message)?.[0] ?? 'navigation failed';
}
