import type { ConcurrencyLimiter, ReleaseSlot } from './concurrency-limiter.js';

/** In-process counters for one instance. */
export class MemoryConcurrencyLimiter implements ConcurrencyLimiter {
  private readonly running = new Map<string, number>();

  async acquire(key: string, limit: number): Promise<ReleaseSlot | undefined> {
    const current = this.running.get(key) ?? 0;
    if (current >= limit) return undefined;
    this.running.set(key, current + 1);
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      const left = (this.running.get(key) ?? 1) - 1;
      if (left <= 0) this.running.delete(key);
      else this.running.set(key, left);
    };
  }

  async close(): Promise<void> {
    this.running.clear();
  }
}
