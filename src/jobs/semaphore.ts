/** A counting semaphore: at most `size` holders; the rest wait in order. */
export class Semaphore {
  private held = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly size: number) {}

  /** Resolves with the release function once a place is free; rejects if `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      const grant = () => {
        this.held += 1;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.held -= 1;
          this.waiting.shift()?.();
        });
      };
      if (this.held < this.size) return grant();
      const waiter = () => {
        signal?.removeEventListener('abort', onAbort);
        grant();
      };
      const onAbort = () => {
        const index = this.waiting.indexOf(waiter);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(signal!.reason);
      };
      if (signal?.aborted) return reject(signal.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }
}
