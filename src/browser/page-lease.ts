import type { BrowserContext, Page } from 'playwright-core';
import type { PageDevice } from './types.js';

/** A page handed out for one request, with the context it lives in. */
export interface PageLease {
  context: BrowserContext;
  page: Page;
  /** The device the context was created with (a session's: the device of the request that opened it). */
  device: PageDevice;
  /** The context outlives this request (a named session's): closing the lease closes only its page. */
  shared?: boolean;
}

/** Closes what the lease owns: its context, or only its page when the context is shared. */
export async function closeLease(lease: PageLease): Promise<void> {
  await (lease.shared ? lease.page : lease.context).close().catch(() => undefined);
}
