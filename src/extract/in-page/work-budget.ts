/**
 * Bounds on the main-content extraction, and the name of the step it is in, so that a page it
 * cannot handle (too large, too deep, too slow, or a rule that throws on an odd DOM) falls back
 * to the plain conversion (plain-markdown.ts) and the failure names its step.
 */

/**
 * Past this depth the writer's recursion is not safe. Chromium's HTML parser nests at most 512
 * elements deep, so only a DOM built by scripts gets here; such pages take the plain conversion.
 */
export const MAX_MAIN_CONTENT_DEPTH = 600;
/** Past this many elements (the largest dev-set page has about 16,000) the main-content steps take too long. */
export const MAX_MAIN_CONTENT_ELEMENTS = 150_000;
/** The main-content extraction gives up after this long; wcxb-dev's slowest page takes under 0.5 s. */
export const MAIN_CONTENT_TIME_MS = 5_000;

/** The extraction ran past its time: not a bug, a page too large for it. */
export class WorkBudgetExceeded extends Error {
  constructor(readonly step: string) {
    super(`The main-content extraction ran out of time in ${step}`);
    this.name = 'WorkBudgetExceeded';
  }
}

let deadline = Number.POSITIVE_INFINITY;
let currentStep = '';
let ticks = 0;

/** Starts the clock for one extraction (each runs in a fresh evaluation, but a page may run several). */
export function startBudget(ms: number): void {
  deadline = performance.now() + ms;
  currentStep = '';
  ticks = 0;
}

/** Stops the clock: the plain conversion has no step that can run out of time this way. */
export function endBudget(): void {
  deadline = Number.POSITIVE_INFINITY;
}

/** Names the step that follows (for the log when it fails) and checks the clock. */
export function step<T>(name: string, work: () => T): T {
  currentStep = name;
  checkBudget();
  return work();
}

export function currentStepName(): string {
  return currentStep;
}

/** Called from loops that visit elements: a clock read every 256 calls costs nothing measurable. */
export function checkBudget(): void {
  ticks += 1;
  if ((ticks & 255) === 0 && performance.now() > deadline) throw new WorkBudgetExceeded(currentStep);
}

/** The DOM nests deeper than the recursive steps can go: thrown by `measure`. */
export class DomTooDeep extends Error {
  constructor() {
    super(`The page nests elements more than ${MAX_MAIN_CONTENT_DEPTH} deep`);
    this.name = 'DomTooDeep';
  }
}

/** Whether elements under `root` nest deeper than `limit`: an iterative walk that stops when they do. */
export function exceedsDepth(root: Element, limit: number): boolean {
  let depth = 0;
  let node: Element | null = root;
  while (node) {
    const first: Element | null = node.firstElementChild;
    if (first) {
      node = first;
      depth += 1;
      if (depth > limit) return true;
      continue;
    }
    while (node && node !== root && !node.nextElementSibling) {
      node = node.parentElement;
      depth -= 1;
    }
    node = node && node !== root ? node.nextElementSibling : null;
  }
  return false;
}
