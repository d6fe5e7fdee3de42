import type { CDPSession, Page } from 'playwright-core';
import { withPageSession } from '../../extract/page-script.js';

/** What a caller's script came to: its value as JSON (Firecrawl's `{type, value}`), or why not. */
export type ScriptOutcome = { ok: true; type: string; value: unknown } | { ok: false; message: string };

/** An error's description longer than this is not sent on: the error is named by its length. */
const MAX_ERROR_CHARS = 2_000;
const OBJECT_GROUP = 'pluck-action';
/** What Chromium answers for a call whose document was replaced under it. */
const NAVIGATED_AWAY = /Cannot find context with specified id|Could not find object with given id|context was destroyed|Inspected target navigated/i;

/**
 * Runs a caller's script in the page's main world, as the page's own scripts run: the page's
 * globals, its isolation (origin, CSP for what it loads, the egress proxy for every request),
 * and nothing of ours: the script is data, compiled in the page as the body of an async
 * function (first as an expression, so `document.title` answers as `return document.title`
 * does), so it cannot step out of that function into the code around it.
 *
 * What crosses to Node is bounded whatever the page did to its own world: the wrapper answers an
 * object of its own making (`t`: typeof the value, `j`: its JSON, `e`: an error's description),
 * which stays in the page; its strings' lengths are read first (a primitive's length cannot be
 * redefined), and a string is only sent on when it is within its bound.
 */
export async function runPageScript(page: Page, script: string, maxReturnChars: number, timeoutMs: number): Promise<ScriptOutcome> {
  return withPageSession(page, async (session) => {
    try {
      const { result, exceptionDetails } = await session.send('Runtime.evaluate', {
        expression: wrapperSource(script),
        awaitPromise: true,
        returnByValue: false,
        objectGroup: OBJECT_GROUP,
        // Ends a script still running synchronously then; one that waits forever is the runner's deadline's.
        timeout: Math.max(1, Math.round(timeoutMs)),
      });
      if (exceptionDetails || !result.objectId) {
        return { ok: false, message: exceptionDetails?.text === 'Uncaught' ? 'the script was stopped' : 'the script did not run to its end' };
      }
      return await readOutcome(session, result.objectId, maxReturnChars);
    } catch (error) {
      // The script sent the page elsewhere (location.href = ...): its document, and its value with it, are gone.
      if (NAVIGATED_AWAY.test(error instanceof Error ? error.message : '')) return { ok: true, type: 'undefined', value: null };
      throw error;
    } finally {
      await session.send('Runtime.releaseObjectGroup', { objectGroup: OBJECT_GROUP }).catch(() => undefined);
    }
  });
}

/** The fixed wrapper around the script, which travels in it as a JSON string literal. */
function wrapperSource(script: string): string {
  const expression = script.trim().replace(/;+\s*$/, '');
  return `(async () => {
  const out = { t: undefined, j: undefined, e: undefined };
  try {
    const AsyncFunction = (async () => {}).constructor;
    let run;
    try { run = new AsyncFunction('return (\\n' + ${JSON.stringify(expression)} + '\\n);'); }
    catch { run = new AsyncFunction(${JSON.stringify(script)}); }
    const value = await run();
    const type = typeof value;
    const json = value === undefined || type === 'function' || type === 'symbol' ? 'null' : type === 'bigint' ? JSON.stringify(String(value)) : JSON.stringify(value);
    out.t = type;
    out.j = typeof json === 'string' ? json : 'null';
  } catch (error) {
    try { out.e = error instanceof Error ? String(error.name) + ': ' + String(error.message) : 'it threw ' + String(error); }
    catch { out.e = 'it threw something that cannot be described'; }
  }
  return out;
})()`;
}

async function readOutcome(session: CDPSession, objectId: string, maxReturnChars: number): Promise<ScriptOutcome> {
  const lengths = (await call(session, objectId, 'function () { const size = (s) => (typeof s === "string" ? s.length : -1); return [size(this.t), size(this.j), size(this.e)]; }')) as number[];
  const [typeLength, jsonLength, errorLength] = lengths as [number, number, number];
  if (errorLength >= 0) {
    if (errorLength > MAX_ERROR_CHARS) return { ok: false, message: `the script threw an error whose description is ${errorLength} characters long` };
    return { ok: false, message: `the script threw ${(await call(session, objectId, 'function () { return this.e; }')) as string}` };
  }
  if (typeLength < 0 || typeLength > 20 || jsonLength < 0) return { ok: false, message: 'the script gave no value that could be read' };
  if (jsonLength > maxReturnChars) {
    return { ok: false, message: `the script returned ${jsonLength} characters of JSON, over this server's bound of ${maxReturnChars}` };
  }
  const [type, json] = (await call(session, objectId, 'function () { return [this.t, this.j]; }')) as [string, string];
  try {
    return { ok: true, type, value: JSON.parse(json) };
  } catch {
    return { ok: false, message: "the script's value could not be read as JSON (the page replaced JSON.stringify?)" };
  }
}

async function call(session: CDPSession, objectId: string, functionDeclaration: string): Promise<unknown> {
  const { result, exceptionDetails } = await session.send('Runtime.callFunctionOn', { objectId, functionDeclaration, returnByValue: true });
  if (exceptionDetails) throw new Error(`reading the script's value failed: ${exceptionDetails.text}`);
  return result.value;
}
