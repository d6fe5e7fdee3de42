import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { type Browser, chromium } from 'playwright-core';

export interface ChromiumLaunchOptions {
  executablePath: string;
  /** The egress proxy every connection must go through. */
  proxyUrl: string;
  /** Keep Chromium's sandbox (needs a non-root user or user namespaces). */
  sandbox: boolean;
}

/** A running Chromium and what is needed to make sure none of its processes outlive it. */
export interface ChromiumProcess {
  browser: Browser;
  /** Process id of the browser process (undefined when it could not be found in /proc, or is remote). */
  pid: number | undefined;
  /** The profile directory unique to this launch; every child process names it. */
  userDataDir: string | undefined;
  /** Set for a browser on another host (BROWSER_WS_ENDPOINT): not ours to kill, only to disconnect. */
  remoteEndpoint?: string;
}

/**
 * Flags that only the browser's own launch can set and the egress guard relies on: no QUIC
 * and WebRTC UDP only via the proxy (which carries no UDP, so none). A remote browser host
 * must start Chromium with them; see remote-chromium.ts.
 */
export const UDP_OFF_FLAGS = [
  '--disable-quic',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
] as const;

/** Flags that stop Chromium's own background traffic (updates, sync, pings). */
export const QUIET_FLAGS = [
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-crash-reporter',
  '--disable-domain-reliability',
  '--no-pings',
] as const;

/**
 * V8 in each renderer starts with a 16 MB young generation instead of growing it from 1 MB. A
 * fresh renderer otherwise runs many small scavenges while a page's first scripts (and the
 * in-page extractor) build their objects, and on a busy machine the main thread waits for the GC
 * helpers: measured on wcxb-dev, 17% less renderer CPU and about 10% less wall time per
 * extraction. The space is reserved per renderer; the kernel backs only the pages V8 writes.
 */
export const RENDERER_V8_FLAGS = ['--js-flags=--min-semi-space-size=16'] as const;

/**
 * The features Playwright (1.65) turns off with its own `--disable-features` switch. Chromium
 * honours only the last occurrence of a switch, so a second one replaces Playwright's whole list:
 * ours repeats it and Playwright's is left out (`FEATURE_LAUNCH_OPTIONS`). A test compares this
 * list with the switch Playwright really passes, so an upgrade that changes it fails loudly.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
] as const;

/**
 * Browser UI that headless Chromium builds for nothing. Since Chromium 15x every window gets a
 * WebUI omnibox popup (`chrome://omnibox-popup.top-chrome/`) in a renderer process of its own,
 * and Playwright opens a window per page: one extra renderer started per request, loading its
 * UI while the caller's page loads and is extracted. Measured on wcxb-dev with the extraction
 * bench, alternating runs: median extraction 36.1 ms with it, 25.6 ms without.
 */
export const UNUSED_BROWSER_UI_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

/** Launch options that put our `--disable-features` switch in place of Playwright's. */
export const FEATURE_LAUNCH_OPTIONS = {
  args: [`--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...UNUSED_BROWSER_UI_FEATURES].join(',')}`],
  ignoreDefaultArgs: [`--disable-features=${PLAYWRIGHT_DISABLED_FEATURES.join(',')}`],
};

/**
 * Flags that keep every connection on the egress proxy: loopback and link-local included
 * (`<-loopback>` drops Chromium's implicit bypass), no QUIC, WebRTC UDP only via the proxy,
 * and no background traffic of Chromium's own. Every context also gets the proxy (with its
 * credentials) in its own settings; the browser-wide one covers anything outside a context.
 */
export function chromiumArgs(options: ChromiumLaunchOptions, marker: string): string[] {
  return [
    ...(options.sandbox ? [] : ['--no-sandbox']),
    `--proxy-server=${options.proxyUrl}`,
    '--proxy-bypass-list=<-loopback>',
    ...UDP_OFF_FLAGS,
    // Renderer processes never mix browser contexts, so callers stay apart without site
    // isolation; keeping one caller's page in fewer processes saves a renderer or more per page
    // (and stops Chromium's spare renderer from being thrown away at every new context).
    '--disable-site-isolation-trials',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    ...RENDERER_V8_FLAGS,
    ...FEATURE_LAUNCH_OPTIONS.args,
    ...QUIET_FLAGS,
    `--pluck-browser=${marker}`,
  ];
}

export async function launchChromium(options: ChromiumLaunchOptions): Promise<ChromiumProcess> {
  const marker = randomUUID();
  const browser = await chromium.launch({
    executablePath: options.executablePath,
    args: chromiumArgs(options, marker),
    ignoreDefaultArgs: FEATURE_LAUNCH_OPTIONS.ignoreDefaultArgs,
    // The pool closes Chromium itself; Playwright's own signal handlers would race it.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  const found = await findBrowserProcess(marker);
  return { browser, pid: found?.pid, userDataDir: found?.userDataDir };
}

/**
 * SIGKILLs whatever is left of a Chromium: its process group (Playwright starts it as a group
 * leader) and any process naming its profile directory. Needed after a crash, when Playwright
 * sees the browser process gone and kills nothing.
 */
export async function killChromiumLeftovers(target: Pick<ChromiumProcess, 'pid' | 'userDataDir'>): Promise<void> {
  if (target.pid !== undefined) signal(-target.pid);
  if (!target.userDataDir) return;
  const needle = `--user-data-dir=${target.userDataDir}`;
  for (const entry of await listProcesses()) {
    if (entry.args.includes(needle)) signal(entry.pid);
  }
}

/** Live (not zombie) processes whose command line names `userDataDir`: for health checks and tests. */
export async function processesUsingProfile(userDataDir: string): Promise<number[]> {
  const needle = `--user-data-dir=${userDataDir}`;
  return (await listProcesses()).filter((entry) => entry.args.includes(needle)).map((entry) => entry.pid);
}

function signal(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

async function findBrowserProcess(marker: string): Promise<{ pid: number; userDataDir: string | undefined } | undefined> {
  const needle = `--pluck-browser=${marker}`;
  const entry = (await listProcesses()).find((candidate) => candidate.args.includes(needle));
  if (!entry) return undefined;
  const userDataDir = entry.args.find((arg) => arg.startsWith('--user-data-dir='))?.slice('--user-data-dir='.length);
  return { pid: entry.pid, userDataDir };
}

export interface ProcessEntry {
  pid: number;
  args: string[];
}

/** Live processes with their command lines, from /proc (Linux); zombies hold nothing but a pid and are left out. */
export async function listProcesses(): Promise<ProcessEntry[]> {
  let names: string[];
  try {
    names = await readdir('/proc');
  } catch {
    return [];
  }
  const entries = await Promise.all(
    names.filter((name) => /^\d+$/.test(name)).map(async (name): Promise<ProcessEntry | undefined> => {
      try {
        const [cmdline, stat] = await Promise.all([readFile(`/proc/${name}/cmdline`, 'utf8'), readFile(`/proc/${name}/stat`, 'utf8')]);
        if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return undefined;
        // Processes forked from Chromium's zygote rewrite their title: one string, spaces between arguments.
        return { pid: Number(name), args: cmdline.split(/[\0 ]+/) };
      } catch {
        return undefined;
      }
    }),
  );
  return entries.filter((entry): entry is ProcessEntry => entry !== undefined);
}
