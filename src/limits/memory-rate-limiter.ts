import { type RateLimitDecision, type RateLimiter, windowBounds } from './rate-limiter.js';

interface Window {
  start: number;
  count: number;
}

/** In-process fixed windows; stale windows are swept so idle keys do not accumulate. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, Window>();
  private lastSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const nowMs = this.now();
    this.sweep(nowMs, windowMs);
    const { start, end } = windowBounds(nowMs, windowMs);
    let window = this.windows.get(key);
    if (!window || window.start !== start) {
      window = { start, count: 0 };
      this.windows.set(key, window);
    }
    const allowed = window.count < limit;
    if (allowed) window.count += 1;
    return { allowed, limit, remaining: Math.max(0, limit - window.count), resetAt: Math.ceil(end / 1000) };
  }

  async close(): Promise<void> {
    this.windows.clear();
  }

  private sweep(nowMs: number, windowMs: number) {
    if (nowMs - this.lastSweep < windowMs) return;
    this.lastSweep = nowMs;
    const { start } = windowBounds(nowMs, windowMs);
    for (const [key, window] of this.windows) if (window.start < start) this.windows.delete(key);
  }
}
