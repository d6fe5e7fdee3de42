import { setImmediate as nextTurn } from 'node:timers/promises';

/** How long a loop over what a stranger sent may hold the server's thread before other requests get a turn. */
export const SLICE_MS = 10;

/**
 * Cuts a long synchronous loop (thousands of links, a sitemap's entries) into slices: `pause()`
 * is nearly free within a slice and gives the event loop a turn once the slice has run
 * `sliceMs`, so `/health` and other callers' requests are answered while one job parses a
 * hostile site. Time, not a count of items, because an item's cost depends on the input.
 */
export class EventLoopSlices {
  private sliceStart = performance.now();

  constructor(private readonly sliceMs = SLICE_MS) {}

  async pause(): Promise<void> {
    if (performance.now() - this.sliceStart < this.sliceMs) return;
    await nextTurn();
    this.sliceStart = performance.now();
  }
}
