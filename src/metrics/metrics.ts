import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the browser pool reports about itself; read at scrape time, never pushed. */
export interface BrowserPoolStats {
  /** Pages open now; each has its own context, so these are the busy contexts. */
  activePages: number;
  /** Requests waiting for a page. */
  queued: number;
  /** Chromium processes alive (a recycled one drains beside its successor). */
  browsers?: number;
  /** Fresh contexts prepared ahead of requests: the idle ones. */
  preparedContexts?: number;
  warmPages?: number;
  sessions?: number;
}

export type CacheOutcomeLabel = 'HIT' | 'MISS';

/** Why a request was turned away with 429. */
export type RejectionReason = 'rate_limit' | 'concurrency';

/** Seconds; page renders can take up to a couple of minutes, API calls milliseconds. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/**
 * Pluck's Prometheus metrics, in a registry of their own: tests run several app contexts in
 * one process, and prom-client's global registry would refuse the second set of names.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'method' | 'route'>;
  private readonly inFlight: Gauge;
  private readonly credits: Counter<'operation'>;
  private readonly cacheLookups: Counter<'operation' | 'result'>;
  private readonly rejections: Counter<'reason'>;

  constructor(browserStats: () => BrowserPoolStats) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'pluck_http_requests_total',
      help: 'HTTP requests answered, by route template and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.latency = new Histogram({
      name: 'pluck_http_request_duration_seconds',
      help: 'Time from receiving a request to its answer, by route template',
      labelNames: ['method', 'route'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.inFlight = new Gauge({ name: 'pluck_http_requests_in_flight', help: 'Requests being handled now', registers });
    this.credits = new Counter({
      name: 'pluck_credits_spent_total',
      help: 'Credits charged for successful operations (refunded failures are not counted)',
      labelNames: ['operation'],
      registers,
    });
    this.cacheLookups = new Counter({
      name: 'pluck_cache_lookups_total',
      help: 'Result cache outcomes of billable operations',
      labelNames: ['operation', 'result'],
      registers,
    });
    this.rejections = new Counter({
      name: 'pluck_rate_limit_rejections_total',
      help: 'Requests refused with 429: hourly rate limit or concurrency limit',
      labelNames: ['reason'],
      registers,
    });
    this.registerBrowserGauges(browserStats);
  }

  /** Called once per answered request; `route` is the matched template, never the raw path. */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests.inc({ method, route, status: String(status) });
    this.latency.observe({ method, route }, seconds);
  }

  requestStarted(): () => void {
    this.inFlight.inc();
    return () => this.inFlight.dec();
  }

  /** A billable operation succeeded: its credits stay charged and its cache outcome is known. */
  observeMeteredOperation(operation: string, cache: CacheOutcomeLabel, credits: number): void {
    this.cacheLookups.inc({ operation, result: cache === 'HIT' ? 'hit' : 'miss' });
    if (credits > 0) this.credits.inc({ operation }, credits);
  }

  observeRejection(reason: RejectionReason): void {
    this.rejections.inc({ reason });
  }

  /** The text exposition format, and its content type. */
  async expose(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }

  private registerBrowserGauges(browserStats: () => BrowserPoolStats): void {
    const registers = [this.registry];
    new Gauge({
      name: 'pluck_browser_instances',
      help: 'Chromium processes running',
      registers,
      collect() {
        this.set(browserStats().browsers ?? 0);
      },
    });
    new Gauge({
      name: 'pluck_browser_contexts',
      help: 'Browser contexts: busy (serving a request), idle (prepared ahead), warm (kept, reset, for the account that used it) or session (a named session kept for its account)',
      labelNames: ['state'],
      registers,
      collect() {
        const stats = browserStats();
        this.set({ state: 'busy' }, stats.activePages);
        this.set({ state: 'idle' }, stats.preparedContexts ?? 0);
        this.set({ state: 'warm' }, stats.warmPages ?? 0);
        this.set({ state: 'session' }, stats.sessions ?? 0);
      },
    });
    new Gauge({
      name: 'pluck_browser_queue_depth',
      help: 'Requests waiting for a browser page',
      registers,
      collect() {
        this.set(browserStats().queued);
      },
    });
  }
}
