import type { BrowserContext, Page, Response, Route } from 'playwright-core';
import { withPageSession } from '../extract/page-script.js';
import type { ServedDocument } from './types.js';

/** Larger documents are not rendered a second time: the first rendering is all there is. */
export const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;
const STYLESHEET_WAIT_MS = 3_000;

/**
 * Renders a document again, as the server sent it, with scripts off: what a reader with
 * JavaScript disabled sees. Forum software (Discourse) serves its posts in `<noscript>` for such
 * readers and builds the page with scripts; a page whose scripts fail to load, or remove the
 * document (anti-adblock walls), still holds its text here.
 *
 * The document's bytes are those the first rendering received, or, when they are gone (the
 * renderer crashed), the document fetched again. The new page is in the caller's context.
 */
export async function renderWithoutScripts(context: BrowserContext, document: Response, timeoutMs: number): Promise<Page | undefined> {
  const html = await document.body().catch(() => undefined);
  if (html && (html.byteLength === 0 || html.byteLength > MAX_DOCUMENT_BYTES)) return undefined;
  const contentType = document.headers()['content-type'] ?? 'text/html';
  if (!/html|xml/i.test(contentType)) return undefined;
  const page = await context.newPage();
  try {
    await showWithoutScripts(page, { url: document.url(), contentType, body: html }, timeoutMs);
    return page;
  } catch {
    await page.close().catch(() => undefined);
    return undefined;
  }
}

/**
 * Shows `served` on `page` with scripts off, as a reader with JavaScript disabled sees it: the
 * static engine's page (src/web/engines), and the stand-in above. Only stylesheets are fetched
 * besides, through the page's context and its egress proxy (visibility depends on them); every
 * other request is refused, and a later navigation (meta refresh) gets an empty answer so the
 * document stays. Resolves once the document is parsed and its stylesheets are in (or
 * `STYLESHEET_WAIT_MS` passed: one that does not come in time is done without).
 *
 * @returns what turns the page back into an ordinary one (scripts on, requests not intercepted),
 *   for a page that is used again.
 */
export async function showWithoutScripts(page: Page, served: Omit<ServedDocument, 'status' | 'body'> & { body?: Uint8Array }, timeoutMs: number): Promise<() => Promise<void>> {
  // On the page's own session, which its extraction then uses: one attach, not two.
  await withPageSession(page, (devtools) => devtools.send('Emulation.setScriptExecutionDisabled', { value: true }));
  let shown = false;
  const serve = async (route: Route) => {
    const request = route.request();
    const isTopDocument = request.isNavigationRequest() && request.frame() === page.mainFrame();
    if (isTopDocument && !shown) {
      shown = true;
      if (served.body) await route.fulfill({ status: 200, headers: { 'content-type': served.contentType }, body: Buffer.from(served.body) });
      else await route.continue();
    } else if (isTopDocument) {
      await route.fulfill({ status: 204 });
    } else if (request.resourceType() === 'stylesheet') {
      await route.continue();
    } else {
      await route.abort('blockedbyclient');
    }
  };
  const undo = async () => {
    await page.unroute('**/*', serve).catch(() => undefined);
    await withPageSession(page, (devtools) => devtools.send('Emulation.setScriptExecutionDisabled', { value: false }));
  };
  await page.route('**/*', serve);
  try {
    await page.goto(served.url, { waitUntil: 'domcontentloaded', timeout: Math.max(1, timeoutMs) });
  } catch (error) {
    await undo().catch(() => undefined);
    throw error;
  }
  await page.waitForLoadState('load', { timeout: Math.max(1, Math.min(timeoutMs, STYLESHEET_WAIT_MS)) }).catch(() => undefined);
  return undo;
}
