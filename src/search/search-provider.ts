/** One result as a provider reports it, already cleaned: every field a string, '' when unknown. */
export interface SearchHit {
  url: string;
  title: string;
  snippet: string;
  /** The engine behind the result (e.g. a SearXNG engine name) or the provider's own name. */
  source: string;
  favicon: string;
  /** ISO 8601, or ''. */
  publishedDate: string;
}

/**
 * A web search backend. Implementations throw `UpstreamError` when they cannot answer; the
 * search service runs them in parallel and decides what a failure means for the caller.
 */
export interface SearchProvider {
  /** Short stable name reported in `sources` / `failedSources`, e.g. `searxng`. */
  readonly name: string;
  search(query: string, limit: number, signal?: AbortSignal): Promise<SearchHit[]>;
}

/** Responses larger than this are refused; a page of results is a few tens of kilobytes. */
export const MAX_SEARCH_RESPONSE_BYTES = 2 * 1024 * 1024;
