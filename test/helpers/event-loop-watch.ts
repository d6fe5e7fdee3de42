/**
 * Measures how long this process's event loop went without a turn while `work` ran: a timer
 * asks for a turn every few milliseconds and the longest wait between two is kept. Work that
 * holds the thread shows as a gap as long as itself.
 */
export async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; longestGapMs: number; elapsedMs: number }> {
  let last = performance.now();
  let longestGapMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longestGapMs = Math.max(longestGapMs, now - last);
    last = now;
  }, 2);
  const started = performance.now();
  try {
    const result = await work();
    const now = performance.now();
    longestGapMs = Math.max(longestGapMs, now - last);
    return { result, longestGapMs, elapsedMs: now - started };
  } finally {
    clearInterval(timer);
  }
}
