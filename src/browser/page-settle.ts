import type { JSHandle, Page, Request } from 'playwright-core';
import { evaluateFunction } from '../extract/page-script.js';
import { watchPage } from './page-events.js';

/**
 * The default wait: after the document is parsed, until the page settles. A page is settled when
 * neither its network nor its DOM has moved for a short window, or at once when `load` has fired
 * with nothing left in flight. Requests that cannot change the result do not hold it up: for
 * text (markdown, content, links, scrape) only the main frame's documents, scripts, stylesheets
 * and fetches count; for pictures (screenshot, pdf) images and fonts in every frame count too. A
 * tracker that never answers is one request in flight among none: it cannot hold a page.
 */

/** What the page is loaded for: text, or a rendering (screenshot, PDF). */
export type SettleFor = 'text' | 'render';

/** No request or DOM change for this long: settled. */
export const QUIET_MS = 500;
/** At most this many requests may stay in flight through a quiet window (long polls, dead hosts). */
const MAX_PENDING_REQUESTS = 2;
/** The longest the default wait spends after the document is parsed. */
export const SETTLE_MAX_MS = 10_000;
/** How long a page showing a loading placeholder (or, for markdown, nothing) is given to fill itself. */
export const LATE_CONTENT_WAIT_MS = 5_000;
const POLL_MS = 50;

const TEXT_TYPES = new Set(['document', 'script', 'stylesheet', 'xhr', 'fetch']);
const RENDER_TYPES = new Set([...TEXT_TYPES, 'image', 'font']);

/**
 * What a page is doing, watched from before navigation: the requests that matter for what it is
 * loaded for, whether `load` fired, and whether its renderer crashed.
 */
export class PageActivity {
  private readonly inFlight = new Set<Request>();
  private lastChange = performance.now();
  private loadFired = false;
  private rendererCrashed = false;
  private waiters: Array<() => void> = [];
  private eventCount = 0;
  private readonly unwatch: () => void;

  constructor(
    private readonly page: Page,
    private readonly settleFor: SettleFor,
  ) {
    this.unwatch = watchPage(page, { request: this.onStart, requestfinished: this.onEnd, requestfailed: this.onEnd, load: this.onLoad, crash: this.onCrash });
  }

  /** The page's renderer crashed (a DOM nested thousands deep, out of memory): nothing more will happen on it. */
  get crashed(): boolean {
    return this.rendererCrashed;
  }

  /** Ms since a counted request started or ended. */
  get quietMs(): number {
    return performance.now() - this.lastChange;
  }

  get pending(): number {
    return this.inFlight.size;
  }

  get loaded(): boolean {
    return this.loadFired;
  }

  /** Counted request ends, `load` and crashes so far: a waiter passes it to `nextEvent` so none is missed. */
  get events(): number {
    return this.eventCount;
  }

  /**
   * Resolves at the next counted request end, `load` or crash after the `seen`-th (at once when
   * one came already), or after `ms`: a wait that wakes when something happens.
   */
  nextEvent(ms: number, seen: number): Promise<void> {
    if (this.eventCount !== seen) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters = this.waiters.filter((waiter) => waiter !== done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.push(done);
    });
  }

  /** Stops watching the page; what was seen so far stays readable. */
  stop(): void {
    this.unwatch();
  }

  private readonly onStart = (request: Request) => {
    if (!this.counts(request)) return;
    // A new main document (a script or meta refresh): its own `load` is the one that counts.
    if (request.isNavigationRequest() && request.resourceType() === 'document' && this.isMainFrame(request)) this.loadFired = false;
    this.inFlight.add(request);
    this.lastChange = performance.now();
  };

  private readonly onEnd = (request: Request) => {
    if (!this.inFlight.delete(request)) return;
    this.lastChange = performance.now();
    this.wake();
  };

  private readonly onLoad = () => {
    this.loadFired = true;
    this.wake();
  };

  private readonly onCrash = () => {
    this.rendererCrashed = true;
    this.wake();
  };

  private wake(): void {
    this.eventCount += 1;
    const waiters = this.waiters;
    this.waiters = [];
    for (const done of waiters) done();
  }

  private counts(request: Request): boolean {
    if (this.settleFor === 'render') return RENDER_TYPES.has(request.resourceType());
    return TEXT_TYPES.has(request.resourceType()) && this.isMainFrame(request);
  }

  private isMainFrame(request: Request): boolean {
    try {
      return request.frame() === this.page.mainFrame();
    } catch {
      return false; // a service worker's request has no frame
    }
  }
}

/** Chromium's own page for a navigation that failed (no script of ours can run on it). */
export function isErrorPage(page: Page): boolean {
  return page.url().startsWith('chrome-error://');
}

/** Changes to the page's content (nodes and text, not attributes), seen from inside the page. */
export class DomActivity {
  private constructor(private readonly handle: JSHandle<{ last: number; changes: number; stop(): void }>) {}

  /**
   * Starts watching. The observer's record lives only in a handle held by this process: nothing
   * is put on the page's `window`, and the page's own scripts cannot reach it.
   */
  static async watch(page: Page): Promise<DomActivity> {
    const handle = await page.evaluateHandle(() => {
      const observer = new MutationObserver(() => {
        record.last = performance.now();
        record.changes += 1;
      });
      const record = { last: performance.now(), changes: 0, stop: () => observer.disconnect() };
      observer.observe(document, { childList: true, subtree: true, characterData: true });
      return record;
    });
    return new DomActivity(handle);
  }

  /** Ms since the last change, and how many there were. */
  async state(): Promise<{ quietMs: number; changes: number }> {
    return this.handle.evaluate((record) => ({ quietMs: performance.now() - record.last, changes: record.changes }));
  }

  /** Stops the observer and lets the record go (not awaited: the page may be gone already). */
  dispose(): void {
    void this.handle
      .evaluate((record) => record.stop())
      .catch(() => undefined)
      .finally(() => this.handle.dispose().catch(() => undefined));
  }
}

/**
 * Waits until the page is settled or `deadline` (a `performance.now()` time) passes. True when
 * it settled. A navigation started meanwhile (a script or meta refresh) is waited for too: its
 * document is a counted request, and the DOM watch starts again on the new document.
 */
export async function waitUntilSettled(page: Page, activity: PageActivity, deadline: number): Promise<boolean> {
  // Installed from the second look on, and not waited for: most pages fire `load` within a few ms
  // of being parsed, and then no watch is needed (it costs three calls into the page). Watching
  // from the first look instead settles a page that never fires `load` at most POLL_MS sooner.
  let watching: Promise<DomActivity | undefined> | undefined;
  let looks = 0;
  try {
    while (performance.now() < deadline && !activity.crashed) {
      const seen = activity.events;
      // `load` with nothing in flight is a finished page, as plain `waitUntil: 'load'` takes it;
      // Chromium's error page (the page navigated somewhere that failed) will not change either.
      if ((activity.loaded && activity.pending === 0) || isErrorPage(page)) return true;
      looks += 1;
      if (looks > 1) watching ??= DomActivity.watch(page).catch(() => undefined);
      if (watching && activity.pending <= MAX_PENDING_REQUESTS && activity.quietMs >= QUIET_MS) {
        const dom = await watching;
        const state = await dom?.state().catch(() => undefined);
        if (!state) {
          // The document was replaced under the watch: watch the new one once it is parsed.
          dom?.dispose();
          watching = undefined;
          await page.waitForLoadState('domcontentloaded', { timeout: Math.max(1, deadline - performance.now()) }).catch(() => undefined);
          await sleep(POLL_MS);
          continue;
        }
        if (state.quietMs >= QUIET_MS) return true;
      }
      await activity.nextEvent(Math.min(POLL_MS, Math.max(0, deadline - performance.now())), seen);
    }
    return false;
  } finally {
    void watching?.then((dom) => dom?.dispose());
  }
}

/** A page that says only that it is loading, or that it needs JavaScript or a browser check. */
export const PLACEHOLDER_TEXT =
  /^[\s\W]*(?:loading|please wait|one moment|just a moment|wait a moment|starting|initiali[sz]ing|checking your browser|verifying you are human|redirecting|(?:please )?enable javascript|you need to enable javascript|javascript is (?:required|disabled))\b[^]{0,60}$/i;

/** A placeholder is a few words at most; a page that says more is a page. */
export const PLACEHOLDER_MAX_WORDS = 12;

/** Whether all the page shows is a loading placeholder ("Loading...", "Just a moment..."). */
export async function showsPlaceholder(page: Page): Promise<boolean> {
  // In a world of our own: Playwright's main-world evaluation injects its utility script into
  // every new document first (about 10 ms on the request path here).
  const text = await evaluateFunction(page, (maxChars: number) => {
    const body = document.body as HTMLElement | null;
    if (!body) return '';
    // Counting the text nodes first (no layout) clears most pages at once: they say more than this.
    const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
    let seen = 0;
    for (let node = walker.nextNode(); node && seen <= maxChars; node = walker.nextNode()) {
      const holder = node.parentElement?.localName;
      if (holder !== 'script' && holder !== 'style' && holder !== 'noscript' && holder !== 'template') seen += (node.nodeValue ?? '').trim().length;
    }
    return seen > maxChars ? '' : body.innerText.slice(0, maxChars);
  }, PLACEHOLDER_MAX_CHARS).catch(() => '');
  const words = text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
  return words > 0 && words <= PLACEHOLDER_MAX_WORDS && PLACEHOLDER_TEXT.test(text.trim());
}

/** More text than this is a page, whatever it says. */
const PLACEHOLDER_MAX_CHARS = 200;

/**
 * A page showing a placeholder after it settled may still be filling itself (a timer, a late script):
 * waits for its DOM to change, up to `LATE_CONTENT_WAIT_MS`, then for it to settle again.
 * True when something changed.
 *
 * `stillWaiting` says whether the page still shows what the caller saw (nothing, a placeholder).
 * It is asked once the DOM watch is in place, since the page may have changed between the caller's
 * look and the watch (an extraction and a reading without scripts take hundreds of ms, and a
 * timer 150 ms after `load` wrote the page in that time): a change before the watch is seen by
 * that look, one after it by the watch, and none has to wait for a change that already happened.
 */
export async function waitForLateContent(page: Page, activity: PageActivity, deadline: number, stillWaiting: () => Promise<boolean>): Promise<boolean> {
  if (activity.crashed) return false;
  const dom = await DomActivity.watch(page).catch(() => undefined);
  if (!dom) return false;
  try {
    // A look that fails (the page is going away) changes nothing: the watch decides.
    if (!(await stillWaiting().catch(() => true))) {
      await waitUntilSettled(page, activity, deadline);
      return true;
    }
    const until = Math.min(deadline, performance.now() + LATE_CONTENT_WAIT_MS);
    while (performance.now() < until) {
      const state = await dom.state().catch(() => undefined);
      if (!state) return false;
      if (state.changes > 0) {
        await waitUntilSettled(page, activity, deadline);
        return true;
      }
      await sleep(POLL_MS * 2);
    }
    return false;
  } finally {
    dom.dispose();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
