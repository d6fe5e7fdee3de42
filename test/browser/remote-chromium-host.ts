import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  killChromiumLeftovers,
  PLUCK_DISABLED_FEATURES,
  processesUsingProfile,
  QUIET_FLAGS,
  UDP_OFF_FLAGS,
} from '../../src/browser/chromium-process.js';
import { loadConfig } from '../../src/config.js';

/** A Chromium started as a browser host would run it: its own process, a CDP port on loopback. */
export interface RemoteChromiumHost {
  port: number;
  /** `ws://127.0.0.1:PORT/devtools/browser/<id>`, as Chromium printed it. */
  wsEndpoint: string;
  /** `http://127.0.0.1:PORT`: finds whichever browser listens on the port now. */
  httpEndpoint: string;
  userDataDir: string;
  pid: number;
  /** SIGKILLs the browser and all its children, and removes its profile. */
  kill(): Promise<void>;
}

/**
 * The flags the README asks browser hosts for: the egress guard's UDP switches, no background
 * traffic, no per-window browser UI, and --enable-automation so Pluck can read and check the
 * flags on connect.
 */
export const BROWSER_HOST_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--enable-automation',
  ...UDP_OFF_FLAGS,
  ...QUIET_FLAGS,
  `--disable-features=${PLUCK_DISABLED_FEATURES.join(',')}`,
];

/** Starts Chromium with `--remote-debugging-port` (0 = any) and waits for "DevTools listening on". */
export async function startRemoteChromiumHost(options: { port?: number; extraFlags?: string[] } = {}): Promise<RemoteChromiumHost> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'pluck-remote-chromium-'));
  const child = spawn(
    loadConfig({}).browser.chromiumPath,
    [
      ...BROWSER_HOST_FLAGS,
      ...(options.extraFlags ?? []),
      '--remote-debugging-address=127.0.0.1',
      `--remote-debugging-port=${options.port ?? 0}`,
      `--user-data-dir=${userDataDir}`,
      'about:blank',
    ],
    // Its own process group, so one signal reaches every Chromium process.
    { detached: true, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const pid = child.pid as number;
  const kill = async () => {
    await stop(child, userDataDir);
    await rm(userDataDir, { recursive: true, force: true });
  };
  try {
    const wsEndpoint = await devToolsEndpoint(child);
    const port = Number(new URL(wsEndpoint).port);
    return { port, wsEndpoint, httpEndpoint: `http://127.0.0.1:${port}`, userDataDir, pid, kill };
  } catch (error) {
    await kill();
    throw error;
  }
}

function devToolsEndpoint(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`Chromium printed no DevTools endpoint within 15 s:\n${stderr}`)), 15_000);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        child.stderr?.removeAllListeners('data');
        child.stderr?.resume(); // keep draining, so Chromium never blocks on a full pipe
        resolve(match[1] as string);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited with ${code} before listening:\n${stderr}`));
    });
  });
}

async function stop(child: ChildProcess, userDataDir: string): Promise<void> {
  const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-(child.pid as number), 'SIGKILL');
  } catch {
    // Already gone.
  }
  await exited;
  // Children that left the group (zygote-forked) still name the profile.
  await killChromiumLeftovers({ pid: undefined, userDataDir });
  for (let attempt = 0; attempt < 50 && (await processesUsingProfile(userDataDir)).length > 0; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
