import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { access, readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';

export interface ChromiumLaunchOptions {
  executablePath: string;
  /** The egress proxy every connection must go through. */
  proxyUrl: string;
  /** Keep Chromium's sandbox (needs user namespaces, and a user other than root). */
  sandbox: boolean;
  /** With the sandbox on and this process root: the unprivileged user Chromium runs as. */
  user?: string;
}

/** A running Chromium and what is needed to make sure none of its processes outlive it. */
export interface ChromiumProcess {
  browser: Browser;
  /** Process id of the browser process (undefined when it could not be found in /proc, or is remote). */
  pid: number | undefined;
  /**
   * The process group Playwright started it in (the launched executable leads it), which every
   * Chromium process stays in: the browser's own pid unless a launcher script started it.
   */
  processGroup?: number;
  /** The profile directory unique to this launch; new headless's child processes name it, the headless shell's do not. */
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
 *
 * And a page's JavaScript heap stops at 1 GB (RENDERER_HEAP_MB): V8's own limit is several, so
 * one page allocating without end took gigabytes of the host for half a minute before its tab
 * crashed (a crash Pluck recovers from). Heavy real pages use a few hundred MB.
 */
export const RENDERER_HEAP_MB = 1024;
export const RENDERER_V8_FLAGS = [`--js-flags=--min-semi-space-size=16 --max-old-space-size=${RENDERER_HEAP_MB}`] as const;

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

/**
 * Since Chromium 13x every cross-document navigation gets a new RenderFrameHost, and a new frame
 * and view in the renderer (`RenderDocument`), even within one site and process. A warm page
 * navigates twice per request (the request's URL, then about:blank to unload it), so that
 * machinery ran twice per request. Measured with `npm run bench`'s article at concurrency 1: a
 * warm content request used 60 ms of renderer CPU and 67 ms of browser-process CPU with it, 38
 * and 50 ms without; p50 107 ms against 82 ms. Without it, a navigation within the frame's
 * process reuses the frame, as Chromium did for years; a document never outlives its
 * navigation either way (a new Window, storage cleared by the reset), and different accounts
 * never share a renderer (a context each).
 */
export const PER_DOCUMENT_FRAME_FEATURES = ['RenderDocument'];

/** The features Pluck turns off beyond Playwright's; browser hosts are asked for them too. */
export const PLUCK_DISABLED_FEATURES = [...UNUSED_BROWSER_UI_FEATURES, ...PER_DOCUMENT_FRAME_FEATURES];

/** Launch options that put our `--disable-features` switch in place of Playwright's. */
export const FEATURE_LAUNCH_OPTIONS = {
  args: [`--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...PLUCK_DISABLED_FEATURES].join(',')}`],
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

/** Starts Chromium as `user` (scripts/chromium-as-user.sh); Playwright runs it in Chromium's place. */
const RUN_AS_USER_SCRIPT = fileURLToPath(new URL('../../scripts/chromium-as-user.sh', import.meta.url));

/** What Chromium inherits of our environment: enough for locale and time, none of our secrets. */
const BROWSER_ENV_NAMES = ['PATH', 'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'TZ', 'FONTCONFIG_PATH', 'FONTCONFIG_FILE', 'TMPDIR'];

export async function launchChromium(options: ChromiumLaunchOptions): Promise<ChromiumProcess> {
  // Checked here, as the launcher script would only report it as its own exit code 127 (root).
  await access(options.executablePath, constants.X_OK).catch((error: unknown) => {
    throw new Error(missingChromiumMessage(options.executablePath), { cause: error });
  });
  const marker = randomUUID();
  const env: Record<string, string> = {};
  for (const name of BROWSER_ENV_NAMES) if (process.env[name] !== undefined) env[name] = process.env[name] as string;
  const asUser = options.sandbox && options.user !== undefined;
  if (asUser) Object.assign(env, { PLUCK_CHROMIUM_PATH: options.executablePath, PLUCK_CHROMIUM_USER: options.user });
  const browser = await chromium
    .launch({
      executablePath: asUser ? RUN_AS_USER_SCRIPT : options.executablePath,
      env,
      // Playwright adds --no-sandbox unless told otherwise.
      chromiumSandbox: options.sandbox,
      args: chromiumArgs(options, marker),
      ignoreDefaultArgs: FEATURE_LAUNCH_OPTIONS.ignoreDefaultArgs,
      // The pool closes Chromium itself; Playwright's own signal handlers would race it.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    })
    .catch((error: unknown) => {
      throw explainLaunchFailure(error, options);
    });
  const found = await findBrowserProcess(marker);
  return { browser, pid: found?.pid, processGroup: found?.processGroup, userDataDir: found?.userDataDir };
}

/** What to do when CHROMIUM_PATH names nothing: the default is the headless shell, which a machine with only `chromium` lacks. */
export const MISSING_CHROMIUM_ADVICE =
  "install Debian's chromium-headless-shell (the default; scripts/ensure-deps.sh does), or set CHROMIUM_PATH to another Chromium, such as /usr/bin/chromium";

export function missingChromiumMessage(executablePath: string): string {
  return `Chromium not found at ${executablePath} (CHROMIUM_PATH): ${MISSING_CHROMIUM_ADVICE}`;
}

/** The operator's next step, for the failures a sandboxed launch can meet. */
function explainLaunchFailure(error: unknown, options: ChromiumLaunchOptions): unknown {
  const message = error instanceof Error ? error.message : String(error);
  if (/No usable sandbox|namespace/i.test(message)) {
    return new Error(
      "Chromium's sandbox cannot start here (it needs unprivileged user namespaces: kernel.unprivileged_userns_clone=1, or a container seccomp profile that allows them). Allow them, or set CHROMIUM_SANDBOX=false to run without it",
      { cause: error },
    );
  }
  if (options.user !== undefined && /no such user|chown: invalid user/i.test(message)) {
    return new Error(`Chromium runs as the user ${options.user} when Pluck runs as root with the sandbox on, and that user does not exist: create it (useradd --system --user-group ${options.user}; scripts/ensure-deps.sh does) or set CHROMIUM_USER`, {
      cause: error,
    });
  }
  return error;
}

/**
 * SIGKILLs whatever is left of a Chromium: the process group Playwright started it in, which
 * every Chromium process stays in, and any process naming its profile directory. Needed after a
 * crash, when Playwright sees the browser process gone and kills nothing.
 */
export async function killChromiumLeftovers(target: Pick<ChromiumProcess, 'pid' | 'processGroup' | 'userDataDir'>): Promise<void> {
  const group = target.processGroup ?? target.pid;
  if (group !== undefined) signal(-group);
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

async function findBrowserProcess(marker: string): Promise<{ pid: number; processGroup: number; userDataDir: string | undefined } | undefined> {
  const needle = `--pluck-browser=${marker}`;
  const marked = (await listProcesses()).filter((candidate) => candidate.args.includes(needle));
  // A launcher script that starts Chromium as its child instead of exec'ing it (Debian's
  // chromium-headless-shell does) carries the same arguments; the browser is the innermost.
  const entry = marked.find((candidate) => !marked.some((other) => other.ppid === candidate.pid));
  if (!entry) return undefined;
  const userDataDir = entry.args.find((arg) => arg.startsWith('--user-data-dir='))?.slice('--user-data-dir='.length);
  return { pid: entry.pid, processGroup: entry.processGroup, userDataDir };
}

export interface ProcessEntry {
  pid: number;
  ppid: number;
  processGroup: number;
  args: string[];
  /** CPU used so far, in clock ticks: the process's own and that of the children it has reaped. */
  cpuTicks: number;
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
        // After the command name in parentheses: the state, the parent's pid, the process group,
        // and from the 12th field on utime, stime, cutime and cstime.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const [state, ppid, processGroup] = fields;
        if (state === 'Z') return undefined;
        const cpuTicks = fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0);
        // Processes forked from Chromium's zygote rewrite their title: one string, spaces between arguments.
        return { pid: Number(name), ppid: Number(ppid), processGroup: Number(processGroup), args: cmdline.split(/[\0 ]+/), cpuTicks };
      } catch {
        return undefined;
      }
    }),
  );
  return entries.filter((entry): entry is ProcessEntry => entry !== undefined);
}

/** The live processes of the Chromium whose browser is `browserPid`: every one stays in the browser's process group. */
export async function processesOfBrowser(browserPid: number | undefined): Promise<ProcessEntry[]> {
  const all = await listProcesses();
  const group = all.find((entry) => entry.pid === browserPid)?.processGroup;
  return group === undefined ? [] : all.filter((entry) => entry.processGroup === group);
}
