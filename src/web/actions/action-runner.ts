import { errors, type Page } from 'playwright-core';
import type { Logger } from 'pino';
import type { LoadedPage, PageDevice, PageWarning } from '../../browser/types.js';
import { AppError } from '../../errors/app-error.js';
import type { CaptureMade, OutputBounds } from '../outputs/reading.js';
import { truncatedAnswer } from '../outputs/reading.js';
import { renderPdf } from '../outputs/pdf.js';
import { readHtml } from '../outputs/raw-html.js';
import { captureScreenshot, deviceMismatch } from '../outputs/screenshot.js';
import {
  type Action,
  type ActionOf,
  actionListDeadlineMs,
  actionName,
  type ActionResults,
  ELEMENT_WAIT_MS,
  MAX_SCRIPT_RETURN_CHARS,
  SELECTOR_WAIT_MS,
} from './action-list.js';
import { keyName } from './key-names.js';
import { runPageScript } from './page-javascript.js';

/** What a list made on the page: captures still to be stored as files, and the rest as answered. */
export interface ActionsMade extends ActionResults<CaptureMade> {
  warnings: PageWarning[];
}

export interface ActionContext {
  loaded: LoadedPage;
  /** The device the request asked for: a screenshot action of a session's page of another device is refused, as the screenshot output is. */
  askedDevice: PageDevice;
  bounds: OutputBounds;
  log: Logger;
}

/** One action's failure, said to the caller: 422 ACTION_FAILED naming it (`action 2 (click): ...`). */
class ActionFailure extends Error {}

/**
 * Runs a caller's actions on the loaded page, one after the other, within the list's deadline
 * (action-list.ts). The first that fails ends the list: ACTION_FAILED naming it. A list still
 * running at its deadline (a script that never ends, a page that stops answering) gives up its
 * page, which is closed and never reused, and answers ACTION_TIMEOUT naming the action that was
 * running. Navigations an action starts go through the same context, so the same egress proxy,
 * as the page's own.
 */
export async function runActions(actions: readonly Action[], context: ActionContext): Promise<ActionsMade> {
  const { loaded } = context;
  const made: ActionsMade = { screenshots: [], scrapes: [], javascriptReturns: [], pdfs: [], warnings: [] };
  if (actions.some((action) => action.type === 'screenshot')) {
    const mismatch = deviceMismatch(context.askedDevice, loaded.device);
    if (mismatch) throw mismatch;
  }
  const deadlineMs = actionListDeadlineMs(actions);
  const deadline = performance.now() + deadlineMs;
  const scrapeBudget = { left: context.bounds.answerMaxChars };
  for (const [index, action] of actions.entries()) {
    const remaining = () => Math.max(1, deadline - performance.now());
    const step = runAction(action, { ...context, made, remaining, scrapeBudget });
    try {
      await withinDeadline(step, remaining());
    } catch (error) {
      if (error instanceof DeadlinePassed) {
        // The page may be stuck in the caller's script: nothing more is asked of it, and it is not kept.
        void loaded.page.close({ runBeforeUnload: false }).catch(() => undefined);
        context.log.info({ index, type: action.type, deadlineMs }, 'an action list ran past its deadline; its page was given up');
        throw new AppError('ACTION_TIMEOUT', `${actionName(index, action)} was still running when the list's time of ${deadlineMs} ms ran out; the page was given up`, {
          details: { action: { index, type: action.type } },
        });
      }
      if (loaded.crashed) throw error;
      const reason = error instanceof ActionFailure ? error.message : describe(error);
      throw new AppError('ACTION_FAILED', `${actionName(index, action)}: ${reason}`, { cause: error, details: { action: { index, type: action.type } } });
    }
  }
  return made;
}

interface StepContext extends ActionContext {
  made: ActionsMade;
  /** Milliseconds left before the list's deadline. */
  remaining(): number;
  scrapeBudget: { left: number };
}

async function runAction(action: Action, step: StepContext): Promise<void> {
  const { page } = step.loaded;
  switch (action.type) {
    case 'wait':
      if (action.milliseconds !== undefined) await page.waitForTimeout(action.milliseconds);
      else await waitForSelector(page, action.selector!, Math.min(SELECTOR_WAIT_MS, step.remaining()));
      return;
    case 'click':
      await click(page, action, Math.min(ELEMENT_WAIT_MS, step.remaining()));
      return afterInput(page, step);
    case 'write':
      await page.keyboard.type(action.text);
      return afterInput(page, step);
    case 'press':
      await page.keyboard.press(keyName(action.key));
      return afterInput(page, step);
    case 'scroll':
      return scroll(page, action, Math.min(ELEMENT_WAIT_MS, step.remaining()));
    case 'screenshot':
      step.made.screenshots.push(await screenshot(page, action, step));
      return;
    case 'scrape': {
      const { html, truncated } = await readHtml(page, step.scrapeBudget.left);
      step.scrapeBudget.left -= html.length;
      if (truncated && !step.made.warnings.some((warning) => warning.code === 'ANSWER_TRUNCATED')) {
        step.made.warnings.push(truncatedAnswer("The HTML of the list's scrapes, together,", step.bounds.answerMaxChars));
      }
      step.made.scrapes.push({ url: page.url(), html });
      return;
    }
    case 'executeJavascript': {
      const outcome = await runPageScript(page, action.script, MAX_SCRIPT_RETURN_CHARS, step.remaining());
      if (!outcome.ok) throw new ActionFailure(outcome.message);
      step.made.javascriptReturns.push({ type: outcome.type, value: outcome.value });
      return afterInput(page, step);
    }
    case 'pdf': {
      const options = { format: action.format, landscape: action.landscape, scale: action.scale, printBackground: true };
      const pdf = await renderPdf(page, options, step.bounds.pdfMaxPages);
      if (pdf.truncated) step.made.warnings.push({ code: 'ANSWER_TRUNCATED', message: `A PDF of the actions had more than ${step.bounds.pdfMaxPages} pages (PDF_MAX_PAGES); it has its first ${step.bounds.pdfMaxPages}` });
      step.made.pdfs.push({ bytes: pdf.bytes, contentType: 'application/pdf', extension: 'pdf', facts: { pages: pdf.pages } });
      return;
    }
  }
}

/** A click, a key or a script may start a navigation: its new document is parsed before the next action. */
async function afterInput(page: Page, step: StepContext): Promise<void> {
  await page.waitForLoadState('domcontentloaded', { timeout: step.remaining() }).catch(() => undefined);
}

async function waitForSelector(page: Page, selector: string, timeout: number): Promise<void> {
  try {
    await page.locator(selector).first().waitFor({ state: 'attached', timeout });
  } catch (error) {
    if (error instanceof errors.TimeoutError) throw new ActionFailure(`no element matched "${selector}" within ${Math.round(timeout)} ms`);
    throw selectorFailure(selector, error);
  }
}

async function click(page: Page, action: ActionOf<'click'>, timeout: number): Promise<void> {
  const matches = page.locator(action.selector);
  await waitForSelector(page, action.selector, timeout).catch((error: unknown) => {
    throw error instanceof ActionFailure && /no element matched/.test(error.message) ? new ActionFailure(`no element matches "${action.selector}"`) : error;
  });
  const count = action.all ? await matches.count() : 1;
  for (let index = 0; index < count; index += 1) {
    try {
      await matches.nth(index).click({ timeout });
    } catch (error) {
      if (error instanceof errors.TimeoutError) {
        throw new ActionFailure(`the element matching "${action.selector}" could not be clicked within ${Math.round(timeout)} ms (hidden, disabled, or covered by another)`);
      }
      throw error;
    }
  }
}

/** The page, or an element, by one screen (its visible height) up or down. */
async function scroll(page: Page, action: ActionOf<'scroll'>, timeout: number): Promise<void> {
  const sign = action.direction === 'up' ? -1 : 1;
  if (!action.selector) {
    await page.evaluate((direction) => window.scrollBy(0, direction * window.innerHeight), sign);
    return;
  }
  await waitForSelector(page, action.selector, timeout);
  await page
    .locator(action.selector)
    .first()
    .evaluate((element, direction) => element.scrollBy(0, direction * (element.clientHeight || window.innerHeight)), sign);
}

async function screenshot(page: Page, action: ActionOf<'screenshot'>, step: StepContext): Promise<CaptureMade> {
  const options = action.quality === undefined
    ? { fullPage: action.fullPage, type: 'png' as const, omitBackground: false }
    : { fullPage: action.fullPage, type: 'jpeg' as const, quality: action.quality, omitBackground: false };
  const before = page.viewportSize();
  if (action.viewport) await page.setViewportSize(action.viewport);
  try {
    const shot = await captureScreenshot(page, options, step.loaded.device, step.bounds.screenshot);
    if (shot.truncated) {
      step.made.warnings.push({ code: 'ANSWER_TRUNCATED', message: "A screenshot of the actions was larger than this service's screenshot bounds; it shows its top left part" });
    }
    const facts = { width: shot.width, height: shot.height, truncated: shot.truncated };
    return { bytes: shot.bytes, contentType: shot.contentType, extension: options.type === 'jpeg' ? 'jpg' : 'png', facts };
  } finally {
    if (action.viewport && before) await page.setViewportSize(before);
  }
}

class DeadlinePassed extends Error {}

async function withinDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const passed = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlinePassed()), ms);
  });
  work.catch(() => undefined); // settles after the deadline when the page is given up: nobody listens then
  try {
    return await Promise.race([work, passed]);
  } finally {
    clearTimeout(timer);
  }
}

function selectorFailure(selector: string, error: unknown): ActionFailure {
  const message = describe(error);
  if (/selector|parse|Unexpected token/i.test(message)) return new ActionFailure(`"${selector}" is not a valid selector`);
  return new ActionFailure(message);
}

/** Playwright's message, first line, without its method name: the call log and stack stay ours. */
function describe(error: unknown): string {
  const first = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
  // Not Playwright's wording: a failure carrying it would be taken for the page's own navigation (page-recovery.ts).
  if (/Execution context was destroyed/.test(first)) return 'the page navigated away while the action ran';
  return first.replace(/^[a-zA-Z]+\.[a-zA-Z]+: /, '').slice(0, 500);
}
