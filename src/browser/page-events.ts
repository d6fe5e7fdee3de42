import type { Page, Request, Response } from 'playwright-core';

/** The page events a request's watchers (page-settle.ts, page-loader.ts) follow. */
export interface PageEventHandlers {
  request(request: Request): void;
  response(response: Response): void;
  requestfinished(request: Request): void;
  requestfailed(request: Request): void;
  load(): void;
  crash(): void;
}

type EventName = keyof PageEventHandlers;
const EVENT_NAMES: readonly EventName[] = ['request', 'response', 'requestfinished', 'requestfailed', 'load', 'crash'];

const watchers = new WeakMap<Page, Set<Partial<PageEventHandlers>>>();

/**
 * Calls `handlers` for `page`'s events until the returned function is called. The page has one
 * Playwright listener per event for its whole life, shared by every watcher: Playwright turns the
 * delivery of an event on and off with its first and last listener, one message each way, and a
 * warm page serves many requests (warm-pages.ts), each of which would otherwise pay for both.
 */
export function watchPage(page: Page, handlers: Partial<PageEventHandlers>): () => void {
  let current = watchers.get(page);
  if (!current) {
    const set = new Set<Partial<PageEventHandlers>>();
    for (const name of EVENT_NAMES) {
      page.on(name as 'request', (payload: Request) => {
        for (const watcher of set) (watcher[name] as ((value: unknown) => void) | undefined)?.(payload);
      });
    }
    watchers.set(page, set);
    current = set;
  }
  const set = current;
  set.add(handlers);
  return () => set.delete(handlers);
}
