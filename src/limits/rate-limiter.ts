/** The outcome of counting one request against a key's window. */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the current window ends. */
  resetAt: number;
}

/**
 * Fixed-window request counting per key. The in-process implementation serves one instance;
 * a shared one (Redis) is needed when several instances serve the same keys.
 */
export interface RateLimiter {
  hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision>;
  close(): Promise<void>;
}

export function windowBounds(nowMs: number, windowMs: number) {
  const start = Math.floor(nowMs / windowMs) * windowMs;
  return { start, end: start + windowMs };
}
