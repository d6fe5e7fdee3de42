import type { OutputRequest } from '../web/outputs.js';
import type { PageRequest, Viewport } from '../web/page-options.js';

/** How every page of a batch or crawl is loaded and what is read from it (as POST /v1/web/page asks). */
export interface ScrapeSpec {
  page: Omit<PageRequest, 'url'> & { maxAge?: number };
  outputs: OutputRequest;
  viewport?: Viewport;
}

/** Where a crawl or map may go from its start URL. */
export interface CrawlSpec {
  url: string;
  /** Pages (crawl) or URLs (map) at most, the start URL included. */
  limit: number;
  /** Link hops from the start URL; sitemap URLs count as depth 1. */
  maxDepth: number;
  includePaths: string[];
  excludePaths: string[];
  allowSubdomains: boolean;
  allowExternalLinks: boolean;
  ignoreRobotsTxt: boolean;
  /** include: sitemap URLs and links; skip: links only; only: sitemap URLs only. */
  sitemap: 'include' | 'skip' | 'only';
  /** Politeness: pages of one host load one at a time, each this long after the previous one finished (absent in jobs made before it existed: none). */
  delayMs?: number;
}

export type JobOptions =
  | { kind: 'batch'; scrape: ScrapeSpec }
  | { kind: 'crawl'; crawl: CrawlSpec; scrape: ScrapeSpec }
  | { kind: 'map'; crawl: CrawlSpec };

export type JobEvent = 'started' | 'page' | 'completed' | 'failed';
export const JOB_EVENTS: readonly JobEvent[] = ['started', 'page', 'completed', 'failed'];

/** Where a job's events are sent, signed with `secret` (docs/jobs.md). */
export interface WebhookTarget {
  url: string;
  secret: string;
  events: JobEvent[];
}
