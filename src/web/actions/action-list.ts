import { z } from '@hono/zod-openapi';
import type { WebOperation } from '../../config.js';
import { pdfOptionFields } from '../output-options.js';

/**
 * A caller's actions on a page (Firecrawl's `actions`, the same list on every surface): what
 * each may ask, and the bounds a list is refused beyond before any page is loaded. They run
 * once the page has loaded and settled, before any output is read (action-runner.ts).
 */

/** Actions in one list (Firecrawl's own bound). */
export const MAX_ACTIONS = 50;
/** The `milliseconds` of a list's waits together, and of one wait (Firecrawl's bound: waits and waitFor within 60 s). */
export const MAX_ACTION_WAIT_MS = 60_000;
/** Captures and scrapes one list may take. */
export const MAX_ACTION_SCREENSHOTS = 10;
export const MAX_ACTION_PDFS = 5;
export const MAX_ACTION_SCRAPES = 10;
/** A script's return value, as JSON: longer is refused (ACTION_FAILED) rather than cut into invalid JSON. */
export const MAX_SCRIPT_RETURN_CHARS = 100_000;
export const MAX_SCRIPT_CHARS = 100_000;
/** Text one write action types, key by key. */
export const MAX_WRITE_CHARS = 2_000;
/** How long a wait for a selector waits for it to match, and a click or scroll for its element. */
export const SELECTOR_WAIT_MS = 10_000;
export const ELEMENT_WAIT_MS = 5_000;
/**
 * The time each action may take besides its declared wait, counted into the list's deadline: a
 * capture renders the page; a step that looks for an element, its wait for it and then some;
 * anything else is one or a few round trips. The sum is capped.
 */
const STEP_ALLOWANCE_MS = 5_000;
const CAPTURE_ALLOWANCE_MS = 15_000;
const MAX_STEP_ALLOWANCE_MS = 60_000;

function allowanceMs(action: Action): number {
  if (action.type === 'wait') return action.selector === undefined ? 0 : SELECTOR_WAIT_MS + STEP_ALLOWANCE_MS;
  if (action.type === 'click' || (action.type === 'scroll' && action.selector !== undefined)) return ELEMENT_WAIT_MS + STEP_ALLOWANCE_MS;
  if (action.type === 'screenshot' || action.type === 'pdf') return CAPTURE_ALLOWANCE_MS;
  return STEP_ALLOWANCE_MS;
}

const selector = z.string().min(1).max(1000);

const waitAction = z
  .strictObject({
    type: z.literal('wait'),
    milliseconds: z.number().int().min(1).max(MAX_ACTION_WAIT_MS).optional().openapi({ description: 'Wait this long' }),
    selector: selector.optional().openapi({ description: `Or wait until an element matches (at most ${SELECTOR_WAIT_MS / 1000} s)` }),
  })
  .refine((wait) => (wait.milliseconds === undefined) !== (wait.selector === undefined), 'A wait takes either milliseconds or selector, not both');

const clickAction = z.strictObject({
  type: z.literal('click'),
  selector,
  all: z.boolean().default(false).openapi({ description: 'Click every element that matches, in document order' }),
});

const writeAction = z.strictObject({
  type: z.literal('write'),
  text: z.string().max(MAX_WRITE_CHARS).openapi({ description: 'Typed, key by key, into the element that has the focus (click it first)' }),
});

const pressAction = z.strictObject({
  type: z.literal('press'),
  key: z
    .string()
    .min(1)
    .max(100)
    .openapi({ description: 'A key (Enter, Tab, Escape, ArrowDown, a, ...) or a chord (Control+A); names in any case' }),
});

const scrollAction = z.strictObject({
  type: z.literal('scroll'),
  direction: z.enum(['up', 'down']).default('down'),
  selector: selector.optional().openapi({ description: 'Scroll this element rather than the page' }),
});

const screenshotAction = z.strictObject({
  type: z.literal('screenshot'),
  fullPage: z.boolean().default(false),
  quality: z.number().int().min(1).max(100).optional().openapi({ description: 'A JPEG of this quality (a PNG without)' }),
  viewport: z
    .strictObject({ width: z.number().int().min(100).max(3840), height: z.number().int().min(100).max(3840) })
    .optional()
    .openapi({ description: 'The viewport (CSS pixels) for this capture; the page gets its own back afterwards' }),
});

const scrapeAction = z.strictObject({ type: z.literal('scrape') });

const scriptAction = z.strictObject({
  type: z.literal('executeJavascript'),
  script: z
    .string()
    .min(1)
    .max(MAX_SCRIPT_CHARS)
    .openapi({ description: 'Run in the page as the page\'s own scripts run: an expression (`document.title`) or a function body (`return ...`); `await` works' }),
});

const pdfAction = z.strictObject({
  type: z.literal('pdf'),
  format: pdfOptionFields.format.unwrap().default('Letter'),
  landscape: z.boolean().default(false),
  scale: pdfOptionFields.scale,
});

export const actionSchema = z.discriminatedUnion('type', [
  waitAction,
  clickAction,
  writeAction,
  pressAction,
  scrollAction,
  screenshotAction,
  scrapeAction,
  scriptAction,
  pdfAction,
]).openapi('PageAction');

export type Action = z.infer<typeof actionSchema>;
export type ActionOf<T extends Action['type']> = Extract<Action, { type: T }>;

/** The caller's list, with its bounds: refused whole (422, naming what is over) before any page is loaded. */
export const actionListSchema = z
  .array(actionSchema)
  .max(MAX_ACTIONS)
  .superRefine((actions, refinement) => {
    const waited = declaredWaitMs(actions);
    if (waited > MAX_ACTION_WAIT_MS) {
      refinement.addIssue({ code: 'custom', message: `The waits of a list add up to ${waited} ms, over this server's bound of ${MAX_ACTION_WAIT_MS} ms` });
    }
    const bounds: Array<[Action['type'], number]> = [
      ['screenshot', MAX_ACTION_SCREENSHOTS],
      ['pdf', MAX_ACTION_PDFS],
      ['scrape', MAX_ACTION_SCRAPES],
    ];
    for (const [type, max] of bounds) {
      const count = actions.filter((action) => action.type === type).length;
      if (count > max) refinement.addIssue({ code: 'custom', message: `${count} ${type} actions in one list, over this server's bound of ${max}` });
    }
  })
  .openapi({
    description: `Actions on the page once it has loaded, in order, before the outputs are read: wait {milliseconds | selector}, click {selector, all?}, write {text}, press {key}, scroll {direction?, selector?}, screenshot {fullPage?, quality?, viewport?}, scrape, executeJavascript {script}, pdf {format?, landscape?, scale?}. At most ${MAX_ACTIONS}, waits ${MAX_ACTION_WAIT_MS / 1000} s in all, ${MAX_ACTION_SCREENSHOTS} screenshots, ${MAX_ACTION_PDFS} PDFs, ${MAX_ACTION_SCRAPES} scrapes; see docs/page-operations.md`,
  });

/** The time a list says it waits (its waits' milliseconds). */
export function declaredWaitMs(actions: readonly Action[]): number {
  return actions.reduce((sum, action) => sum + (action.type === 'wait' ? (action.milliseconds ?? 0) : 0), 0);
}

/**
 * How long a list may hold its page: its declared waits, and an allowance for each other step
 * (capped). Past it the page is given up and the answer is ACTION_TIMEOUT naming the action
 * that was running: a script that never ends holds nothing longer than this.
 */
export function actionListDeadlineMs(actions: readonly Action[]): number {
  const allowance = actions.reduce((sum, action) => sum + allowanceMs(action), 0);
  return declaredWaitMs(actions) + Math.min(allowance, MAX_STEP_ALLOWANCE_MS);
}

/**
 * What a list adds to a request's price: each screenshot and PDF it takes at the price of the
 * screenshot and PDF outputs (they are paid on top of the page load). The rest shares the load.
 */
export function actionsCost(actions: readonly Action[] | undefined, costs: Record<WebOperation, number>): number {
  if (!actions) return 0;
  return actions.reduce((sum, action) => sum + (action.type === 'screenshot' ? costs.screenshot : action.type === 'pdf' ? costs.pdf : 0), 0);
}

/** What a list's actions made, as answered: Firecrawl's `actions` object, captures as stored files. */
export interface ActionResults<Capture> {
  screenshots: Capture[];
  scrapes: Array<{ url: string; html: string }>;
  javascriptReturns: Array<{ type: string; value: unknown }>;
  pdfs: Capture[];
}

/** An action as errors name it: `action 2 (click)`, counted from 0 like the list's indexes. */
export function actionName(index: number, action: Pick<Action, 'type'>): string {
  return `action ${index} (${action.type})`;
}
