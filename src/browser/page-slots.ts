import { PoolOverloaded, RequestAborted } from './types.js';

export interface PageSlotsOptions {
  /** Pages open at once. */
  maxActive: number;
  /** Pages one account may hold at once, so that the others always have some (BROWSER_ACCOUNT_MAX_PAGES). */
  maxActivePerAccount: number;
  /** Requests allowed to wait for a page; more are turned away at once. */
  maxQueued: number;
  /** A request that waited this long is turned away. */
  queueTimeoutMs: number;
}

interface Waiter {
  account: string;
  grant: (release: () => void) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  stopWatching: () => void;
}

/**
 * Admission control for the browser, fair between accounts: a counting semaphore with a bounded
 * wait queue and a bounded wait, where no account holds more than `maxActivePerAccount` pages and
 * a freed page goes to the waiting account that holds the fewest (the longest waiter among
 * equals). One account's slow pages can therefore never take every page from the others.
 * Overload is answered quickly (503 + Retry-After) instead of piling up, and a request whose
 * client has gone leaves the queue at once.
 */
export class PageSlots {
  private active = 0;
  private readonly held = new Map<string, number>();
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

  /** Resolves with a release function once a page is free for `account`; rejects with PoolOverloaded or RequestAborted. */
  acquire(account: string, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(new RequestAborted());
    if (this.active < this.options.maxActive && this.mayHoldMore(account) && this.nextWaiter() === undefined) {
      return Promise.resolve(this.take(account));
    }
    if (this.queue.length >= this.options.maxQueued) {
      return Promise.reject(new PoolOverloaded('Every browser page is busy and the wait queue is full', this.retryAfterSeconds));
    }
    return new Promise((grant, reject) => {
      const onAbort = () => {
        this.drop(waiter);
        reject(new RequestAborted());
      };
      const waiter: Waiter = {
        account,
        grant,
        reject,
        timer: setTimeout(() => {
          this.drop(waiter);
          reject(new PoolOverloaded(`No browser page became free within ${this.options.queueTimeoutMs} ms`, this.retryAfterSeconds));
        }, this.options.queueTimeoutMs),
        stopWatching: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  /** Turns every waiting request away, e.g. on shutdown. */
  rejectAll(error: Error): void {
    for (const waiter of this.queue.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.stopWatching();
      waiter.reject(error);
    }
  }

  private mayHoldMore(account: string): boolean {
    return (this.held.get(account) ?? 0) < this.options.maxActivePerAccount;
  }

  private take(account: string): () => void {
    this.active += 1;
    this.held.set(account, (this.held.get(account) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active -= 1;
      const left = (this.held.get(account) ?? 1) - 1;
      if (left > 0) this.held.set(account, left);
      else this.held.delete(account);
      this.handOver();
    };
  }

  /** Freed pages go to the waiting accounts holding the fewest, each account up to its cap. */
  private handOver(): void {
    while (this.active < this.options.maxActive) {
      const next = this.nextWaiter();
      if (!next) return;
      this.drop(next);
      next.grant(this.take(next.account));
    }
  }

  /** The waiter a free page goes to: its account holds the fewest pages and may hold one more; the longest waiting among equals. */
  private nextWaiter(): Waiter | undefined {
    let best: Waiter | undefined;
    let bestHeld = Number.POSITIVE_INFINITY;
    for (const waiter of this.queue) {
      const held = this.held.get(waiter.account) ?? 0;
      if (held < bestHeld && held < this.options.maxActivePerAccount) {
        best = waiter;
        bestHeld = held;
      }
    }
    return best;
  }

  private drop(waiter: Waiter): void {
    clearTimeout(waiter.timer);
    waiter.stopWatching();
    const index = this.queue.indexOf(waiter);
    if (index !== -1) this.queue.splice(index, 1);
  }
}
