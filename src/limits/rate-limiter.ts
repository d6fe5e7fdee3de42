/** The outcome of counting requests against one window. */
export interface RateLimitDecision {
  /** The window had room for the requests. Alone (`hit`) they were then counted; in `hitAll`, only if every window had room. */
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the current window ends. */
  resetAt: number;
}

/** One window to count in, with its limit: an API key's, say, or its account's. */
export interface RateLimitCounter {
  key: string;
  limit: number;
}

/** The outcome of counting requests against several windows at once. */
export interface JointRateLimitDecision {
  /** Every window had room, and each counted the requests; otherwise none did. */
  allowed: boolean;
  /** The index of the first counter without room; undefined when allowed. */
  refusedBy: number | undefined;
  /** Each counter's window after the decision, in the order the counters were given. */
  windows: RateLimitDecision[];
}

/**
 * Fixed-window request counting per key. The in-process implementation serves one instance;
 * a shared one (Redis) is needed when several instances serve the same keys.
 */
export interface RateLimiter {
  /** Counts one request unless the window is full; a refused request is not counted. */
  hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision>;
  /**
   * Counts `cost` requests in every counter's window, all or none, atomically (also across
   * instances): when one window has no room for them, nothing is counted anywhere, so a
   * request one limit refuses spends no other limit's budget.
   */
  hitAll(counters: readonly RateLimitCounter[], windowMs: number, cost?: number): Promise<JointRateLimitDecision>;
  close(): Promise<void>;
}

export function windowBounds(nowMs: number, windowMs: number) {
  const start = Math.floor(nowMs / windowMs) * windowMs;
  return { start, end: start + windowMs };
}

/** The decision of a single counter, as `hit` answers it. */
export function onlyWindow(decision: JointRateLimitDecision): RateLimitDecision {
  return decision.windows[0]!;
}
