import type { BrowserContext, Page, Response } from 'playwright-core';
import { withPageSession } from '../extract/page-script.js';

/** Larger documents are not rendered a second time: the first rendering is all there is. */
const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;
const STYLESHEET_WAIT_MS = 3_000;

/**
 * Renders a document again, as the server sent it, with scripts off: what a reader with
 * JavaScript disabled sees. Forum software (Discourse) serves its posts in `<noscript>` for such
 * readers and builds the page with scripts; a page whose scripts fail to load, or remove the
 * document (anti-adblock walls), still holds its text here.
 *
 * The document's bytes are those the first rendering received, or, when they are gone (the
 * renderer crashed), the document fetched again. The new page is in the caller's context (its
 * cookies, headers, user agent and egress proxy); only stylesheets are fetched besides
 * (visibility depends on them, and they are usually in the context's cache by now); everything
 * else is refused, and a later navigation (meta refresh) gets an empty answer so the document
 * stays.
 */
export async function renderWithoutScripts(context: BrowserContext, document: Response, timeoutMs: number): Promise<Page | undefined> {
  const html = await document.body().catch(() => undefined);
  if (html && (html.byteLength === 0 || html.byteLength > MAX_DOCUMENT_BYTES)) return undefined;
  const url = document.url();
  const contentType = document.headers()['content-type'] ?? 'text/html';
  if (!/html|xml/i.test(contentType)) return undefined;
  const page = await context.newPage();
  try {
    // On the page's own session, which its extraction then uses: one attach, not two.
    await withPageSession(page, (devtools) => devtools.send('Emulation.setScriptExecutionDisabled', { value: true }));
    let served = false;
    await page.route('**/*', async (route) => {
      const request = route.request();
      const isTopDocument = request.isNavigationRequest() && request.frame() === page.mainFrame();
      if (isTopDocument && !served) {
        served = true;
        if (html) await route.fulfill({ status: 200, headers: { 'content-type': contentType }, body: html });
        else await route.continue();
      } else if (isTopDocument) {
        await route.fulfill({ status: 204 });
      } else if (request.resourceType() === 'stylesheet') {
        await route.continue();
      } else {
        await route.abort('blockedbyclient');
      }
    });
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: Math.max(1, timeoutMs) });
    // Stylesheets decide what is visible; one that does not come in time is done without.
    await page.waitForLoadState('load', { timeout: Math.max(1, Math.min(timeoutMs, STYLESHEET_WAIT_MS)) }).catch(() => undefined);
    return page;
  } catch {
    await page.close().catch(() => undefined);
    return undefined;
  }
}
