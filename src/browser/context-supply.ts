import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import type { Logger } from 'pino';
import { attachDevtoolsAhead } from '../extract/page-script.js';
import type { BrowserProxySettings } from '../net/egress-proxy.js';
import { contextProxy, logInToProxy } from './proxy-login.js';
import { type ContextOptions, deviceOf, InvalidPageOption, type PageDevice } from './types.js';
import { BrowserSessions, type BrowserSessionsOptions } from './browser-sessions.js';
import { closeLease, type PageLease } from './page-lease.js';
import type { WarmPages } from './warm-pages.js';

/** The spec's default viewport. */
export const DEFAULT_VIEWPORT = { width: 1280, height: 800 };

/** A context and its page, used by one request at a time: fresh, or an account's own page reset (warm-pages.ts). */
/** Settings every context gets, whatever the caller asks. */
const FIXED_SETTINGS: BrowserContextOptions = { serviceWorkers: 'block', acceptDownloads: false };

/** Options Playwright only takes when a context is created; the rest are applied afterwards (and such a context is not kept for reuse). */
function needsOwnContext(options: ContextOptions): boolean {
  return (
    options.userAgent !== undefined ||
    (options.deviceScaleFactor ?? 1) !== 1 ||
    options.isMobile === true ||
    options.hasTouch === true ||
    options.javaScriptEnabled === false
  );
}

/**
 * Hands out pages: the account's own warm page when it has one (reset since its last request,
 * never another account's), else a fresh context, a few of which are created ahead so that
 * step is off the request path. A prepared context has never loaded anything.
 *
 * Only contexts are prepared, not pages: measured here, a page opened ahead costs 15-40% more
 * CPU per request than one opened on demand. Its blank page's renderer is not the one the
 * navigation ends up in (an idle page also keeps rendering), while a page navigated right after
 * opening often keeps its renderer.
 */
export class ContextSupply {
  private readonly prepared: BrowserContext[] = [];
  private readonly sessions: BrowserSessions;
  private preparing = 0;
  private stopped = false;

  /**
   * @param proxy the egress proxy, set on every context (the only way to route a remote
   *   browser's traffic), and its credentials, with which each new context logs in once.
   * @param shouldPrepare whether now is a good time: preparing only pays while nobody waits.
   */
  constructor(
    private readonly browser: Browser,
    private readonly proxy: BrowserProxySettings,
    private readonly preparedTarget: number,
    private readonly shouldPrepare: () => boolean,
    private readonly warm: WarmPages,
    sessions: BrowserSessionsOptions,
    private readonly logger: Logger,
  ) {
    this.sessions = new BrowserSessions(sessions, (options) => this.createLoggedInContext(options));
  }

  /** A page set up as `options` asks for `account`; `url` is the default for cookies that name no site. */
  async take(options: ContextOptions, url: string, account: string): Promise<PageLease> {
    if (options.session !== undefined) {
      const lease = await this.sessions.take(account, options.session, options);
      attachDevtoolsAhead(lease.page);
      try {
        await applyOptions(lease, options, url);
      } catch (error) {
        await this.sessions.giveBack(lease);
        throw error;
      }
      return lease;
    }
    const ownContext = needsOwnContext(options);
    const warm = ownContext ? undefined : this.warm.take(account);
    if (warm) {
      // A warm page that cannot be used (its renderer died while it waited) is only a miss.
      const ready = await this.prepare(warm, options, url).catch(() => undefined);
      if (ready) return ready;
    }
    const prepared = ownContext ? undefined : this.prepared.shift();
    this.refill();
    // A prepared context has no device settings: the plain device, the only one asked of it (needsOwnContext).
    const device = deviceOf(options);
    if (prepared) return this.prepare({ context: prepared, page: await prepared.newPage().catch(closing(prepared)), device }, options, url);
    // Created on the request path: it logs in to the proxy through the request's own page.
    const context = await this.createContext(options);
    return this.prepare({ context, page: await this.loggedInPage(context), device }, options, url);
  }

  /** Sets `lease` up for one request; closes it when that fails. */
  private async prepare(lease: PageLease, options: ContextOptions, url: string): Promise<PageLease> {
    attachDevtoolsAhead(lease.page);
    try {
      await this.warm.watch(lease, Object.keys(options.extraHeaders ?? {}).length > 0);
      await applyOptions(lease, options, url);
      return lease;
    } catch (error) {
      await closeLease(lease);
      throw error;
    }
  }

  /** After a request: `lease` is reset and kept warm for `account` when it may be (`mayKeep`, the browser staying), else closed. */
  async giveBack(lease: PageLease, options: ContextOptions, account: string, mayKeep: boolean): Promise<void> {
    if (lease.shared) await this.sessions.giveBack(lease);
    else await this.warm.keep(account, lease, mayKeep && !needsOwnContext(options));
  }

  /** Named sessions open now. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  /** Pages kept warm for their accounts. */
  get warmCount(): number {
    return this.warm.size;
  }

  /** Contexts ready for a request: the idle ones. */
  get preparedCount(): number {
    return this.prepared.length;
  }

  /** Starts creating contexts in the background, up to the target count, while there is room. */
  refill(): void {
    while (!this.stopped && this.prepared.length + this.preparing < this.preparedTarget && this.shouldPrepare()) {
      this.preparing += 1;
      this.createLoggedInContext({}).then(
        (context) => {
          this.preparing -= 1;
          if (this.stopped) void context.close().catch(() => undefined);
          else this.prepared.push(context);
        },
        (error: unknown) => {
          this.preparing -= 1;
          this.logger.debug({ err: error }, 'could not prepare a browser context');
        },
      );
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([this.warm.stop(), this.sessions.stop(), ...this.prepared.splice(0).map((context) => context.close().catch(() => undefined))]);
  }

  /**
   * A context logged in to the proxy through a page of its own, closed afterwards: for contexts
   * made ahead (the login off the request path) and sessions' (whose pages come and go).
   */
  private async createLoggedInContext(options: ContextOptions): Promise<BrowserContext> {
    const context = await this.createContext(options);
    await (await this.loggedInPage(context)).close().catch(closing(context));
    return context;
  }

  /** The first page of a new context, through which the context logs in to the proxy; the context is closed when that fails. */
  private async loggedInPage(context: BrowserContext): Promise<Page> {
    const page = await context.newPage().catch(closing(context));
    await logInToProxy(page, this.proxy).catch(closing(context));
    return page;
  }

  private createContext(options: ContextOptions): Promise<BrowserContext> {
    return this.browser.newContext({
      ...FIXED_SETTINGS,
      proxy: contextProxy(this.proxy),
      viewport: options.viewport ?? DEFAULT_VIEWPORT,
      deviceScaleFactor: options.deviceScaleFactor,
      isMobile: options.isMobile,
      hasTouch: options.hasTouch,
      userAgent: options.userAgent,
      javaScriptEnabled: options.javaScriptEnabled,
    });
  }
}

/** A rejection handler that closes `context` and rethrows. */
function closing(context: BrowserContext): (error: unknown) => Promise<never> {
  return async (error) => {
    await context.close().catch(() => undefined);
    throw error;
  };
}

async function applyOptions(lease: PageLease, options: ContextOptions, url: string): Promise<void> {
  const viewport = options.viewport ?? DEFAULT_VIEWPORT;
  const current = lease.page.viewportSize();
  if (viewport.width !== current?.width || viewport.height !== current.height) await lease.page.setViewportSize(viewport);
  // On the page, not the context: a session's context serves later requests that did not ask for them.
  if (options.extraHeaders && Object.keys(options.extraHeaders).length > 0) {
    await lease.page.setExtraHTTPHeaders(options.extraHeaders).catch((error: unknown) => {
      throw new InvalidPageOption('The extra headers were refused by the browser', 'headers', { cause: error });
    });
  }
  if (options.cookies && options.cookies.length > 0) {
    const cookies = options.cookies.map((cookie) =>
      cookie.url || cookie.domain ? { ...cookie, path: cookie.url ? cookie.path : (cookie.path ?? '/') } : { ...cookie, url },
    );
    await lease.context.addCookies(cookies).catch((error: unknown) => {
      throw new InvalidPageOption('The cookies were refused by the browser', 'cookies', { cause: error });
    });
  }
}
