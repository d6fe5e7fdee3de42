import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { booleanFlag, nonNegativeInt, positiveInt } from './env-values.js';

/** Debian's `chromium-headless-shell` package installs the browser itself here (/usr/bin's is a wrapper script). */
export const HEADLESS_SHELL_PATH = '/usr/lib/chromium/chromium-headless-shell';
/** Debian's full `chromium` package (Chrome's new headless mode). */
export const FULL_CHROMIUM_PATH = '/usr/bin/chromium';

/** The Chromium pool (src/browser). */
export const browserSection = z
  .object({
    /**
     * Debian's headless shell by default: Chromium without any browser UI, 1.4-1.8x the pages per
     * second of the full build here (docs/benchmarks.md). The full build (/usr/bin/chromium) stays supported.
     */
    CHROMIUM_PATH: z.string().min(1).default(HEADLESS_SHELL_PATH),
    /** Keep Chromium's sandbox (default). It needs unprivileged user namespaces. */
    CHROMIUM_SANDBOX: booleanFlag.default(true),
    /** The user a sandboxed Chromium runs as when Pluck runs as root (Chromium refuses root with its sandbox). */
    CHROMIUM_USER: z.string().regex(/^[a-z_][a-z0-9_-]{0,31}$/, 'CHROMIUM_USER must be a user name').default('pluck-chromium'),
    /** A Chromium on another host, reached over CDP (ws:// or http:// form) instead of a local launch. */
    BROWSER_WS_ENDPOINT: z.url({ protocol: /^(wss?|https?)$/ }).optional(),
    /** A remote browser that does not answer within this long is treated as crashed. */
    BROWSER_REMOTE_HEARTBEAT_MS: positiveInt.default(5000),
    BROWSER_MAX_PAGES: positiveInt.default(Math.min(16, Math.max(2, availableParallelism() * 2))),
    /** Pages one account may hold at once; unset: all but a quarter of BROWSER_MAX_PAGES. */
    BROWSER_ACCOUNT_MAX_PAGES: positiveInt.optional(),
    BROWSER_MAX_QUEUE: nonNegativeInt.default(100),
    BROWSER_QUEUE_TIMEOUT_MS: positiveInt.default(10_000),
    BROWSER_RECYCLE_AFTER: positiveInt.default(500),
    BROWSER_PREPARED_CONTEXTS: nonNegativeInt.default(2),
    /** Pages kept warm (reset) for the accounts that used them; unset: BROWSER_MAX_PAGES; 0: a fresh context for every request. */
    BROWSER_WARM_PAGES: nonNegativeInt.optional(),
    BROWSER_WARM_PAGE_IDLE_MS: positiveInt.default(30_000),
    BROWSER_WARM_PAGE_USES: positiveInt.default(100),
    /** Named sessions (a request's `session`): kept per account, closed when unused this long. */
    BROWSER_SESSIONS_PER_ACCOUNT: positiveInt.default(5),
    BROWSER_SESSIONS_MAX: positiveInt.default(100),
    BROWSER_SESSION_IDLE_MS: positiveInt.default(600_000),
    NAVIGATION_TIMEOUT_MAX_MS: positiveInt.default(60_000),
  })
  .transform((e) => ({
    browser: {
      chromiumPath: e.CHROMIUM_PATH,
      sandbox: e.CHROMIUM_SANDBOX,
      user: e.CHROMIUM_USER,
      wsEndpoint: e.BROWSER_WS_ENDPOINT,
      remoteHeartbeatMs: e.BROWSER_REMOTE_HEARTBEAT_MS,
      maxPages: e.BROWSER_MAX_PAGES,
      maxPagesPerAccount: e.BROWSER_ACCOUNT_MAX_PAGES,
      maxQueue: e.BROWSER_MAX_QUEUE,
      queueTimeoutMs: e.BROWSER_QUEUE_TIMEOUT_MS,
      recycleAfter: e.BROWSER_RECYCLE_AFTER,
      preparedContexts: e.BROWSER_PREPARED_CONTEXTS,
      warmPages: { maxPages: e.BROWSER_WARM_PAGES, idleMs: e.BROWSER_WARM_PAGE_IDLE_MS, maxUses: e.BROWSER_WARM_PAGE_USES },
      sessions: { maxPerAccount: e.BROWSER_SESSIONS_PER_ACCOUNT, maxTotal: e.BROWSER_SESSIONS_MAX, idleMs: e.BROWSER_SESSION_IDLE_MS },
      navigationTimeoutMaxMs: e.NAVIGATION_TIMEOUT_MAX_MS,
    },
  }));
