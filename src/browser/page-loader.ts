import { type BrowserContext, errors, type Page, type Request, type Response, type Route } from 'playwright-core';
import type { AddressPolicy } from '../net/address-policy.js';
import { EGRESS_HEADER, type EgressOutcome } from '../net/egress-proxy.js';
import { AddressNotAllowed } from '../net/errors.js';
import {
  isErrorPage,
  LATE_CONTENT_WAIT_MS,
  QUIET_MS,
  PageActivity,
  SETTLE_MAX_MS,
  showsPlaceholder,
  waitForLateContent,
  waitUntilSettled,
} from './page-settle.js';
import { watchPage } from './page-events.js';
import { STATIC_RENDER_MIN_MS, standInFor } from './page-recovery.js';
import { renderWithoutScripts, showWithoutScripts } from './static-render.js';
import { InvalidPageOption, type LoadedPage, type LoadOptions, NavigationTimeout, type PageDevice, type PageWarning, TargetUnreachable } from './types.js';

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
 * navigation, the default settling and `waitForSelector` share the navigation timeout,
 * `waitTimeMs` is capped at 5 s. A target answering 4xx/5xx still loads and says so in
 * `statusCode`.
 *
 * Without `waitUntil`, the page is waited for as a reader would: until its document is parsed,
 * then until it settles (page-settle.ts). A page that never finishes still answers with what it
 * has, and `warnings` says so; only a page that never started to arrive is a NavigationTimeout.
 */
export async function loadPage(
  { page, context, device }: { page: Page; context: BrowserContext; device: PageDevice },
  options: LoadOptions,
  guard: LoadGuard,
): Promise<LoadedPage> {
  if (options.served) return showServed({ page, context, device }, options.served, navigationTimeout(options.timeoutMs, guard.navigationTimeoutMaxMs));
  const checked = await guard.policy.check(options.prefetched ? new URL(options.prefetched.url).href : options.url);
  const timeoutMs = navigationTimeout(options.timeoutMs, guard.navigationTimeoutMaxMs);
  const deadline = performance.now() + timeoutMs;
  const tracker = trackMainDocument(page, (response) => guard.egressOutcome(response.headers()[EGRESS_HEADER]) !== undefined);
  const activity = new PageActivity(page, options.settleFor ?? 'text');
  const warnings: PageWarning[] = [];
  let lateContentWaited = false;
  const unanswer = options.prefetched ? await answerNavigationWith(page, options.prefetched) : undefined;
  try {
    await navigate(page, checked.url, options.waitUntil ?? 'commit', timeoutMs, tracker, guard);
    await unanswer?.();
    await refuseEgressAnswer(tracker.response, checked.url, guard);
    if (!options.waitUntil) lateContentWaited = await settle(page, activity, deadline, timeoutMs, warnings);
    if (options.waitForSelector) await waitForSelector(page, options.waitForSelector, deadline);
    const waitTimeMs = Math.min(Math.max(0, options.waitTimeMs ?? 0), MAX_WAIT_TIME_MS);
    if (waitTimeMs > 0) await page.waitForTimeout(waitTimeMs);
    // A script or meta refresh may have navigated again: somewhere refused, or somewhere dead.
    await refuseEgressAnswer(tracker.response, checked.url, guard, 'later');
  } catch (error) {
    // A renderer that crashed once the document had arrived leaves that document to read.
    if (!activity.crashed || !tracker.document || error instanceof AddressNotAllowed) {
      activity.stop();
      throw error;
    }
  } finally {
    tracker.stop();
    await unanswer?.();
  }
  const main = tracker.document;
  const deadEnd = isErrorPage(page) || guard.egressOutcome(tracker.response?.headers()[EGRESS_HEADER]) === 'unreachable';
  const failure = activity.crashed ? 'crashed' : deadEnd ? 'navigation failed' : undefined;
  const shown = failure
    ? await standInFor(failure, { context, document: main, requestedUrl: checked.url, failedUrl: tracker.requestUrl, deadline, warnings, guard }).catch((error: unknown) => {
        activity.stop();
        throw error;
      })
    : page;
  return {
    page: shown,
    context,
    device,
    finalUrl: shown === page ? page.url() : (main?.url() ?? checked.url),
    statusCode: main?.status() ?? 0,
    contentType: main?.headers()['content-type'] ?? '',
    warnings,
    get crashed() {
      return shown === page && activity.crashed;
    },
    waitForLateContent: async (stillWaiting) => {
      if (lateContentWaited || shown !== page) return false;
      lateContentWaited = true;
      return waitForLateContent(page, activity, performance.now() + LATE_CONTENT_WAIT_MS + SETTLE_MAX_MS, stillWaiting);
    },
    stopWatching: () => activity.stop(),
    withoutScripts: async () => (main ? renderWithoutScripts(context, main, Math.max(STATIC_RENDER_MIN_MS, deadline - performance.now())) : undefined),
  };
}

/**
 * A document fetched over HTTP, shown as it was sent with scripts off (the static engine): its
 * page is the answer as it is, with nothing to wait for and no second rendering to try. The page
 * is turned back into an ordinary one when the work on it is done, before it is reset for reuse.
 */
async function showServed(
  { page, context, device }: { page: Page; context: BrowserContext; device: PageDevice },
  served: NonNullable<LoadOptions['served']>,
  timeoutMs: number,
): Promise<LoadedPage> {
  let undo: (() => Promise<void>) | undefined;
  try {
    undo = await showWithoutScripts(page, served, timeoutMs);
  } catch (error) {
    if (error instanceof errors.TimeoutError) throw new NavigationTimeout(`${served.url} could not be shown within ${timeoutMs} ms`, { cause: error });
    throw error;
  }
  let crashed = false;
  page.once('crash', () => {
    crashed = true;
  });
  return {
    page,
    context,
    device,
    finalUrl: served.url,
    statusCode: served.status,
    contentType: served.contentType,
    warnings: [],
    get crashed() {
      return crashed;
    },
    waitForLateContent: async () => false,
    withoutScripts: async () => undefined,
    // A page that cannot be given its scripts back is closed, so it is never handed out again.
    stopWatching: () => undo?.().catch(() => page.close().catch(() => undefined)),
  };
}

/**
 * The default wait after the first bytes: the document parsed, then the page settled, then one
 * wait for a page that still shows only a loading placeholder to fill itself. A page that shows
 * nothing at all and has nothing in flight is more often blank than late: for text, its document
 * is read without scripts (page-markdown.ts), which is quicker and is what such pages (forum
 * software's `<noscript>` posts) have to offer, before any wait.
 *
 * @returns true when no wait for late content is left to give (it was given, or time is up).
 */
async function settle(
  page: Page,
  activity: PageActivity,
  deadline: number,
  timeoutMs: number,
  warnings: PageWarning[],
): Promise<boolean> {
  const parsed = await page.waitForLoadState('domcontentloaded', { timeout: Math.max(1, deadline - performance.now()) }).then(
    () => true,
    () => false,
  );
  if (activity.crashed) return true;
  if (!parsed) {
    warnings.push({ code: 'PAGE_INCOMPLETE', message: `The document was still arriving after ${timeoutMs} ms; this is the part that had arrived` });
    return true; // no time left to wait for anything more
  }
  const parsedAt = performance.now();
  const settled = await waitUntilSettled(page, activity, Math.min(deadline, parsedAt + SETTLE_MAX_MS));
  if (activity.crashed) return true;
  if (!settled) {
    const seconds = ((performance.now() - parsedAt) / 1000).toFixed(1);
    warnings.push({ code: 'PAGE_NOT_SETTLED', message: `The page was still loading or changing ${seconds} s after its document was parsed; this is how it was then` });
  }
  if (!(await showsPlaceholder(page))) return false;
  await waitForLateContent(page, activity, Math.min(deadline, performance.now() + LATE_CONTENT_WAIT_MS + QUIET_MS * 2), () => showsPlaceholder(page));
  if (await showsPlaceholder(page)) {
    warnings.push({ code: 'LOADING_PLACEHOLDER', message: 'The page still shows a loading or browser-check placeholder' });
  }
  return true;
}

/** Headers that describe the bytes as they travelled, not as they are handed over here (decoded, whole). */
const TRANSFER_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);

/**
 * Answers the page's first top-level navigation with a document fetched already, so the target
 * is not asked for it twice; everything after it (subresources, later navigations) goes out as
 * usual. @returns what stops answering (idempotent), once the navigation is done or failed.
 */
async function answerNavigationWith(page: Page, document: NonNullable<LoadOptions['prefetched']>): Promise<() => Promise<void>> {
  let answered = false;
  const answer = async (route: Route) => {
    const request = route.request();
    if (answered || !request.isNavigationRequest() || request.frame() !== page.mainFrame()) return route.fallback();
    answered = true;
    const headers = Object.fromEntries(Object.entries(document.headers).filter(([name]) => !TRANSFER_HEADERS.has(name.toLowerCase())));
    return route.fulfill({ status: document.status, headers, body: Buffer.from(document.body) });
  };
  const href = new URL(document.url).href;
  const matches = (url: URL) => url.href === href;
  await page.route(matches, answer);
  let stopped = false;
  return async () => {
    if (stopped) return;
    stopped = true;
    await page.unroute(matches, answer).catch(() => undefined);
  };
}

interface MainDocumentTracker {
  /** The last main-frame document response (after redirects and later navigations). */
  readonly response: Response | undefined;
  /** The last of those that is a document the target sent: not a redirect, not an answer of the egress proxy. */
  readonly document: Response | undefined;
  /** The URL of the last main-frame navigation request, even one that never got an answer. */
  readonly requestUrl: string | undefined;
  stop(): void;
}

function trackMainDocument(page: Page, isProxyAnswer: (response: Response) => boolean): MainDocumentTracker {
  const state: { response?: Response; document?: Response; requestUrl?: string } = {};
  const isMainNavigation = (request: Request) => {
    try {
      return request.isNavigationRequest() && request.frame() === page.mainFrame();
    } catch {
      return false; // service-worker requests have no frame
    }
  };
  // A reused page may still deliver an answer to a navigation of its previous request (one its
  // reset cancelled): only navigations that started while this tracker watched count.
  const ours = new WeakSet<Request>();
  const onRequest = (request: Request) => {
    if (!isMainNavigation(request)) return;
    ours.add(request);
    state.requestUrl = request.url();
  };
  const onResponse = (response: Response) => {
    const request = response.request();
    if (!ours.has(request)) return; // every redirect hop is a request of its own
    state.response = response;
    const redirect = response.status() >= 300 && response.status() < 400 && response.headers().location !== undefined;
    if (!redirect && !isProxyAnswer(response)) state.document = response;
  };
  const unwatch = watchPage(page, { request: onRequest, response: onResponse });
  return {
    get response() {
      return state.response;
    },
    get document() {
      return state.document;
    },
    get requestUrl() {
      return state.requestUrl;
    },
    stop: unwatch,
  };
}

async function navigate(
  page: Page,
  url: string,
  waitUntil: NonNullable<LoadOptions['waitUntil']> | 'commit',
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

/**
 * The main document is an answer the egress proxy wrote: turn it into the matching error. A
 * `later` navigation (after the page had loaded) that found its target unreachable is left to
 * `recoverFromFailedNavigation`: the page that did load is still there to answer with. A name
 * that does not resolve to a loadable address is unreachable to the proxy whatever it resolves
 * to (so nothing tells the two apart), and refused here when it is where the request led.
 */
async function refuseEgressAnswer(response: Response | undefined, requestedUrl: string, guard: LoadGuard, when: 'first' | 'later' = 'first'): Promise<void> {
  if (!response) return;
  const outcome = guard.egressOutcome(response.headers()[EGRESS_HEADER]);
  if (outcome === undefined || (outcome === 'unreachable' && when === 'later')) return;
  const url = response.url();
  const via = url === requestedUrl ? '' : `${requestedUrl} led to ${url}: `;
  // Checking again gives the reason (the proxy's own check happened in another place).
  const refusal = await guard.policy.check(url).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (refusal instanceof AddressNotAllowed) throw new AddressNotAllowed(`${via}${refusal.message}`, url);
  if (outcome === 'unreachable') throw new TargetUnreachable(`${via}${url} could not be reached`);
  throw new AddressNotAllowed(`${via}${url} resolved to an address that is not allowed`, url);
}

/** `deadline` is a `performance.now()` time. */
async function waitForSelector(page: Page, selector: string, deadline: number): Promise<void> {
  const timeout = Math.max(1, deadline - performance.now());
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
