import type { CDPSession, Request } from 'playwright-core';
import type { Logger } from 'pino';
import { withPageSession } from '../extract/page-script.js';
import { closeLease, type PageLease } from './page-lease.js';

export interface WarmPagesOptions {
  /** Warm pages kept at most, all accounts together (0: none, every request gets a fresh context). */
  maxPages: number;
  /** Warm pages one account may keep. */
  maxPerAccount: number;
  /** A warm page unused for this long is closed, so an account that has gone holds no memory. */
  idleMs: number;
  /** Requests one page serves before it is closed rather than kept: bounds what a renderer can accumulate. */
  maxUses: number;
  logger: Logger;
}

/** Origins whose storage a page may have written, and whatever else reset needs to know. */
interface LeaseTrace {
  origins: Set<string>;
  /** More origins than reset is willing to clear one by one: the page is closed instead. */
  overflowed: boolean;
  uses: number;
  /** The request set extra headers on the page: the next one must not send them. */
  headersSet: boolean;
  /** A request is using the page: what it touches is recorded (not the reset's own navigation). */
  recording: boolean;
}

interface WarmPage {
  lease: PageLease;
  account: string;
  keptAt: number;
  idleTimer: NodeJS.Timeout;
}

/** Clearing one origin is one CDP call; a page that touched more than this many is not worth resetting. */
const MAX_ORIGINS_TO_CLEAR = 64;
/** Tries, and the pause between them, for the history to hold only the reset's `about:blank`. */
const HISTORY_ATTEMPTS = 20;
const HISTORY_RETRY_MS = 5;
/** A reset that takes longer than this (a page refusing to unload) gives the page up. */
const RESET_TIMEOUT_MS = 10_000;

/**
 * Pages kept open for the account that used them last, so its next request skips creating a
 * context and a renderer (measured here: a reused page loads a small page three times as fast
 * as a fresh context does). A warm page only ever serves the account it was created for, and is
 * reset before it is kept: other pages closed, the document unloaded (about:blank), and then
 * every storage of every origin it reached (localStorage, sessionStorage, IndexedDB, Cache
 * Storage, service workers), the HTTP cache, history, window.name and extra headers cleared;
 * its cookies are cleared when it is taken again (`watch`). A page that cannot be reset in time,
 * crashed, or reached too many origins is closed instead; so is one that has served `maxUses`
 * requests.
 */
export class WarmPages {
  private readonly byAccount = new Map<string, WarmPage[]>();
  private readonly traces = new WeakMap<PageLease, LeaseTrace>();
  private count = 0;
  private stopped = false;

  constructor(private readonly options: WarmPagesOptions) {}

  get size(): number {
    return this.count;
  }

  /** A reset page of `account`'s, most recently used first; undefined when it has none. */
  take(account: string): PageLease | undefined {
    const list = this.byAccount.get(account);
    const warm = list?.pop();
    if (!warm || !list) return undefined;
    if (list.length === 0) this.byAccount.delete(account);
    clearTimeout(warm.idleTimer);
    this.count -= 1;
    return warm.lease;
  }

  /**
   * Starts recording what `lease` touches; call before the page loads anything. A reused page's
   * cookies are cleared here rather than in the reset: a request the previous document left
   * running (a beacon) may have answered with Set-Cookie after the reset, so only a clearing
   * at the start of the next request is sure to be the last.
   */
  async watch(lease: PageLease, setsHeaders: boolean): Promise<void> {
    let trace = this.traces.get(lease);
    if (!trace) {
      const record: LeaseTrace = { origins: new Set(), overflowed: false, uses: 0, headersSet: false, recording: false };
      // One listener for the page's life: Playwright sends a message each way whenever the
      // first listener of an event comes or the last one goes.
      lease.context.on('request', (request: Request) => {
        if (record.recording) noteOrigin(record, request.url());
      });
      this.traces.set(lease, record);
      trace = record;
    } else {
      await lease.context.clearCookies();
    }
    trace.recording = true;
    trace.uses += 1;
    trace.headersSet = setsHeaders;
  }

  /**
   * Resets `lease` and keeps it for `account`'s next request, or closes it when it cannot be
   * kept. `reusable` is false when the request's settings shaped the context itself.
   */
  async keep(account: string, lease: PageLease, reusable: boolean): Promise<void> {
    const trace = this.traces.get(lease);
    if (trace) trace.recording = false;
    const keepable =
      reusable && !this.stopped && this.options.maxPages > 0 && trace !== undefined && !trace.overflowed && trace.uses < this.options.maxUses && !lease.page.isClosed();
    if (!keepable || !(await this.reset(lease, trace))) {
      await closeLease(lease);
      return;
    }
    if (this.stopped) {
      await closeLease(lease);
      return;
    }
    const list = this.byAccount.get(account) ?? [];
    if (list.length >= this.options.maxPerAccount) void this.evict(list[0]!);
    else if (this.count >= this.options.maxPages) this.evictOldest();
    const warm: WarmPage = { lease, account, keptAt: performance.now(), idleTimer: setTimeout(() => void this.evict(warm), this.options.idleMs) };
    warm.idleTimer.unref();
    list.push(warm);
    this.byAccount.set(account, list);
    this.count += 1;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const all = [...this.byAccount.values()].flat();
    this.byAccount.clear();
    this.count = 0;
    await Promise.all(
      all.map((warm) => {
        clearTimeout(warm.idleTimer);
        return closeLease(warm.lease);
      }),
    );
  }

  private async reset(lease: PageLease, trace: LeaseTrace): Promise<boolean> {
    const { context, page } = lease;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), RESET_TIMEOUT_MS);
    });
    const work = (async () => {
      await Promise.all(context.pages().filter((other) => other !== page).map((other) => other.close()));
      // Unloads the document first, so no script of it is left to write anything after the clearing.
      // A navigation the page started itself at that moment aborts this one: once more, then give up.
      const blank = () => page.goto('about:blank', { waitUntil: 'commit', timeout: RESET_TIMEOUT_MS });
      await blank().catch(() => blank());
      // On the page's own DevTools session, which follows the page across navigations (no session
      // attached and detached here: three commands fewer on the browser's busiest thread). Should
      // one of these commands still fail, the reset fails and the page is closed.
      await withPageSession(page, (cdp) =>
        Promise.all([
          trace.headersSet ? page.setExtraHTTPHeaders({}) : undefined,
          cdp.send('Network.clearBrowserCache'),
          clearHistory(cdp),
          // about:blank keeps the window's name, which a page may have used as storage.
          cdp.send('Runtime.evaluate', { expression: "window.name = ''" }),
          ...[...trace.origins].map((origin) => cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' })),
        ]),
      );
      trace.origins.clear();
      trace.headersSet = false;
      return true;
    })();
    work.catch(() => undefined);
    try {
      return await Promise.race([work, timedOut]);
    } catch (error) {
      this.options.logger.debug({ err: error }, 'a page could not be reset for reuse; closing it');
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  private evictOldest(): void {
    // Lists are in use order, so the oldest is at the front of one of them; few accounts keep pages.
    let oldest: WarmPage | undefined;
    for (const list of this.byAccount.values()) {
      const first = list[0];
      if (first && (!oldest || first.keptAt < oldest.keptAt)) oldest = first;
    }
    if (oldest) void this.evict(oldest);
  }

  private async evict(warm: WarmPage): Promise<void> {
    const list = this.byAccount.get(warm.account);
    const index = list?.indexOf(warm) ?? -1;
    if (list && index !== -1) {
      list.splice(index, 1);
      if (list.length === 0) this.byAccount.delete(warm.account);
      this.count -= 1;
    }
    clearTimeout(warm.idleTimer);
    await closeLease(warm.lease);
  }
}

/**
 * Leaves the page's history with its `about:blank` entry alone. Playwright sees the navigation
 * commit before the browser's own history may have taken the entry in, and a clearing that runs
 * first leaves the old page's entry behind (a later `history.length` of 3): so the history is
 * read back, and cleared again until it holds only `about:blank`.
 */
async function clearHistory(cdp: CDPSession): Promise<void> {
  for (let attempt = 0; attempt < HISTORY_ATTEMPTS; attempt += 1) {
    await cdp.send('Page.resetNavigationHistory');
    const { currentIndex, entries } = await cdp.send('Page.getNavigationHistory');
    if (entries.length === 1 && entries[currentIndex]?.url === 'about:blank') return;
    await new Promise((resolve) => setTimeout(resolve, HISTORY_RETRY_MS));
  }
  throw new Error('the history could not be cleared');
}

function noteOrigin(trace: LeaseTrace, url: string): void {
  const origin = originOf(url);
  if (!origin || trace.origins.has(origin)) return;
  if (trace.origins.size >= MAX_ORIGINS_TO_CLEAR) trace.overflowed = true;
  else trace.origins.add(origin);
}

function originOf(url: string): string | undefined {
  if (!url.startsWith('http:') && !url.startsWith('https:')) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
