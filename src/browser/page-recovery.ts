import type { BrowserContext, Page, Response } from 'playwright-core';
import type { AddressPolicy } from '../net/address-policy.js';
import { AddressNotAllowed, NameNotLoadable } from '../net/errors.js';
import { renderWithoutScripts } from './static-render.js';
import { type LoadedPage, PageCrashed, type PageWarning, TargetUnreachable } from './types.js';

/**
 * When the page a request loaded cannot be read as it is, and what stands in for it: the same
 * document as served, rendered again with scripts off. That is what a reader with JavaScript
 * disabled sees, and it is all there is left when the page's renderer crashed (a DOM nested
 * thousands deep), or when a script sent the page on to an address that failed.
 */

/** A second rendering without scripts gets at least this long, even when the navigation used up its time. */
export const STATIC_RENDER_MIN_MS = 5_000;

export interface StandInRequest {
  context: BrowserContext;
  /** The last document the target sent (not an answer of the egress proxy). */
  document: Response | undefined;
  requestedUrl: string;
  /** The URL of the last main-frame navigation, the one that failed. */
  failedUrl: string | undefined;
  deadline: number;
  warnings: PageWarning[];
  guard: { policy: AddressPolicy };
}

/**
 * The page to answer from when the loaded one `crashed`, or its later `navigation failed`
 * (Chromium's error page, or the egress proxy's answer for a dead host). A destination refused
 * for its address itself (an IP literal, a local name) is refused, as a redirect there would
 * be; a name that does not resolve to a loadable address fails like a dead host, whatever it
 * resolves to, since the two must not be told apart.
 */
export async function standInFor(failure: 'crashed' | 'navigation failed', request: StandInRequest): Promise<Page> {
  const { requestedUrl, document } = request;
  const failedUrl = request.failedUrl ?? requestedUrl;
  if (failure === 'navigation failed') {
    await request.guard.policy.check(failedUrl).catch((refusal: unknown) => {
      if (refusal instanceof AddressNotAllowed && !(refusal instanceof NameNotLoadable)) {
        throw new AddressNotAllowed(`${requestedUrl} led to ${failedUrl}: ${refusal.message}`, failedUrl);
      }
    });
  }
  const timeoutMs = Math.max(STATIC_RENDER_MIN_MS, request.deadline - performance.now());
  const standIn = document && (await renderWithoutScripts(request.context, document, timeoutMs));
  if (!standIn && failure === 'crashed') throw new PageCrashed(`${requestedUrl} crashed the browser tab that rendered it`);
  if (!standIn) throw new TargetUnreachable(`${requestedUrl} led to ${failedUrl}, which could not be loaded`);
  request.warnings.push(failure === 'crashed' ? CRASH_WARNING : {
    code: 'RENDERED_WITHOUT_SCRIPTS',
    message: `The page went on to ${failedUrl}, which could not be loaded; this is the page's document as served, read with scripts off`,
  });
  return standIn;
}

const CRASH_WARNING: PageWarning = {
  code: 'RENDERED_WITHOUT_SCRIPTS',
  message: "The page crashed the browser tab (too deep a DOM, or too much memory); this is its document as served, read with scripts off",
};

/** Playwright's only sign that an evaluation lost its document to a navigation is this message. */
function isDocumentReplaced(error: unknown): boolean {
  return error instanceof Error && /Execution context was destroyed/.test(error.message);
}

const NAVIGATION_RETRY_WAIT_MS = 10_000;

/**
 * Runs `work` on the loaded page, and once more when the page gave way under it: on the new
 * document, once parsed, when a script or meta refresh navigated after the page settled; on the
 * document rendered without scripts when the renderer crashed while `work` read it.
 */
export async function workSurvivingThePage<T>(loaded: LoadedPage, work: (loaded: LoadedPage) => Promise<T>): Promise<T> {
  try {
    return await work(loaded);
  } catch (error) {
    if (loaded.crashed) {
      const standIn = await loaded.withoutScripts();
      if (!standIn) throw new PageCrashed(`${loaded.finalUrl} crashed the browser tab that rendered it`, { cause: error });
      return work({ ...loaded, page: standIn, warnings: [...loaded.warnings, CRASH_WARNING], crashed: false });
    }
    if (!isDocumentReplaced(error)) throw error;
    await loaded.page.waitForLoadState('domcontentloaded', { timeout: NAVIGATION_RETRY_WAIT_MS }).catch(() => undefined);
    return work({ ...loaded, finalUrl: loaded.page.url() });
  }
}
