import { readFile, rm } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import type { RecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { launchChromium } from '../extract/chromium.js';
import { startFixtureSite } from '../web/fixtures.js';
import { buildDashboard } from './build-dashboard.js';

const WAIT = { timeout: 20_000 };

/**
 * The dashboard built by its real Vite config, served by the real app, driven in Debian's
 * Chromium through role and label selectors (so every control is reachable by its
 * accessible name). The app's pages load a loopback fixture site the egress policy allows.
 */
describe('the account dashboard in a real browser', () => {
  let site: RecordingServer;
  let server: TestServer;
  let dashboardDir: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let api: ReturnType<typeof apiClient>;
  const cspViolations: string[] = [];
  const email = `dash-${crypto.randomUUID()}@example.com`;
  const password = 'correct horse battery';

  beforeAll(async () => {
    [site, dashboardDir, browser] = await Promise.all([startFixtureSite(), buildDashboard(), launchChromium()]);
    server = await startTestServer('sqlite', { ALLOW_PRIVATE_HOSTS: site.hostPort, DASHBOARD_DIR: dashboardDir });
    api = apiClient(server.baseUrl);
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    page = await context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.close();
    await site?.close();
    if (dashboardDir) await rm(dashboardDir, { recursive: true, force: true });
  });

  it('serves the app with a strict CSP, long-cached hashed assets and a fallback that never shadows the API', async () => {
    const index = await fetch(`${server.baseUrl}/playground`, { headers: { accept: 'text/html' } });
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const csp = index.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await index.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script, html).toBeDefined();

    const asset = await fetch(`${server.baseUrl}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');

    // API paths keep their JSON answers, also for a browser asking for HTML.
    for (const path of ['/v1/no-such-route', '/v2/nothing', '/files/nothing']) {
      const res = await fetch(`${server.baseUrl}${path}`, { headers: { accept: 'text/html' } });
      expect(res.status, path).toBe(404);
      expect((await res.json()).error.code, path).toBe('NOT_FOUND');
    }
    expect((await fetch(`${server.baseUrl}/health`, { headers: { accept: 'text/html' } })).headers.get('content-type')).toContain('json');
    // Only HTML navigations fall back to the app; a missing asset or a JSON client gets a 404.
    expect((await fetch(`${server.baseUrl}/assets/missing.js`, { headers: { accept: 'text/html' } })).status).toBe(404);
    expect((await fetch(`${server.baseUrl}/keys`, { headers: { accept: 'application/json' } })).status).toBe(404);
    const escape = await fetch(`${server.baseUrl}/assets/..%2f..%2fpackage.json`);
    expect(escape.status).toBe(404);
  });

  it('shows the API error for a failed sign-in, then signs up', async () => {
    await page.goto(`${server.baseUrl}/`);
    await page.getByRole('heading', { name: 'Sign in to Pluck' }).waitFor(WAIT);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor(WAIT);
    expect(await alert.textContent()).toMatch(/invalid email or password/i);

    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Name').fill('Dana Dashboard');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor(WAIT);
    expect(page.url()).toBe(`${server.baseUrl}/keys`);
    expect(await page.getByRole('status').first().textContent()).toContain('verify your address');
  });

  let secret: string;

  it('creates a key and shows its secret once', async () => {
    await page.getByLabel('Name').fill('e2e key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('region', { name: /Your new key/ });
    await shown.waitFor(WAIT);
    expect(await shown.textContent()).toContain('only time it is shown');
    secret = await page.getByLabel('New API key').inputValue();
    expect(secret).toMatch(/^pk_/);
    const row = page.getByRole('row', { name: /e2e key/ });
    await row.waitFor(WAIT);
    expect(await row.textContent()).toContain(secret.slice(0, 10));
    // The secret is a working key.
    expect((await api.get('/v1/user/credits', secret)).status).toBe(200);
  });

  it('runs a markdown extraction in the playground with the new key and shows rendered and raw markdown', async () => {
    await page.getByRole('link', { name: 'Playground' }).click();
    await page.getByRole('heading', { name: 'Playground', level: 1 }).waitFor(WAIT);
    expect(await page.getByLabel('Run with').inputValue()).toBe('fresh');
    await page.getByLabel('URL', { exact: true }).fill(`${site.origin}/article`);

    const curl = page.getByRole('region', { name: 'curl command' });
    expect(await curl.textContent()).toContain('$PLUCK_API_KEY');
    expect(await curl.textContent()).not.toContain(secret);
    expect(await curl.textContent()).toContain(`${server.baseUrl}/v1/web/markdown`);

    await page.getByRole('button', { name: 'Run' }).click();
    const rendered = page.getByRole('tabpanel');
    // Rendered: markdown headings, lists and links become elements (not text with # and *).
    await rendered.getByRole('heading', { name: 'Lists' }).waitFor(WAIT);
    expect(await rendered.textContent()).toContain('The first paragraph talks about the introduction');
    expect(await rendered.getByRole('link', { name: 'the introduction' }).getAttribute('href')).toBe(`${site.origin}/docs/intro#part`);
    expect(await rendered.getByRole('listitem').allTextContents()).toContain('gamma');
    // Tabs follow the ARIA pattern: arrow keys move between them.
    await page.getByRole('tab', { name: 'Rendered' }).press('ArrowRight');
    expect(await page.getByRole('tab', { name: 'Markdown' }).getAttribute('aria-selected')).toBe('true');
    const raw = (await page.getByRole('tabpanel').textContent()) ?? '';
    expect(raw).toMatch(/^#+ Lists$/m);
    expect(raw).toContain(`[the introduction](${site.origin}/docs/intro#part)`);
    expect(site.hitsTo('/article').length).toBeGreaterThan(0);

    await page.getByLabel('Show the secret in the command').check();
    expect(await curl.textContent()).toContain(secret);
    await page.getByLabel('Show the secret in the command').uncheck();
  });

  it("shows the API's error body when the playground's request is refused", async () => {
    await page.getByLabel('URL', { exact: true }).fill('http://169.254.169.254/latest/meta-data/');
    await page.getByRole('button', { name: 'Run' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor(WAIT);
    expect(await alert.textContent()).toContain('URL_NOT_ALLOWED');
    expect(await alert.textContent()).toContain('cloud metadata');
  });

  it('takes a screenshot, finds it in Files and deletes it', async () => {
    await page.getByLabel('Operation').selectOption('screenshot');
    await page.getByLabel('URL', { exact: true }).fill(`${site.origin}/article`);
    await page.getByRole('button', { name: 'Run' }).click();
    const shot = page.getByRole('img', { name: `Screenshot of ${site.origin}/article` });
    await shot.waitFor(WAIT);
    expect(await shot.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(1280);

    await page.getByRole('link', { name: 'Files' }).click();
    const files = page.getByRole('list', { name: 'Stored files' });
    await files.waitFor(WAIT);
    const items = files.getByRole('listitem');
    expect(await items.count()).toBe(1);
    const thumb = items.first().getByRole('img', { name: `Screenshot of ${site.origin}/article` });
    // The thumbnail comes from the file's public URL, which the CSP must allow.
    await page.waitForFunction((img) => (img as HTMLImageElement).naturalWidth > 0, await thumb.elementHandle(), WAIT);
    const filename = (await items.first().getByRole('heading').textContent())!;

    await page.getByRole('button', { name: `Delete ${filename}` }).click();
    await page.getByRole('button', { name: 'Delete file' }).click();
    await page.getByText(`Deleted ${filename}.`).waitFor(WAIT);
    await page.getByText('No stored files yet').waitFor(WAIT);
    expect((await api.get('/v1/files/list', secret)).body.data.totalFiles).toBe(0);
  });

  it('shows credits with the plan and its limits', async () => {
    await page.getByRole('link', { name: 'Credits and plan' }).click();
    await page.getByRole('heading', { name: 'Balance' }).waitFor(WAIT);
    const credits = (await api.get('/v1/user/credits', secret)).body.data;
    const text = await page.getByRole('main').textContent();
    expect(text).toContain(credits.balance.toLocaleString('en-US'));
    expect(text).toMatch(/Requests per hour\s*1,000/);
    expect(text).toMatch(/Per hour, all keys together\s*3,000/);
    expect(text).toMatch(/Plan\s*free/i);
    expect(text).toMatch(/Requests at once\s*5/);
    expect(text).toMatch(/Stored files kept for\s*7 days/);
  });

  it('starts a batch on the Jobs screen, follows it to the end and downloads its markdown', async () => {
    await page.getByRole('link', { name: 'Jobs' }).click();
    await page.getByRole('heading', { name: 'Jobs', level: 1 }).waitFor(WAIT);
    await page.getByLabel('Kind').selectOption('batch');
    await page.getByLabel('URLs, one a line').fill(`${site.origin}/article\n# a comment\n${site.origin}/scripted\n`);
    await page.getByRole('button', { name: 'Start batch' }).click();
    const job = page.getByRole('listitem', { name: /^batch / });
    await job.getByText(/completed · 2 done, 0 failed of 2/).waitFor(WAIT);

    await job.getByRole('button', { name: /^Show results/ }).click();
    const resultList = job.getByRole('list', { name: /^Results of batch/ });
    await resultList.getByRole('listitem').first().waitFor(WAIT);
    const results = await resultList.getByRole('listitem').allTextContents();
    expect(results.sort()).toEqual([expect.stringMatching(new RegExp(`^${site.origin}/article: [\\d,]+ characters of markdown$`)), expect.stringContaining(`${site.origin}/scripted: `)]);

    const [download] = await Promise.all([page.waitForEvent('download'), job.getByRole('button', { name: /^Download markdown \(zip\)/ }).click()]);
    expect(download.suggestedFilename()).toMatch(/^pluck-job-.+\.zip$/);
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  });

  it('revokes the key after confirmation', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    const row = page.getByRole('row', { name: /e2e key/ });
    await row.waitFor(WAIT);
    // At least the playground's markdown, refused and screenshot requests were counted on it.
    expect(Number(await row.getByRole('cell').nth(3).textContent())).toBeGreaterThanOrEqual(3);
    // By keyboard: the confirmation takes focus on Cancel; the destructive button is one step back.
    await page.getByRole('button', { name: 'Revoke e2e key' }).press('Enter');
    await page.getByRole('button', { name: 'Revoke key' }).waitFor(WAIT);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent), WAIT).toBe('Cancel');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page.getByText('No keys yet').waitFor(WAIT);
    expect((await api.get('/v1/user/credits', secret)).status).toBe(401);
  });

  it('signs out and ends the session on the server', async () => {
    const token = await page.evaluate(() => sessionStorage.getItem('pluck.session'));
    expect(token).toBeTruthy();
    expect((await api.get('/v1/user/credits', token!)).status).toBe(200);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Pluck' }).waitFor(WAIT);
    expect(await page.getByRole('status').textContent()).toContain('You are signed out');
    expect(await page.evaluate(() => sessionStorage.getItem('pluck.session'))).toBeNull();
    expect((await api.get('/v1/user/credits', token!)).status).toBe(401);
  });

  it('resets a forgotten password through the mailed link, then changes it on the Account screen', async () => {
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor(WAIT);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send the reset link' }).click();
    await page.getByText(`If an account uses ${email}, we sent it a link`).waitFor(WAIT);
    const link = server.outbox.filter((message) => message.to === email).at(-1)!.link!;
    expect(link.startsWith(`${server.baseUrl}/reset-password?token=`)).toBe(true);

    await page.goto(link);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor(WAIT);
    // The token leaves the address bar (and so the history) at once.
    expect(page.url()).toBe(`${server.baseUrl}/reset-password`);
    await page.getByLabel('New password', { exact: true }).fill('forgotten and found');
    await page.getByLabel('New password again').fill('forgotten and foun');
    await page.getByText('The two passwords differ.').waitFor(WAIT);
    expect(await page.getByRole('button', { name: 'Set the password' }).isDisabled()).toBe(true);
    await page.getByLabel('New password again').fill('forgotten and found');
    await page.getByRole('button', { name: 'Set the password' }).click();
    await page.getByRole('heading', { name: 'Sign in to Pluck' }).waitFor(WAIT);
    expect(await page.getByRole('status').textContent()).toContain('Your new password is set');

    // The link worked once.
    const reused = await api.post('/v1/auth/reset-password', { token: new URL(link).searchParams.get('token'), newPassword: 'once more please' });
    expect(reused.body.error.code).toBe('INVALID_TOKEN');

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('forgotten and found');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor(WAIT);
    const before = await page.evaluate(() => sessionStorage.getItem('pluck.session'));
    const elsewhere = (await api.post('/v1/auth/sign-in/email', { email, password: 'forgotten and found' })).body.token;

    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { name: 'Change your password' }).waitFor(WAIT);
    expect(await page.getByRole('main').textContent()).toContain(email);
    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password', { exact: true }).fill(password);
    await page.getByLabel('New password again').fill(password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').waitFor(WAIT);
    expect(await page.getByRole('alert').textContent()).toContain('INVALID_PASSWORD');
    await page.getByLabel('Current password').fill('forgotten and found');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password is changed').waitFor(WAIT);
    // This tab carries on with the new session; every other one has ended.
    const after = await page.evaluate(() => sessionStorage.getItem('pluck.session'));
    expect(after).not.toBe(before);
    expect((await api.get('/v1/user/credits', after!)).status).toBe(200);
    for (const old of [before!, elsewhere]) expect((await api.get('/v1/user/credits', old)).status).toBe(401);
    await page.getByRole('link', { name: 'Credits and plan' }).click();
    await page.getByRole('heading', { name: 'Balance' }).waitFor(WAIT);
  });

  it("keeps a browser on another site from signing up: preflight blocked, a simple request or form refused", async () => {
    const victim = `csrf-${crypto.randomUUID()}@example.com`;
    const foreign = await context.newPage();
    try {
      await foreign.goto(`${site.origin}/article`);
      const outcomes = await foreign.evaluate(
        async ({ base, victim }) => {
          const body = JSON.stringify({ email: victim, password: 'correct horse battery', name: 'CSRF' });
          const tries: RequestInit[] = [
            { method: 'POST', body, headers: { 'content-type': 'application/json' } },
            { method: 'POST', body, mode: 'no-cors', headers: { 'content-type': 'text/plain' } },
          ];
          const results: string[] = [];
          for (const init of tries) {
            try {
              const answer = await fetch(`${base}/v1/auth/sign-up/email`, init);
              results.push(`${answer.type}:${answer.status}`);
            } catch {
              results.push('blocked');
            }
          }
          return results;
        },
        { base: server.baseUrl, victim },
      );
      expect(outcomes).toEqual(['blocked', 'opaque:0']);
      // A form posted across sites lands on Pluck's refusal.
      await foreign.evaluate(
        ({ action, victim }) => {
          const form = document.createElement('form');
          form.method = 'post';
          form.action = action;
          form.enctype = 'text/plain';
          const input = document.createElement('input');
          input.name = `{"email":"${victim}","password":"correct horse battery","name":"x","pad":"`;
          input.value = '"}';
          form.append(input);
          document.body.append(form);
          form.submit();
        },
        { action: `${server.baseUrl}/v1/auth/sign-up/email`, victim },
      );
      await foreign.waitForURL(`${server.baseUrl}/v1/auth/sign-up/email`, WAIT);
      expect(await foreign.textContent('body')).toContain('UNSUPPORTED_MEDIA_TYPE');
    } finally {
      await foreign.close();
    }
    const refused = server.logs.filter((line) => line.includes('"path":"/v1/auth/sign-up/email"') && line.includes('"status":415'));
    expect(refused.length).toBe(2);
    const row = await server.ctx.database.db.selectFrom('user').select('id').where('email', '=', victim).executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('says where a link went when the server has no e-mail set up', async () => {
    // No SMTP_URL and no test outbox: the service's own mailer, which writes links to its log.
    const admin = `admin-${crypto.randomUUID()}@example.com`;
    const unmailed = await startTestServer('sqlite', { DASHBOARD_DIR: dashboardDir, ADMIN_EMAILS: admin }, { mailer: undefined });
    const loggedLink = (to: string, path: string) =>
      unmailed.logs
        .map((line) => JSON.parse(line) as { msg: string; to?: string; link?: string })
        .filter((entry) => entry.msg === 'e-mail not sent (SMTP_URL unset)' && entry.to === to && entry.link?.includes(path))
        .at(-1)?.link;
    const fresh = await browser.newContext({ locale: 'en-US' });
    try {
      const tab = await fresh.newPage();
      const address = `nomail-${crypto.randomUUID()}@example.com`;
      await tab.goto(`${unmailed.baseUrl}/sign-up`);
      await tab.getByLabel('Name').fill('No Mail');
      await tab.getByLabel('Email').fill(address);
      await tab.getByLabel('Password').fill(password);
      await tab.getByRole('button', { name: 'Sign up' }).click();
      await tab.getByRole('heading', { name: 'API keys', level: 1 }).waitFor(WAIT);
      const welcome = (await tab.getByRole('status').first().textContent()) ?? '';
      expect(welcome).toContain(`the link to verify ${address} was written to the server's log`);
      expect(welcome).not.toContain('We sent');
      expect(unmailed.logs.some((line) => line.includes('e-mail not sent (SMTP_URL unset)') && line.includes('verify-email-token'))).toBe(true);

      await tab.getByRole('button', { name: 'Sign out' }).click();
      await tab.getByRole('link', { name: 'Forgot your password?' }).click();
      await tab.getByLabel('Email').fill(address);
      await tab.getByRole('button', { name: 'Send the reset link' }).click();
      await tab.getByText("the password reset link for").waitFor(WAIT);
      expect(await tab.getByRole('status').textContent()).toContain("was written to the server's log");

      // An admin address verified: its sign-up password ends, and the page says where the reset link went.
      await apiClient(unmailed.baseUrl).signUp(admin);
      await tab.goto(loggedLink(admin, '/v1/user/verify-email-token')!);
      await tab.getByRole('heading', { name: 'Sign in to Pluck' }).waitFor(WAIT);
      const notice = (await tab.getByRole('status').textContent()) ?? '';
      expect(notice).toContain('It is an administrator address');
      expect(notice).toContain("the link to set a new password was written to the server's log");
      expect(loggedLink(admin, '/reset-password')).toBeDefined();
    } finally {
      await fresh.close();
      await unmailed.close();
    }
  });

  it('with verification required, says where the link went and signs in once it was followed', async () => {
    const strict = await startTestServer('sqlite', { REQUIRE_EMAIL_VERIFICATION: 'true', DASHBOARD_DIR: dashboardDir });
    const fresh = await browser.newContext({ locale: 'en-US' });
    try {
      const tab = await fresh.newPage();
      const address = `verify-${crypto.randomUUID()}@example.com`;
      await tab.goto(`${strict.baseUrl}/sign-up`);
      await tab.getByLabel('Name').fill('Vera');
      await tab.getByLabel('Email').fill(address);
      await tab.getByLabel('Password').fill(password);
      await tab.getByRole('button', { name: 'Sign up' }).click();
      await tab.getByText(`We sent a verification link to ${address}`).waitFor(WAIT);
      await tab.getByRole('heading', { name: 'Sign in to Pluck' }).waitFor(WAIT);

      await tab.getByLabel('Password').fill(password);
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.getByRole('alert').waitFor(WAIT);
      expect(await tab.getByRole('alert').textContent()).toContain('EMAIL_NOT_VERIFIED');
      await tab.getByRole('button', { name: 'Send the verification link again' }).click();
      await tab.getByText(`A new verification link is on its way to ${address}`).waitFor(WAIT);
      expect(strict.outbox.filter((message) => message.to === address).length).toBe(2);

      await tab.goto(strict.outbox.at(-1)!.link!);
      await tab.getByText('Your e-mail address is verified').waitFor(WAIT);
      await tab.getByLabel('Email').fill(address);
      await tab.getByLabel('Password').fill(password);
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.getByRole('heading', { name: 'API keys', level: 1 }).waitFor(WAIT);
    } finally {
      await fresh.close();
      await strict.close();
    }
  });

  it('fits a phone-sized screen, notices an ended session, and broke no CSP rule', async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, locale: 'en-US' });
    try {
      const small = await phone.newPage();
      await small.goto(`${server.baseUrl}/sign-in`);
      await small.getByLabel('Email').fill(email);
      await small.getByLabel('Password').fill(password);
      await small.getByRole('button', { name: 'Sign in' }).click();
      await small.getByRole('heading', { name: 'API keys', level: 1 }).waitFor(WAIT);
      await small.getByLabel('Name').fill('phone key');
      await small.getByRole('button', { name: 'Create key' }).click();
      await small.getByRole('row', { name: /phone key/ }).waitFor(WAIT);
      const overflow = await small.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);

      // The session ends elsewhere: the next request's 401 brings the user back to sign-in.
      const token = await small.evaluate(() => sessionStorage.getItem('pluck.session'));
      expect((await api.post('/v1/auth/sign-out', {}, token!)).status).toBe(200);
      await small.getByRole('link', { name: 'Credits and plan' }).click();
      await small.getByText('Your session has ended').waitFor(WAIT);
      await small.getByRole('heading', { name: 'Sign in to Pluck' }).waitFor(WAIT);
    } finally {
      await phone.close();
    }
    expect(cspViolations).toEqual([]);
  });
});
