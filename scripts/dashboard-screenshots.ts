/**
 * Pictures of every dashboard screen for the README, taken from the real app: the dashboard
 * built by its Vite config, served by Pluck on loopback (SQLite, local files, real Chromium),
 * driven like a user would. Writes PNGs to docs/screenshots/.
 *
 *   npx tsx scripts/dashboard-screenshots.ts
 */
import { mkdir, rm } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { buildDashboard } from '../test/dashboard/build-dashboard.js';
import { launchChromium } from '../test/extract/chromium.js';
import { apiClient } from '../test/helpers/client.js';
import { startRecordingServer } from '../test/helpers/recording-server.js';
import { startTestServer } from '../test/helpers/test-server.js';

const OUT_DIR = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));
const WAIT = { timeout: 30_000 };

const DEMO_ARTICLE = `<!doctype html><html lang="en"><head><title>Field notes: growing tomatoes</title>
<meta name="description" content="A short guide"><style>
body{font:17px/1.6 Georgia,serif;margin:0;background:#fbfaf7;color:#222}
header{background:#2f6d3a;color:#fff;padding:18px 40px;font:600 20px system-ui}
main{max-width:720px;margin:32px auto;padding:0 24px}h1{font-size:38px;margin:0 0 8px}
.lead{color:#555;font-size:20px}figure{margin:24px 0;height:160px;border-radius:12px;
background:linear-gradient(135deg,#e94f37,#f6c026 60%,#6aa84f)}</style></head>
<body><header>Garden Journal</header><main><article>
<h1>Growing tomatoes on a balcony</h1>
<p class="lead">Six weeks of notes on soil, light and watering, and what worked.</p>
<figure></figure>
<h2>What you need</h2>
<ul><li>A 20-litre pot with drainage holes</li><li>Peat-free compost<ul><li>mixed with a handful of grit</li></ul></li><li>A sunny, sheltered spot</li></ul>
<h2>Watering</h2>
<p>Water <strong>deeply and rarely</strong>: once the top two centimetres are dry. See the
<a href="https://example.org/watering">watering chart</a> for details.</p>
<table><thead><tr><th>Week</th><th>Height</th></tr></thead><tbody><tr><td>1</td><td>12 cm</td></tr><tr><td>6</td><td>71 cm</td></tr></tbody></table>
</article></main></body></html>`;

const DEMO_PRICING = `<!doctype html><html lang="en"><head><title>Pricing</title><style>
body{font:16px system-ui;margin:0;background:#0f172a;color:#e2e8f0}main{padding:48px;text-align:center}
.cards{display:flex;gap:24px;justify-content:center;margin-top:32px}.card{background:#1e293b;border-radius:14px;padding:28px;width:200px}
.price{font-size:40px;font-weight:700;color:#38bdf8}</style></head><body><main><h1>Simple pricing</h1>
<div class="cards"><div class="card"><h2>Hobby</h2><p class="price">$0</p></div><div class="card"><h2>Team</h2><p class="price">$29</p></div>
<div class="card"><h2>Scale</h2><p class="price">$99</p></div></div></main></body></html>`;

const page = (body: string) => (_req: unknown, res: ServerResponse) =>
  void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);

async function shoot(target: Page, name: string) {
  await target.waitForLoadState('networkidle');
  await target.screenshot({ path: `${OUT_DIR}${name}.png`, fullPage: true });
  console.log(`wrote docs/screenshots/${name}.png`);
}

async function main() {
  await mkdir(OUT_DIR, { recursive: true });
  const site = await startRecordingServer({ '/tomatoes': page(DEMO_ARTICLE), '/pricing': page(DEMO_PRICING) });
  const dashboardDir = await buildDashboard();
  const server = await startTestServer('sqlite', {
    ALLOW_PRIVATE_HOSTS: site.hostPort,
    DASHBOARD_DIR: dashboardDir,
    LOG_LEVEL: 'silent',
  });
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const desktop = await browser.newContext({ viewport: { width: 1200, height: 760 }, locale: 'en-US', deviceScaleFactor: 1 });
    const tab = await desktop.newPage();
    const email = 'ada@example.com';
    const password = 'correct horse battery';

    await tab.goto(`${server.baseUrl}/sign-up`);
    await tab.getByLabel('Name').fill('Ada Lovelace');
    await tab.getByLabel('Email').fill(email);
    await tab.getByLabel('Password').fill(password);
    await shoot(tab, 'sign-up');
    await tab.getByRole('button', { name: 'Sign up' }).click();
    await tab.getByRole('heading', { name: 'API keys', level: 1 }).waitFor(WAIT);
    await tab.getByRole('button', { name: 'Dismiss' }).click();

    for (const name of ['ci', 'laptop']) {
      await tab.getByLabel('Name').fill(name);
      await tab.getByRole('button', { name: 'Create key' }).click();
      await tab.getByRole('row', { name: new RegExp(name) }).waitFor(WAIT);
    }
    await tab.getByLabel('Name').fill('production');
    await tab.getByRole('button', { name: 'Create key' }).click();
    await tab.getByRole('region', { name: /Your new key/ }).waitFor(WAIT);
    const key = await tab.getByLabel('New API key').inputValue();
    await shoot(tab, 'keys');

    // Some files and usage to show: made through the API with the new key.
    const api = apiClient(server.baseUrl);
    for (const path of ['/tomatoes', '/pricing']) {
      await api.post('/v1/web/screenshot', { url: `${site.origin}${path}` }, key);
    }
    await api.post('/v1/web/pdf', { url: `${site.origin}/tomatoes` }, key);

    await tab.getByRole('link', { name: 'Playground' }).click();
    await tab.getByLabel('URL', { exact: true }).fill(`${site.origin}/tomatoes`);
    await tab.getByRole('button', { name: 'Run' }).click();
    await tab.getByRole('tabpanel').getByRole('heading').first().waitFor(WAIT);
    await shoot(tab, 'playground');

    await tab.getByLabel('Operation').selectOption('screenshot');
    await tab.getByRole('button', { name: 'Run' }).click();
    await tab.getByRole('img', { name: /Screenshot of/ }).waitFor(WAIT);
    await shoot(tab, 'playground-screenshot');

    await tab.getByRole('link', { name: 'Files' }).click();
    await tab.getByRole('list', { name: 'Stored files' }).waitFor(WAIT);
    await tab.waitForFunction(() => [...document.images].every((img) => img.complete && img.naturalWidth > 0));
    await shoot(tab, 'files');

    await tab.getByRole('link', { name: 'Credits and plan' }).click();
    await tab.getByRole('heading', { name: 'Balance' }).waitFor(WAIT);
    await shoot(tab, 'credits');

    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      locale: 'en-US',
    });
    const small = await phone.newPage();
    await small.goto(`${server.baseUrl}/sign-in`);
    await small.getByLabel('Email').fill(email);
    await small.getByLabel('Password').fill(password);
    await small.getByRole('button', { name: 'Sign in' }).click();
    await small.getByRole('row', { name: /production/ }).waitFor(WAIT);
    await shoot(small, 'phone-keys');
  } finally {
    await browser?.close();
    await server.close();
    await site.close();
    await rm(dashboardDir, { recursive: true, force: true });
  }
}

await main();
