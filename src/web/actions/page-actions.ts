import type { LoadedPage } from '../../browser/types.js';
import { PageCrashed } from '../../browser/types.js';
import { validationError } from '../../errors/validation-error.js';
import type { AddressPolicy } from '../../net/address-policy.js';
import type { StoredCapture } from '../outputs.js';
import type { CaptureMade, ScreenshotLimits } from '../outputs/reading.js';
import { requestedAreaProblem } from '../outputs/screenshot.js';
import type { Action, ActionResults } from './action-list.js';
import { type ActionContext, type ActionsMade, runActions } from './action-runner.js';

/**
 * The page pipeline's side of a caller's actions: what is refused before any page is loaded,
 * running the list once per request (page-recovery.ts runs the reading again on a replaced
 * page, which must not run the actions twice), the page as the outputs then read it, and the
 * captures stored as files.
 */

/**
 * Each screenshot action's viewport under the device-pixel bounds of the screenshot output:
 * known from the request alone, so a 422 naming the action before any page is loaded.
 */
export function refuseOversizedActionScreenshots(actions: readonly Action[], viewport: { width: number; height: number }, scale: number, limits: ScreenshotLimits): void {
  actions.forEach((action, index) => {
    if (action.type !== 'screenshot') return;
    const options = { fullPage: action.fullPage, type: 'png' as const, omitBackground: false };
    const problem = requestedAreaProblem(action.viewport ?? viewport, scale, options, limits);
    if (problem) throw validationError([{ code: 'too_big', path: ['actions', index, 'viewport'], message: problem.message }]);
  });
}

/** One request's actions: run at most once, whatever reading of the page comes after. */
export class PageActions {
  private made: ActionsMade | undefined;
  private started = false;

  constructor(
    private readonly actions: readonly Action[],
    private readonly policy: Pick<AddressPolicy, 'check'>,
  ) {}

  /**
   * Runs the list on the page (the first time), and answers the page as the outputs read it
   * afterwards. A page the actions sent somewhere the egress policy refuses is refused, as a
   * redirect there would be.
   */
  async run(context: ActionContext): Promise<{ loaded: LoadedPage; made: ActionsMade }> {
    if (!this.made) {
      if (this.started) throw new PageCrashed(`${context.loaded.finalUrl} gave way while its actions ran`);
      this.started = true;
      this.made = await runActions(this.actions, context);
    }
    const loaded = afterActions(context.loaded);
    if (loaded.finalUrl !== context.loaded.finalUrl) await this.policy.check(loaded.finalUrl);
    return { loaded, made: this.made };
  }
}

/**
 * The loaded page after a caller's actions: where it is now, and no second chance to read its
 * document as first served (rendered again without scripts) or to wait for its late content,
 * since either would answer the page as it was before the actions.
 */
function afterActions(loaded: LoadedPage): LoadedPage {
  return {
    page: loaded.page,
    context: loaded.context,
    device: loaded.device,
    finalUrl: loaded.page.url(),
    statusCode: loaded.statusCode,
    contentType: loaded.contentType,
    warnings: loaded.warnings,
    get crashed() {
      return loaded.crashed;
    },
    waitForLateContent: async () => false,
    withoutScripts: async () => undefined,
    stopWatching: () => loaded.stopWatching(),
  };
}

/** What the actions made as answered, each capture stored (by `store`) once the page is back in the pool. */
export async function storeActionCaptures(
  made: ActionsMade,
  store: (type: 'screenshot' | 'pdf', capture: CaptureMade) => Promise<StoredCapture>,
): Promise<ActionResults<StoredCapture>> {
  const screenshots: StoredCapture[] = [];
  for (const capture of made.screenshots) screenshots.push(await store('screenshot', capture));
  const pdfs: StoredCapture[] = [];
  for (const capture of made.pdfs) pdfs.push(await store('pdf', capture));
  return { screenshots, scrapes: made.scrapes, javascriptReturns: made.javascriptReturns, pdfs };
}
