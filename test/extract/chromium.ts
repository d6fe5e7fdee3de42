import { type Browser, chromium, type Page } from 'playwright-core';

/** One real Chromium per test file, launched the way the service launches it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A fresh page holding `html` (no network: every request is refused). */
export async function pageWith(browser: Browser, html: string): Promise<Page> {
  const page = await browser.newPage();
  await page.route('**/*', (route) => route.abort());
  await page.setContent(html, { waitUntil: 'load' });
  return page;
}
