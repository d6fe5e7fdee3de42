import { randomUUID } from 'node:crypto';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { BASELINE_CHROMIUM_ARGS } from '../../scripts/baseline-chromium.js';
import {
  type ChromiumProcess,
  killChromiumLeftovers,
  launchChromium,
  listProcesses,
  PLAYWRIGHT_DISABLED_FEATURES,
} from '../../src/browser/chromium-process.js';
import { loadConfig } from '../../src/config.js';

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

  it("repeats Playwright's own --disable-features list, which a plain Playwright launch still passes", async () => {
    const tag = `--pluck-test=${randomUUID()}`;
    const browser = await chromium.launch({ executablePath: loadConfig({}).browser.chromiumPath, args: [...BASELINE_CHROMIUM_ARGS, tag] });
    try {
      expect(disabledFeatureSwitches(await commandLine({ tag }))).toEqual([`--disable-features=${PLAYWRIGHT_DISABLED_FEATURES.join(',')}`]);
      // What the service's switch removes: without it, the page's window gets a WebUI omnibox popup.
      expect(await browserUiTargets(browser)).toContainEqual(expect.stringMatching(/^chrome:\/\/omnibox-popup/));
    } finally {
      await browser.close();
    }
  });

  it("starts the service's Chromium with one feature switch that keeps Playwright's features off and builds no browser UI", async () => {
    const process = await launchChromium({ executablePath: loadConfig({}).browser.chromiumPath, proxyUrl: 'http://127.0.0.1:9', sandbox: false });
    launched.push(process);
    expect(process.pid).toBeDefined();
    const switches = disabledFeatureSwitches(await commandLine({ pid: process.pid ?? 0 }));
    expect(switches).toHaveLength(1);
    const features = (switches[0] ?? '').slice('--disable-features='.length).split(',');
    expect(features).toEqual(expect.arrayContaining([...PLAYWRIGHT_DISABLED_FEATURES, 'WebUIOmniboxPopup']));
    expect(await browserUiTargets(process.browser)).toEqual([]);
  });
});
