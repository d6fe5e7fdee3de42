import type { BrowserContext } from 'playwright-core';
import { withPageSession } from '../extract/page-script.js';
import type { PageLease } from './page-lease.js';
import { type ContextOptions, deviceOf, InvalidPageOption, type PageDevice, PoolOverloaded } from './types.js';

export interface BrowserSessionsOptions {
  /** Sessions one account may keep at once. */
  maxPerAccount: number;
  /** Sessions kept at once, all accounts together: each may hold a page's worth of storage in memory. */
  maxTotal: number;
  /** A session unused for this long is closed, with its cookies and storage. */
  idleMs: number;
}

interface Session {
  key: string;
  account: string;
  context: BrowserContext;
  /** The device of the request that opened it: a context's device cannot change. */
  device: PageDevice;
  /** Requests using it now: a session in use is never closed for being idle or old. */
  inUse: number;
  lastUsed: number;
  idleTimer?: NodeJS.Timeout;
}

/**
 * Named sessions: the one way a caller carries browser state (cookies, storage, cache) from one
 * request to the next, by naming the same `session` again. A session is one context of its
 * account's (two accounts naming the same session get two), created with the settings of the
 * request that opened it; each request gets its own page in it. Sessions live in the browser's
 * memory only: one idle for `idleMs`, one pushed out by its account opening more than
 * `maxPerAccount` or by any account opening more than `maxTotal` (the least recently used idle
 * one goes), or a browser recycled or crashed, takes its state with it.
 */
export class BrowserSessions {
  private readonly sessions = new Map<string, Session>();
  private stopped = false;

  constructor(
    private readonly options: BrowserSessionsOptions,
    private readonly createContext: (options: ContextOptions) => Promise<BrowserContext>,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  /** A new page in `account`'s session `name`, opening the session (with `options`' device settings) if needed. */
  async take(account: string, name: string, options: ContextOptions): Promise<PageLease> {
    const session = this.sessions.get(keyOf(account, name)) ?? (await this.open(account, name, options));
    session.inUse += 1;
    clearTimeout(session.idleTimer);
    try {
      return { context: session.context, page: await session.context.newPage(), device: session.device, shared: true };
    } catch (error) {
      this.release(session.context);
      throw error;
    }
  }

  /**
   * After a request in a session: the page closes, the session stays for its next request. The
   * context's HTTP cache (in memory, up to tens of MB per context) is emptied first, so an idle
   * session holds only the state its pages chose to keep (cookies, storage).
   */
  async giveBack(lease: PageLease): Promise<void> {
    await withPageSession(lease.page, (devtools) => devtools.send('Network.clearBrowserCache')).catch(() => undefined);
    await lease.page.close().catch(() => undefined);
    this.release(lease.context);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((session) => this.close(session)));
  }

  private async open(account: string, name: string, options: ContextOptions): Promise<Session> {
    if (this.stopped) throw new Error('The browser is closing');
    const mine = [...this.sessions.values()].filter((session) => session.account === account);
    if (mine.length >= this.options.maxPerAccount) {
      const idle = leastRecentlyUsedIdle(mine);
      if (!idle) {
        throw new InvalidPageOption(`This account already has ${this.options.maxPerAccount} sessions in use; wait for one to finish`, 'session');
      }
      this.sessions.delete(idle.key);
      void this.close(idle);
    }
    if (this.sessions.size >= this.options.maxTotal) {
      const idle = leastRecentlyUsedIdle(this.sessions.values());
      if (!idle) throw new PoolOverloaded('Every browser session is in use', 5);
      this.sessions.delete(idle.key);
      void this.close(idle);
    }
    const key = keyOf(account, name);
    // Two first requests of one session at once share the context the first one creates.
    const raced = this.sessions.get(key);
    if (raced) return raced;
    const session: Session = { key, account, context: await this.createContext(options), device: deviceOf(options), inUse: 0, lastUsed: performance.now() };
    const existing = this.sessions.get(key);
    if (existing) {
      void session.context.close().catch(() => undefined);
      return existing;
    }
    this.sessions.set(key, session);
    return session;
  }

  private release(context: BrowserContext): void {
    const session = this.find(context);
    if (!session) return;
    session.inUse -= 1;
    session.lastUsed = performance.now();
    if (session.inUse > 0) return;
    session.idleTimer = setTimeout(() => {
      if (this.sessions.get(session.key) !== session || session.inUse > 0) return;
      this.sessions.delete(session.key);
      void this.close(session);
    }, this.options.idleMs);
    session.idleTimer.unref();
  }

  private find(context: BrowserContext): Session | undefined {
    for (const session of this.sessions.values()) if (session.context === context) return session;
    return undefined;
  }

  private async close(session: Session): Promise<void> {
    clearTimeout(session.idleTimer);
    await session.context.close().catch(() => undefined);
  }
}

function leastRecentlyUsedIdle(sessions: Iterable<Session>): Session | undefined {
  let oldest: Session | undefined;
  for (const session of sessions) if (session.inUse === 0 && (!oldest || session.lastUsed < oldest.lastUsed)) oldest = session;
  return oldest;
}

function keyOf(account: string, name: string): string {
  return `${account}\u0000${name}`;
}
