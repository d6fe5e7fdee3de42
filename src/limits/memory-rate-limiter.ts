import { type JointRateLimitDecision, onlyWindow, type RateLimitCounter, type RateLimitDecision, type RateLimiter, windowBounds } from './rate-limiter.js';

interface Window {
  start: number;
  end: number;
  count: number;
}

/**
 * How often ended windows are swept. By each window's own end: auth attempts (15 minutes) and
 * requests (an hour) share this limiter, and a sweep by the shorter window's start used to
 * throw away every account's current hour.
 */
const SWEEP_INTERVAL_MS = 60_000;

/** In-process fixed windows; ended windows are swept so idle keys do not accumulate. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, Window>();
  private lastSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    return onlyWindow(await this.hitAll([{ key, limit }], windowMs));
  }

  /** Atomic without a lock: nothing between the check and the count awaits. */
  async hitAll(counters: readonly RateLimitCounter[], windowMs: number, cost = 1): Promise<JointRateLimitDecision> {
    const nowMs = this.now();
    this.sweep(nowMs);
    const windows = counters.map(({ key }) => this.currentWindow(key, nowMs, windowMs));
    const refusedBy = counters.findIndex(({ limit }, i) => windows[i]!.count + cost > limit);
    if (refusedBy === -1) for (const window of windows) window.count += cost;
    return {
      allowed: refusedBy === -1,
      refusedBy: refusedBy === -1 ? undefined : refusedBy,
      windows: counters.map(({ limit }, i) => {
        const { count, end } = windows[i]!;
        return { allowed: refusedBy === -1 || count + cost <= limit, limit, remaining: Math.max(0, limit - count), resetAt: Math.ceil(end / 1000) };
      }),
    };
  }

  async close(): Promise<void> {
    this.windows.clear();
  }

  private currentWindow(key: string, nowMs: number, windowMs: number): Window {
    const { start, end } = windowBounds(nowMs, windowMs);
    let window = this.windows.get(key);
    if (!window || window.start !== start) {
      window = { start, end, count: 0 };
      this.windows.set(key, window);
    }
    return window;
  }

  private sweep(nowMs: number) {
    if (nowMs - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = nowMs;
    for (const [key, window] of this.windows) if (window.end <= nowMs) this.windows.delete(key);
  }
}
