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

interface PageListeners {
  watchers: Set<Partial<PageEventHandlers>>;
  /** Rejects once the page crashed or closed. */
  gone: Promise<never>;
}

const listeners = new WeakMap<Page, PageListeners>();

function listenersOf(page: Page): PageListeners {
  let current = listeners.get(page);
  if (current) return current;
  const watchers = new Set<Partial<PageEventHandlers>>();
  for (const name of EVENT_NAMES) {
    page.on(name as 'request', (payload: Request) => {
      for (const watcher of watchers) (watcher[name] as ((value: unknown) => void) | undefined)?.(payload);
    });
  }
  const gone = new Promise<never>((_, reject) => {
    page.once('crash', () => reject(new Error('Target crashed')));
    page.once('close', () => reject(new Error('Target page, context or browser has been closed')));
  });
  gone.catch(() => undefined);
  current = { watchers, gone };
  listeners.set(page, current);
  return current;
}

/**
 * Calls `handlers` for `page`'s events until the returned function is called. The page has one
 * Playwright listener per event for its whole life, shared by every watcher: Playwright turns the
 * delivery of an event on and off with its first and last listener, one message each way, and a
 * warm page serves many requests (warm-pages.ts), each of which would otherwise pay for both.
 */
export function watchPage(page: Page, handlers: Partial<PageEventHandlers>): () => void {
  const { watchers } = listenersOf(page);
  watchers.add(handlers);
  return () => watchers.delete(handlers);
}

/**
 * `work`, or a rejection as soon as `page` crashes or closes: Chromium never answers a DevTools
 * command sent to a crashed page, so a call racing a crash would otherwise wait forever. A page
 * is followed from its first load (page-loader.ts watches every page before navigating it).
 */
export function unlessPageGone<T>(page: Page, work: Promise<T>): Promise<T> {
  return Promise.race([work, listenersOf(page).gone]);
}
