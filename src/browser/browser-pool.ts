import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import type { Logger } from 'pino';
import type { AddressPolicy } from '../net/address-policy.js';
import { EgressProxy, type EgressProxyOptions } from '../net/egress-proxy.js';
import { type ChromiumProcess, killChromiumLeftovers, launchChromium, missingChromiumMessage } from './chromium-process.js';
import { closeLease, type PageLease } from './page-lease.js';
import { BrowserGeneration } from './browser-generation.js';
import type { BrowserSessionsOptions } from './browser-sessions.js';
import type { WarmPagesOptions } from './warm-pages.js';
import { DEFAULT_NAVIGATION_TIMEOUT_MS, type LoadGuard, loadPage, MAX_WAIT_TIME_MS, navigationTimeout } from './page-loader.js';
import { workSurvivingThePage } from './page-recovery.js';
import { PageSlots } from './page-slots.js';
import { connectRemoteChromium, describeEndpoint, isEndpointReachable, watchRemoteBrowser } from './remote-chromium.js';
import {
  BrowserCrashed,
  type ContextOptions,
  type LoadedPage,
  type LoadOptions,
  NavigationTimeout,
  type PageClaim,
  type PageRunner,
  RequestAborted,
} from './types.js';

/** Starts (or connects to) a browser whose contexts will send their traffic through `proxy`. */
export type BrowserLauncher = (proxy: EgressProxy) => Promise<ChromiumProcess>;

export interface BrowserPoolOptions {
  executablePath: string;
  sandbox: boolean;
  /** The unprivileged user a sandboxed Chromium runs as when this process is root. */
  chromiumUser?: string;
  /** Pages open at once. */
  maxPages: number;
  /** Pages one account may hold at once (default: all but a quarter of maxPages, at least one left to others). */
  maxPagesPerAccount?: number;
  /** Requests that may wait for a page. */
  maxQueue: number;
  queueTimeoutMs: number;
  /** Pages one browser serves before it is replaced (after draining). */
  recycleAfter: number;
  /** Fresh contexts kept prepared ahead of requests. */
  preparedContexts: number;
  /** Pages kept warm for the accounts that used them (default: maxPages, for 30 s, 100 requests each; maxPages 0: off). */
  warmPages?: Partial<Pick<WarmPagesOptions, 'maxPages' | 'idleMs' | 'maxUses'>>;
  /** Named sessions (default: 5 per account, 100 in all, closed after 10 minutes unused). */
  sessions?: Partial<BrowserSessionsOptions>;
  navigationTimeoutMaxMs: number;
  policy: AddressPolicy;
  logger: Logger;
  /** Where the egress proxy listens and the address browsers are given (default: 127.0.0.1, a free port). */
  egressProxy?: Pick<EgressProxyOptions, 'listenHost' | 'listenPort' | 'publicUrl'>;
  /** A Chromium on another host (BROWSER_WS_ENDPOINT): connected to over CDP instead of launched. */
  remoteEndpoint?: string;
  /** A remote browser silent for this long is treated as crashed (default 5000). */
  remoteHeartbeatMs?: number;
  launcher?: BrowserLauncher;
}

export interface BrowserReadiness {
  status: 'ok' | 'unavailable';
  detail: string;
}

/** Time `work` may take once the page is loaded, so no request holds a page forever. */
const WORK_TIME_LIMIT_MS = 60_000;

/** Bounds connecting to a remote browser, and its egress check, each: requests wait for it. */
const REMOTE_CONNECT_TIMEOUT_MS = 10_000;

/**
 * The browser engine: one long-lived Chromium (launched, or connected to when remote, on first
 * use) behind the egress proxy, a fresh context per request, bounded pages and a bounded wait
 * queue. A browser that crashes or disconnects fails only the requests it was serving and is
 * replaced (reconnected) on the next request; one that has served `recycleAfter` pages is
 * replaced after draining.
 */
export class BrowserPool implements PageRunner {
  private readonly slots: PageSlots;
  private readonly proxy: EgressProxy;
  private readonly generations = new Set<BrowserGeneration>();
  private current: BrowserGeneration | undefined;
  private launching: Promise<BrowserGeneration> | undefined;
  private closed = false;

  constructor(private readonly options: BrowserPoolOptions) {
    this.slots = new PageSlots({
      maxActive: options.maxPages,
      maxActivePerAccount: options.maxPagesPerAccount ?? defaultPagesPerAccount(options.maxPages),
      maxQueued: options.maxQueue,
      queueTimeoutMs: options.queueTimeoutMs,
    });
    this.proxy = new EgressProxy({ ...options.egressProxy, policy: options.policy, logger: options.logger.child({ component: 'egress-proxy' }) });
  }

  async withLoadedPage<T>(context: ContextOptions, load: LoadOptions, work: (loaded: LoadedPage) => Promise<T>, claim: PageClaim = {}): Promise<T> {
    if (this.closed) throw new BrowserCrashed('The browser engine is shutting down');
    const url = this.options.policy.parse(load.url).href;
    const account = claim.account ?? '';
    const release = await this.slots.acquire(account, claim.signal);
    let generation: BrowserGeneration | undefined;
    let lease: PageLease | undefined;
    try {
      generation = await this.acquireGeneration();
      lease = await generation.supply.take(context, url, account);
      return await this.runOnPage(generation, lease, { ...load, url }, work, claim.signal);
    } catch (error) {
      throw explain(error, generation);
    } finally {
      // The caller has its answer; the page is reset or closed before its slot is given to the next one.
      void this.finish(generation, lease, release, context, account);
    }
  }

  /**
   * The user agent the browser sends when a request sets none: a server-side fetch made for a
   * page (the static engine's) presents itself as the browser would, so the site answers alike.
   */
  async userAgent(): Promise<string> {
    if (this.closed) throw new BrowserCrashed('The browser engine is shutting down');
    const generation = this.current?.usable ? this.current : await this.launchOnce();
    generation.userAgent ??= generation.chromium.browser
      .newBrowserCDPSession()
      .then(async (session) => {
        const { userAgent } = await session.send('Browser.getVersion');
        await session.detach().catch(() => undefined);
        return userAgent;
      })
      .catch((error: unknown) => {
        generation.userAgent = undefined;
        throw error;
      });
    return generation.userAgent;
  }

  /** For /ready: never launches Chromium just to answer. */
  async readiness(): Promise<BrowserReadiness> {
    if (this.closed) return { status: 'unavailable', detail: 'shutting down' };
    if (this.current?.usable) return { status: 'ok', detail: 'running' };
    const remote = this.options.remoteEndpoint;
    if (remote) {
      return (await isEndpointReachable(remote, 2_000))
        ? { status: 'ok', detail: this.current ? 'reconnecting' : 'not connected yet' }
        : { status: 'unavailable', detail: `remote browser at ${describeEndpoint(remote)} not reachable` };
    }
    try {
      await access(this.options.executablePath, constants.X_OK);
      return { status: 'ok', detail: this.current ? 'restarting' : 'not started' };
    } catch {
      return { status: 'unavailable', detail: missingChromiumMessage(this.options.executablePath) };
    }
  }

  /** Counters and the current browser's process, for diagnostics and tests. */
  stats() {
    return {
      activePages: this.slots.activeCount,
      queued: this.slots.queuedCount,
      browserPid: this.current?.chromium.pid,
      userDataDir: this.current?.chromium.userDataDir,
      remoteEndpoint: this.current?.chromium.remoteEndpoint,
      pagesServed: this.current?.served ?? 0,
      browsers: this.generations.size,
      preparedContexts: [...this.generations].reduce((sum, generation) => sum + generation.supply.preparedCount, 0),
      warmPages: [...this.generations].reduce((sum, generation) => sum + generation.supply.warmCount, 0),
      sessions: [...this.generations].reduce((sum, generation) => sum + generation.supply.sessionCount, 0),
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.slots.rejectAll(new BrowserCrashed('The browser engine is shutting down'));
    await this.launching?.catch(() => undefined);
    await Promise.all([...this.generations].map((generation) => this.retire(generation)));
    this.current = undefined;
    await this.proxy.close();
  }

  private async runOnPage<T>(
    generation: BrowserGeneration,
    lease: PageLease,
    load: LoadOptions,
    work: (loaded: LoadedPage) => Promise<T>,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    const timeoutMs = navigationTimeout(load.timeoutMs, this.options.navigationTimeoutMaxMs);
    // Bounds each Playwright call `work` makes (screenshot, pdf...); navigation has its own timeout.
    lease.context.setDefaultTimeout(DEFAULT_NAVIGATION_TIMEOUT_MS);
    const guard: LoadGuard = {
      policy: this.options.policy,
      egressOutcome: (value) => this.proxy.outcomeOf(value),
      navigationTimeoutMaxMs: this.options.navigationTimeoutMaxMs,
    };
    const job = loadPage(lease, load, guard).then((loaded) => workSurvivingThePage(loaded, work).finally(() => loaded.stopWatching()));
    job.catch(() => undefined); // settled after a crash or the time limit: nobody listens any more
    const limitMs = timeoutMs + MAX_WAIT_TIME_MS + WORK_TIME_LIMIT_MS + (load.extraWorkMs ?? 0);
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stopped = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        void closeLease(lease);
        reject(new NavigationTimeout(`The page did not finish within ${limitMs} ms`));
      }, limitMs);
      // The caller has gone: nobody will read the answer, so the page is closed now, not at its timeout.
      onAbort = () => {
        void closeLease(lease);
        reject(new RequestAborted());
      };
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([job, generation.crashed, stopped]);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  private async acquireGeneration(): Promise<BrowserGeneration> {
    const generation = this.current?.usable ? this.current : await this.launchOnce();
    generation.begin();
    if (generation.served >= this.options.recycleAfter && !generation.retiring) {
      generation.retiring = true;
      if (this.current === generation) this.current = undefined;
      this.options.logger.info({ pid: generation.chromium.pid, served: generation.served }, 'recycling the browser');
      void this.launchOnce().catch(() => undefined); // the next browser starts while this one drains
    }
    return generation;
  }

  private launchOnce(): Promise<BrowserGeneration> {
    this.launching ??= this.launch().finally(() => {
      this.launching = undefined;
    });
    return this.launching;
  }

  private async launch(): Promise<BrowserGeneration> {
    let chromium: ChromiumProcess;
    try {
      await this.proxy.start();
      chromium = await (this.options.launcher ?? this.defaultLauncher())(this.proxy);
    } catch (error) {
      // Callers get no endpoint or proxy address, only the log does.
      const what = this.options.remoteEndpoint ? 'The remote browser could not be used' : 'Chromium could not be started';
      this.options.logger.error({ err: error }, what);
      throw new BrowserCrashed(what, { cause: error });
    }
    const supply = {
      prepared: { count: this.options.preparedContexts, shouldPrepare: () => this.hasIdleCapacity() },
      warm: {
        maxPages: this.options.warmPages?.maxPages ?? this.options.maxPages,
        maxPerAccount: this.options.maxPagesPerAccount ?? defaultPagesPerAccount(this.options.maxPages),
        idleMs: this.options.warmPages?.idleMs ?? 30_000,
        maxUses: this.options.warmPages?.maxUses ?? 100,
      },
      sessions: {
        maxPerAccount: this.options.sessions?.maxPerAccount ?? 5,
        maxTotal: this.options.sessions?.maxTotal ?? 100,
        idleMs: this.options.sessions?.idleMs ?? 600_000,
      },
    };
    const generation = new BrowserGeneration(chromium, this.proxy.browserSettings, supply, this.options.logger, () => this.onCrash(generation));
    if (this.closed) {
      await this.retire(generation);
      throw new BrowserCrashed('The browser engine is shutting down');
    }
    this.generations.add(generation);
    this.current = generation;
    if (chromium.remoteEndpoint) this.watchRemote(generation);
    generation.supply.refill();
    const executablePath = chromium.remoteEndpoint ? undefined : this.options.executablePath;
    this.options.logger.info({ pid: chromium.pid, executablePath, userDataDir: chromium.userDataDir, remoteEndpoint: chromium.remoteEndpoint }, 'Chromium started');
    return generation;
  }

  private watchRemote(generation: BrowserGeneration): void {
    const { browser, remoteEndpoint } = generation.chromium;
    const stop = watchRemoteBrowser(browser, this.options.remoteHeartbeatMs ?? 5_000, () => {
      this.options.logger.error({ remoteEndpoint }, 'remote browser stopped answering');
      generation.lost();
      // Not awaited: over a dead link the close handshake only ends at the WebSocket's own timeout.
      void browser.close().catch(() => undefined);
    });
    browser.once('disconnected', stop);
  }

  private defaultLauncher(): BrowserLauncher {
    const endpoint = this.options.remoteEndpoint;
    if (endpoint) {
      return (proxy) => connectRemoteChromium({ endpoint, proxy, logger: this.options.logger, timeoutMs: REMOTE_CONNECT_TIMEOUT_MS });
    }
    return (proxy) => launchChromium({ ...this.options, user: this.options.chromiumUser, proxyUrl: proxy.url });
  }

  private onCrash(generation: BrowserGeneration): void {
    const { pid, remoteEndpoint } = generation.chromium;
    this.options.logger.error({ pid, remoteEndpoint, active: generation.active }, 'Chromium disconnected unexpectedly');
    if (this.current === generation) this.current = undefined;
    this.generations.delete(generation);
    void generation.supply.stop();
    void killChromiumLeftovers(generation.chromium);
  }

  private async finish(
    generation: BrowserGeneration | undefined,
    lease: PageLease | undefined,
    release: () => void,
    options: ContextOptions,
    account: string,
  ): Promise<void> {
    try {
      if (lease && generation) await generation.supply.giveBack(lease, options, account, generation.usable);
      else if (lease) await closeLease(lease);
    } finally {
      release();
      if (generation) {
        generation.end();
        if (generation.retiring && generation.active === 0) void this.retire(generation);
        else generation.supply.refill();
      }
    }
  }

  /** Nobody waits and a page slot is free: preparing contexts now costs no request anything. */
  private hasIdleCapacity(): boolean {
    return this.slots.queuedCount === 0 && this.slots.activeCount < this.options.maxPages;
  }

  private async retire(generation: BrowserGeneration): Promise<void> {
    this.generations.delete(generation);
    await generation.close();
  }
}

/** All but a quarter of the pages (at least one left to other accounts, at least one for each). */
export function defaultPagesPerAccount(maxPages: number): number {
  return Math.max(1, maxPages - Math.max(1, Math.floor(maxPages / 4)));
}

/** A failure while Chromium was gone is the crash, whatever Playwright called it. */
function explain(error: unknown, generation: BrowserGeneration | undefined): unknown {
  if (error instanceof BrowserCrashed || !generation || generation.alive) return error;
  return new BrowserCrashed('Chromium stopped while handling the request; retrying is safe', { cause: error });
}
