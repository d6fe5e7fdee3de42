import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { BASELINE_CHROMIUM_ARGS } from '../../scripts/baseline-chromium.js';
import {
  type ChromiumProcess,
  killChromiumLeftovers,
  launchChromium,
  listProcesses,
  type ProcessEntry,
  PLAYWRIGHT_DISABLED_FEATURES,
  processesOfBrowser,
} from '../../src/browser/chromium-process.js';
import { loadConfig } from '../../src/config.js';
import { FULL_CHROMIUM_PATH } from '../../src/config/browser.js';
import { apiClient } from '../helpers/client.js';
import type { RecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { startFixtureSite } from '../web/fixtures.js';

/** The command line of the live process carrying `tag`, or of process `pid`. */
async function commandLine(match: { tag: string } | { pid: number }): Promise<string[]> {
  const found = (await listProcesses()).find((entry) => ('pid' in match ? entry.pid === match.pid : entry.args.includes(match.tag)));
  if (!found) throw new Error(`no process matches ${JSON.stringify(match)}`);
  return found.args;
}

const disabledFeatureSwitches = (args: string[]) => args.filter((arg) => arg.startsWith('--disable-features='));

/** URLs of the browser's UI targets (WebUI pages Chromium opens for itself) within 2 s of showing a page. */
async function browserUiTargets(browser: Browser): Promise<string[]> {
  const page = await browser.newPage();
  await page.setContent('<p>hello</p>');
  const cdp = await browser.newBrowserCDPSession();
  try {
    for (let attempt = 0; ; attempt++) {
      const { targetInfos } = await cdp.send('Target.getTargets');
      const ui = targetInfos.filter((target) => target.url.startsWith('chrome://')).map((target) => target.url);
      if (ui.length > 0 || attempt >= 40) return ui;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await cdp.detach();
    await page.close();
  }
}

describe('Chromium launch flags', () => {
  const launched: ChromiumProcess[] = [];
  afterAll(async () => {
    for (const process of launched) {
      await process.browser.close().catch(() => undefined);
      await killChromiumLeftovers(process);
    }
  });

  // The full build (new headless) is where the UI is: the headless shell has no omnibox to turn off.
  it("repeats Playwright's own --disable-features list, which a plain Playwright launch still passes", async () => {
    const tag = `--pluck-test=${randomUUID()}`;
    const browser = await chromium.launch({ executablePath: FULL_CHROMIUM_PATH, args: [...BASELINE_CHROMIUM_ARGS, tag] });
    try {
      expect(disabledFeatureSwitches(await commandLine({ tag }))).toEqual([`--disable-features=${PLAYWRIGHT_DISABLED_FEATURES.join(',')}`]);
      // What the service's switch removes: without it, the full build's window gets a WebUI omnibox popup.
      expect(await browserUiTargets(browser)).toContainEqual(expect.stringMatching(/^chrome:\/\/omnibox-popup/));
    } finally {
      await browser.close();
    }
  });

  it.each([
    ['the default build', loadConfig({}).browser.chromiumPath],
    ['the full build', FULL_CHROMIUM_PATH],
  ])("starts the service's Chromium (%s) with one feature switch that keeps Playwright's features off, builds no browser UI and no frame per document", async (_, executablePath) => {
    const process = await launchChromium({ executablePath, proxyUrl: 'http://127.0.0.1:9', sandbox: false });
    launched.push(process);
    expect(process.pid).toBeDefined();
    // That build itself ran (/usr/bin/chromium is Debian's wrapper script around /usr/lib/chromium/chromium).
    expect(basename(readlinkSync(`/proc/${process.pid}/exe`))).toBe(basename(executablePath));
    const switches = disabledFeatureSwitches(await commandLine({ pid: process.pid ?? 0 }));
    expect(switches).toHaveLength(1);
    const features = (switches[0] ?? '').slice('--disable-features='.length).split(',');
    expect(features).toEqual(expect.arrayContaining([...PLAYWRIGHT_DISABLED_FEATURES, 'WebUIOmniboxPopup', 'RenderDocument']));
    expect(await browserUiTargets(process.browser)).toEqual([]);
  });

  it('takes the browser itself for its process, not a launcher script that starts it as a child', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pluck-launcher-'));
    const launcher = join(dir, 'chromium-launcher.sh');
    // No exec: the script stays the parent, with the same arguments, as Debian's headless shell launcher does.
    await writeFile(launcher, `#!/bin/sh\n${loadConfig({}).browser.chromiumPath} "$@"\n`, { mode: 0o755 });
    try {
      const process = await launchChromium({ executablePath: launcher, proxyUrl: 'http://127.0.0.1:9', sandbox: false });
      launched.push(process);
      const entries = await listProcesses();
      const script = entries.find((entry) => entry.args.some((arg) => arg.endsWith('chromium-launcher.sh')));
      expect(script, 'the launcher script is still running').toBeDefined();
      expect(process.pid).not.toBe(script?.pid);
      // The browser's own executable, not a shell: the script may start another launcher in turn.
      expect(basename(readlinkSync(`/proc/${process.pid}/exe`))).toMatch(/^chrom/);
      // The group to kill after a crash is still the one Playwright started, which the script leads.
      expect(process.processGroup).toBe(script?.pid);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("the service's Chromium, as configured by default", () => {
  let site: RecordingServer;
  let server: TestServer;
  const secretName = `PLUCK_TEST_SECRET_${randomUUID().slice(0, 8)}`;

  afterAll(async () => {
    await server?.close();
    await site?.close();
    delete process.env[secretName];
  });

  it('runs sandboxed (as an unprivileged user when the service is root), with none of the service’s environment', async () => {
    process.env[secretName] = 'must-not-reach-chromium';
    site = await startFixtureSite();
    server = await startTestServer('sqlite', { ALLOW_PRIVATE_HOSTS: site.hostPort });
    const api = apiClient(server.baseUrl);
    const { key } = await api.signUpWithKey();
    // A page held open long enough to look at its processes.
    const loading = api.post('/v1/web/content', { url: `${site.origin}/article`, waitTime: 3000, maxAge: 0 }, key);
    let processes: ProcessEntry[] = [];
    let renderers: ProcessEntry[] = [];
    for (let attempt = 0; attempt < 100 && renderers.length === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      // Every process of a Chromium stays in the process group it was started in; not every
      // build names the profile directory on its children's command lines.
      processes = await processesOfBrowser(server.ctx.browser.stats().browserPid);
      renderers = processes.filter((entry) => entry.args.includes('--type=renderer'));
    }
    const { browserPid } = server.ctx.browser.stats();
    expect(renderers.length).toBeGreaterThan(0);
    expect(processes.flatMap((entry) => entry.args)).not.toContain('--no-sandbox');
    let checked = 0;
    for (const renderer of renderers) {
      // Chromium's sandbox puts every renderer under a seccomp-bpf filter (mode 2). A renderer
      // forked a moment ago engages it early in its start, before it is given any page.
      const mode = await seccompModeOnceStarted(renderer.pid);
      if (mode === undefined) continue; // exited meanwhile (a spare renderer let go)
      expect(mode, `renderer ${renderer.pid}`).toBe('2');
      checked += 1;
    }
    expect(checked).toBeGreaterThan(0);
    if (process.getuid?.() === 0) {
      const chromiumUid = String(execFileSync('id', ['-u', 'pluck-chromium'])).trim();
      for (const entry of processes) expect(statusField(entry.pid, 'Uid')?.split('\t')[0], `process ${entry.pid}`).toBe(chromiumUid);
    }
    const environment = readFileSync(`/proc/${browserPid}/environ`, 'utf8');
    expect(environment).not.toContain(secretName);
    expect((await loading).status).toBe(200);
  });
});

/** The process's seccomp mode once it has had 2 s to engage it; undefined once it has exited. */
async function seccompModeOnceStarted(pid: number): Promise<string | undefined> {
  const mode = () => {
    try {
      return statusField(pid, 'Seccomp');
    } catch {
      return undefined;
    }
  };
  for (let attempt = 0; attempt < 40 && mode() === '0'; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return mode();
}

/** A field of /proc/PID/status, e.g. `Seccomp` or `Uid`. */
function statusField(pid: number, name: string): string | undefined {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((candidate) => candidate.startsWith(`${name}:`));
  return line?.slice(name.length + 1).trim();
}
