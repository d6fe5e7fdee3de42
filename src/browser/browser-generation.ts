import type { Logger } from 'pino';
import type { BrowserProxySettings } from '../net/egress-proxy.js';
import { type ChromiumProcess, killChromiumLeftovers } from './chromium-process.js';
import { ContextSupply } from './context-supply.js';
import { BrowserCrashed } from './types.js';
import type { BrowserSessionsOptions } from './browser-sessions.js';
import { WarmPages, type WarmPagesOptions } from './warm-pages.js';

/** How a browser hands out pages: contexts prepared ahead, pages kept warm per account, named sessions. */
export interface PageSupplySettings {
  prepared: { count: number; shouldPrepare: () => boolean };
  warm: Omit<WarmPagesOptions, 'logger'>;
  sessions: BrowserSessionsOptions;
}

/**
 * One Chromium process over its life: the requests it serves, its prepared contexts, and
 * whether it left on purpose (recycled, shut down) or crashed.
 */
export class BrowserGeneration {
  readonly supply: ContextSupply;
  /** The browser's own user agent, asked once (browser-pool.ts). */
  userAgent: Promise<string> | undefined;
  /** Rejects with BrowserCrashed the moment Chromium disconnects unexpectedly. */
  readonly crashed: Promise<never>;
  served = 0;
  active = 0;
  retiring = false;
  private closing = false;
  private disconnected = false;
  private readonly reportCrash: (error: BrowserCrashed) => void;

  constructor(
    readonly chromium: ChromiumProcess,
    proxy: BrowserProxySettings,
    settings: PageSupplySettings,
    logger: Logger,
    private readonly onCrash: () => void,
  ) {
    const warm = new WarmPages({ ...settings.warm, logger });
    this.supply = new ContextSupply(chromium.browser, proxy, settings.prepared.count, settings.prepared.shouldPrepare, warm, settings.sessions, logger);
    let reportCrash: (error: BrowserCrashed) => void = () => undefined;
    this.crashed = new Promise<never>((_, reject) => {
      reportCrash = reject;
    });
    this.reportCrash = reportCrash;
    this.crashed.catch(() => undefined); // only requests in flight listen
    chromium.browser.on('disconnected', () => this.lost());
  }

  /**
   * The browser is gone without being asked to go: it disconnected, or (remote) stopped
   * answering. Requests in flight fail at once; the pool replaces it.
   */
  lost(): void {
    if (this.disconnected) return;
    this.disconnected = true;
    if (this.closing) return;
    this.reportCrash(new BrowserCrashed('Chromium stopped while handling the request; retrying is safe'));
    this.onCrash();
  }

  /** Connected and not on its way out: new requests may use it. */
  get usable(): boolean {
    return this.alive && !this.retiring;
  }

  get alive(): boolean {
    return !this.disconnected && !this.closing && this.chromium.browser.isConnected();
  }

  begin(): void {
    this.active += 1;
    this.served += 1;
  }

  end(): void {
    this.active -= 1;
  }

  /** Closes Chromium on purpose (a remote one is only disconnected) and makes sure none of its local processes stay behind. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    await this.supply.stop();
    await this.chromium.browser.close().catch(() => undefined);
    await killChromiumLeftovers(this.chromium);
  }
}
