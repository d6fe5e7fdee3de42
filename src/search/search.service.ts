import type { Logger } from 'pino';
import type { Caller } from '../accounts/caller.js';
import { type MeteredDeps, runMetered } from '../accounts/metered-operation.js';
import { fingerprint } from '../cache/fingerprint.js';
import { cacheKey, type CacheVersion } from '../cache/result-cache.js';
import { AppError } from '../errors/app-error.js';
import { describeUpstreamFailure } from '../providers/bounded-fetch.js';
import { rateLimitedError } from '../providers/provider-errors.js';
import { mergeResults } from './merge-results.js';
import { BraveProvider } from './brave-provider.js';
import type { SearchHit, SearchProvider } from './search-provider.js';
import { SearxngProvider } from './searxng-provider.js';

/** Bounds of a search, the same on every surface (the API, Firecrawl's, MCP's). */
export const MAX_QUERY_LENGTH = 500;
export const MAX_SEARCH_LIMIT = 50;

export interface SearchOutcome {
  results: SearchHit[];
  /** Providers that answered. */
  sources: string[];
  /** Providers that failed while at least one other answered. */
  failedSources: string[];
  /** Wall time of the provider calls, in milliseconds. */
  searchTime: number;
}

/** The variables that turn providers on; named in the 503 so operators know what to set. */
export const SEARCH_PROVIDER_VARIABLES = ['SEARXNG_URL', 'BRAVE_API_KEY'] as const;

export interface SearchSettings {
  searxngUrl: string | undefined;
  braveApiKey: string | undefined;
  braveBaseUrl: string;
  timeoutMs: number;
}

/** The providers the settings turn on, in the order their results are interleaved. */
export function createSearchProviders(settings: SearchSettings): SearchProvider[] {
  const providers: SearchProvider[] = [];
  if (settings.searxngUrl) providers.push(new SearxngProvider(settings.searxngUrl, settings.timeoutMs));
  if (settings.braveApiKey) providers.push(new BraveProvider(settings.braveBaseUrl, settings.braveApiKey, settings.timeoutMs));
  return providers;
}

/**
 * Asks every configured provider at once (each bounded by its own time limit), then merges
 * and deduplicates what came back. Provider failures become API errors here and nowhere else.
 */
export class SearchService {
  constructor(
    private readonly providers: readonly SearchProvider[],
    /** Metering (slot, credits, the account's cache); the search itself needs none. */
    private readonly metering: MeteredDeps,
  ) {}

  /**
   * A search as one metered operation: the account's concurrency slot, SEARCH_CREDIT_COST
   * credits (refunded when every provider fails) and the account's cache under the API
   * version's key prefix; the answer carries the time it was made.
   */
  async run(caller: Caller, version: CacheVersion, input: { query: string; limit: number; maxAge?: number }) {
    this.ensureConfigured();
    const { query, limit, maxAge } = input;
    const request = {
      principal: caller.principal,
      requestId: caller.requestId,
      log: caller.log,
      operation: 'web:search',
      cost: this.metering.config.search.creditCost,
      cache: { key: cacheKey(version, 'search', fingerprint({ query, limit })), maxAgeSeconds: maxAge },
    };
    return runMetered(this.metering, request, async () => ({
      ...(await this.search(query, limit, caller.log, caller.signal)),
      timestamp: new Date().toISOString(),
    }));
  }

  /** 503 PROVIDER_NOT_CONFIGURED unless at least one provider is set up. Checked before billing. */
  ensureConfigured(): void {
    if (this.providers.length > 0) return;
    throw new AppError(
      'PROVIDER_NOT_CONFIGURED',
      `Web search is not configured: set ${SEARCH_PROVIDER_VARIABLES.join(' and/or ')}`,
      { details: { variables: [...SEARCH_PROVIDER_VARIABLES] } },
    );
  }

  async search(query: string, limit: number, log: Logger, signal?: AbortSignal): Promise<SearchOutcome> {
    this.ensureConfigured();
    const started = performance.now();
    const settled = await Promise.allSettled(this.providers.map((provider) => provider.search(query, limit, signal)));
    const searchTime = Math.round(performance.now() - started);

    const answered: { name: string; hits: SearchHit[] }[] = [];
    const failed: { name: string; reason: string }[] = [];
    settled.forEach((outcome, index) => {
      const name = this.providers[index]!.name;
      if (outcome.status === 'fulfilled') {
        answered.push({ name, hits: outcome.value });
        return;
      }
      const reason = describeUpstreamFailure(outcome.reason);
      failed.push({ name, reason });
      log.warn({ provider: name, reason, err: outcome.reason }, 'search provider failed');
    });

    if (answered.length === 0) {
      // When a provider only rationed us, the same search will work later.
      const limited = rateLimitedError('The search provider', settled.map((outcome) => (outcome.status === 'rejected' ? outcome.reason : undefined)));
      if (limited) throw limited;
      throw new AppError(
        'PROVIDER_ERROR',
        `All search providers failed: ${failed.map((f) => `${f.name} (${f.reason})`).join(', ')}`,
        { details: { failedSources: failed.map((f) => f.name) } },
      );
    }
    return {
      results: mergeResults(
        answered.map((a) => a.hits),
        limit,
      ),
      sources: answered.map((a) => a.name),
      failedSources: failed.map((f) => f.name),
      searchTime,
    };
  }
}
