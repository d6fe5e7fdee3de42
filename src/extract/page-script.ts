import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { CDPSession, Page } from 'playwright-core';
import { unlessPageGone } from '../browser/page-events.js';

/**
 * Code that runs inside the page (where the live DOM, its geometry and computed styles are) is
 * written as ordinary TypeScript modules and bundled once per process with esbuild into the
 * source of one function expression. Each call evaluates `(function)(argument)` in the page, so
 * nothing is left behind on the page's `window`.
 */
const bundles = new Map<string, Promise<string>>();

/** The source file next to `importMetaUrl` called `relativePath` (.ts under tsx/vitest, .js when compiled). */
export function siblingModule(importMetaUrl: string, relativePath: string): string {
  const extension = extname(fileURLToPath(importMetaUrl));
  return fileURLToPath(new URL(`${relativePath}${extension}`, importMetaUrl));
}

/**
 * Bundles `entryFile`, whose named export `exportName` is a function of one JSON argument, into
 * the source of a function expression. Cached: later calls cost nothing.
 */
export function bundlePageFunction(entryFile: string, exportName: string): Promise<string> {
  const key = `${entryFile}#${exportName}`;
  let bundle = bundles.get(key);
  if (!bundle) {
    bundle = buildPageFunction(entryFile, exportName);
    bundles.set(key, bundle);
    bundle.catch(() => bundles.delete(key));
  }
  return bundle;
}

async function buildPageFunction(entryFile: string, exportName: string): Promise<string> {
  const result = await build({
    entryPoints: [entryFile],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: '__pluckModule',
    platform: 'browser',
    target: 'chrome110',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text;
  if (!code) throw new Error(`esbuild produced no output for ${entryFile}`);
  return `(function (argument) {\n${code}\nreturn __pluckModule[${JSON.stringify(exportName)}](argument);\n})`;
}

/** Runs a bundled page function on `page` with a JSON-serialisable argument, in a world of our own. */
export async function runPageFunction<T>(page: Page, functionSource: string, argument: unknown): Promise<T> {
  return callIsolated<T>(page, functionSource, argument);
}

/**
 * Runs a self-contained function on `page`, in a world of our own. Under tsx (npm run dev, the
 * bench scripts) esbuild keeps names by wrapping named inner functions in a `__name` helper that
 * exists only in Node; the page gets a stand-in that does nothing.
 */
export function evaluateFunction<A, T>(page: Page, fn: (argument: A) => T, argument: A): Promise<Awaited<T>> {
  return callIsolated(page, `(argument) => ((__name) => (${fn.toString()})(argument))((f) => f)`, argument);
}

/** Runs `work` with a DevTools session of its own on `page`, detached afterwards whatever happens. */
export async function withDevtools<T>(page: Page, work: (session: CDPSession) => Promise<T>): Promise<T> {
  const session = await page.context().newCDPSession(page);
  try {
    return await work(session);
  } finally {
    await session.detach().catch(() => undefined);
  }
}

const sessions = new WeakMap<Page, Promise<{ session: CDPSession; frameId: string }>>();

/** Our world on the page's document at `url`, by its global object's remote id. */
interface KnownWorld {
  url: string;
  global: Promise<string>;
}

const worlds = new WeakMap<Page, KnownWorld>();

/** What Chromium answers for a remote object whose document (and world with it) is gone, before running anything. */
const STALE_WORLD = /Cannot find context with specified id|Could not find object with given id/;

/**
 * Calls `functionSource` with `argument` in an isolated world of the page's main frame: the same
 * DOM, but none of the page's JavaScript. A page's scripts can replace any method of its own
 * world (`String.prototype.slice`, `outerHTML`, `querySelectorAll`), which would let a page break
 * our code or step around the size bounds it enforces before anything crosses to Node; here they
 * cannot. Chromium keeps one world of a name per document, so the calls on a document share it:
 * the first asks for it (`Page.createIsolatedWorld`), the later ones call on its global object,
 * one round trip fewer. A remote object id names its renderer process and context, so a later
 * document (in this renderer or another) can never be reached through it: the call fails before
 * running, and a new world is asked for. The argument travels apart from the source, so a
 * renderer that ran the same function before (a warm page, warm-pages.ts) finds it compiled in
 * V8's cache: the markdown extractor is 55 KB, about 5 ms to parse and compile again. A document
 * replaced under the call fails with Playwright's own wording ("Execution context was
 * destroyed"), which callers treat as a navigation.
 */
async function callIsolated<T>(page: Page, functionSource: string, argument: unknown): Promise<T> {
  try {
    const { session, frameId } = await pageSession(page);
    const known = worlds.get(page);
    const objectId = known?.url === page.url() ? await known.global.catch(() => undefined) : undefined;
    if (objectId) {
      try {
        return await callIn<T>(page, session, { objectId }, functionSource, argument);
      } catch (error) {
        if (!STALE_WORLD.test(error instanceof Error ? error.message : '')) throw error;
      }
    }
    const { executionContextId } = await unlessPageGone(page, session.send('Page.createIsolatedWorld', { frameId, worldName: 'pluck', grantUniveralAccess: false }));
    rememberWorld(page, session, executionContextId);
    return await callIn<T>(page, session, { executionContextId }, functionSource, argument);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/context was destroyed|Cannot find context|No frame for given id|Frame with the given id was not found/i.test(message)) {
      throw new Error(`Execution context was destroyed (${message})`, { cause: error });
    }
    throw error;
  }
}

/** Asks for the world's global object, sent ahead of the call it comes with (not waited for). */
function rememberWorld(page: Page, session: CDPSession, executionContextId: number): void {
  const global = session
    .send('Runtime.callFunctionOn', { functionDeclaration: '() => globalThis', executionContextId, returnByValue: false })
    .then(({ result }) => {
      if (!result.objectId) throw new Error('The world gave no global object');
      return result.objectId;
    });
  const world = { url: page.url(), global };
  worlds.set(page, world);
  global.catch(() => {
    if (worlds.get(page) === world) worlds.delete(page);
  });
}

async function callIn<T>(page: Page, session: CDPSession, target: { objectId: string } | { executionContextId: number }, functionSource: string, argument: unknown): Promise<T> {
  const { result, exceptionDetails } = await unlessPageGone(
    page,
    session.send('Runtime.callFunctionOn', { functionDeclaration: functionSource, ...target, arguments: [{ value: argument }], returnByValue: true, awaitPromise: true }),
  );
  if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
  return result.value as T;
}

/**
 * Runs `work` on the page's own DevTools session, the one its evaluations use: no session
 * attached and detached around it (three more commands, about 1 ms of Chromium's CPU and 1-2 ms
 * of ours).
 */
export async function withPageSession<T>(page: Page, work: (session: CDPSession) => Promise<T>): Promise<T> {
  const { session } = await pageSession(page);
  return unlessPageGone(page, work(session));
}

/**
 * Attaches the page's DevTools session now, while the page is set up and navigates, instead of in
 * its first in-page call after loading: the attach and the frame lookup were 2.6 ms (median over
 * wcxb-dev's pages, paired) of every extraction on a new page. A failure is left to that first
 * call to meet.
 */
export function attachDevtoolsAhead(page: Page): void {
  pageSession(page).catch(() => undefined);
}

function pageSession(page: Page): Promise<{ session: CDPSession; frameId: string }> {
  let opened = sessions.get(page);
  if (!opened) {
    opened = openSession(page);
    sessions.set(page, opened);
    opened.catch(() => sessions.delete(page));
  }
  return opened;
}

async function openSession(page: Page): Promise<{ session: CDPSession; frameId: string }> {
  const session = await unlessPageGone(page, page.context().newCDPSession(page));
  const { frameTree } = await unlessPageGone(page, session.send('Page.getFrameTree'));
  return { session, frameId: frameTree.frame.id };
}
