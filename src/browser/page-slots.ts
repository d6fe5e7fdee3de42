import { PoolOverloaded } from './types.js';

export interface PageSlotsOptions {
  /** Pages open at once. */
  maxActive: number;
  /** Requests allowed to wait for a page; more are turned away at once. */
  maxQueued: number;
  /** A request that waited this long is turned away. */
  queueTimeoutMs: number;
}

interface Waiter {
  grant: (release: () => void) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * Admission control for the browser: a counting semaphore with a bounded FIFO queue and a
 * bounded wait. Overload is answered quickly (503 + Retry-After) instead of piling up.
 */
export class PageSlots {
  private active = 0;
  private readonly queue: Waiter[] = [];

  constructor(private readonly options: PageSlotsOptions) {}

  get activeCount(): number {
    return this.active;
  }

  get queuedCount(): number {
    return this.queue.length;
  }

  /** Seconds a turned-away caller should wait before retrying. */
  get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.options.queueTimeoutMs / 1000));
  }

  /** Resolves with a release function once a slot is free; rejects with PoolOverloaded. */
  acquire(): Promise<() => void> {
    if (this.active < this.options.maxActive && this.queue.length === 0) {
      this.active += 1;
      return Promise.resolve(this.releaser());
    }
    if (this.queue.length >= this.options.maxQueued) {
      return Promise.reject(new PoolOverloaded('Every browser page is busy and the wait queue is full', this.retryAfterSeconds));
    }
    return new Promise((grant, reject) => {
      const waiter: Waiter = {
        grant,
        reject,
        timer: setTimeout(() => {
          this.remove(waiter);
          reject(new PoolOverloaded(`No browser page became free within ${this.options.queueTimeoutMs} ms`, this.retryAfterSeconds));
        }, this.options.queueTimeoutMs),
      };
      this.queue.push(waiter);
    });
  }

  /** Turns every waiting request away, e.g. on shutdown. */
  rejectAll(error: Error): void {
    for (const waiter of this.queue.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.handOver();
    };
  }

  /** A finished page's slot goes straight to the longest waiter, if any. */
  private handOver(): void {
    const next = this.queue.shift();
    if (!next) {
      this.active -= 1;
      return;
    }
    clearTimeout(next.timer);
    next.grant(this.releaser());
  }

  private remove(waiter: Waiter): void {
    const index = this.queue.indexOf(waiter);
    if (index !== -1) this.queue.splice(index, 1);
  }
}
