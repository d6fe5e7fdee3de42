import type { BrowserContextOptions, Page } from 'playwright-core';
import { withDevtools } from '../extract/page-script.js';
import { type BrowserProxySettings, EGRESS_PROBE_URL } from '../net/egress-proxy.js';
import { BrowserCrashed } from './types.js';

const LOGIN_TIMEOUT_MS = 10_000;

/**
 * The proxy setting a context is created with: the address only. Given the credentials too,
 * Playwright pauses every request of every page over CDP to answer a possible 407 (and turns
 * the context's HTTP cache off while it does): measured here, 8-10 ms more per request for a
 * one-request page, and a round trip through Node for each subresource of a real one.
 */
export function contextProxy(proxy: BrowserProxySettings): NonNullable<BrowserContextOptions['proxy']> {
  return { server: proxy.server, bypass: proxy.bypass };
}

/**
 * Logs a new context in to the egress proxy, once, through its first page before that page
 * loads anything: the page fetches the probe URL, the proxy asks for credentials, and they are
 * given through CDP for that one URL. Chromium keeps them in the context's auth cache and sends
 * them unasked with every later request and tunnel of the context, its popups included.
 *
 * The fetch runs from the page's initial blank document, whose opaque origin cannot read the
 * answer; what proves the login is the proxy's 200 seen by the interception (only the proxy
 * answers that name, and only to callers with its credentials).
 */
export async function logInToProxy(page: Page, proxy: BrowserProxySettings): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await withDevtools(page, async (devtools) => {
      let status: number | undefined;
      devtools.on('Fetch.authRequired', (event) => {
        const answer =
          event.authChallenge.source === 'Proxy'
            ? { response: 'ProvideCredentials' as const, username: proxy.username, password: proxy.password }
            : { response: 'CancelAuth' as const };
        devtools.send('Fetch.continueWithAuth', { requestId: event.requestId, authChallengeResponse: answer }).catch(() => undefined);
      });
      // Asked to authenticate in the request stage, seen answered in the response stage.
      devtools.on('Fetch.requestPaused', (event) => {
        status ??= event.responseStatusCode;
        devtools.send('Fetch.continueRequest', { requestId: event.requestId }).catch(() => undefined);
      });
      await devtools.send('Fetch.enable', { handleAuthRequests: true, patterns: [{ urlPattern: EGRESS_PROBE_URL }, { urlPattern: EGRESS_PROBE_URL, requestStage: 'Response' }] });
      // Runtime.evaluate runs even where the context has page scripts turned off.
      const probe = devtools.send('Runtime.evaluate', {
        expression: `fetch(${JSON.stringify(EGRESS_PROBE_URL)}, { mode: 'no-cors', cache: 'no-store', credentials: 'omit' }).then(() => true)`,
        awaitPromise: true,
      });
      await Promise.race([probe, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timed out')), LOGIN_TIMEOUT_MS)))]);
      if (status !== 200) throw new Error(`probe status ${status ?? 'none'}`);
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new BrowserCrashed(`A new browser context could not log in to the egress proxy (${reason}); retrying is safe`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}
