import { fetchJson, UpstreamError } from '../providers/bounded-fetch.js';
import { isoDate, plainText, stringField } from '../providers/plain-text.js';
import { MAX_SEARCH_RESPONSE_BYTES, type SearchHit, type SearchProvider } from './search-provider.js';

/** Brave's web search answers at most this many results per request. */
const BRAVE_MAX_COUNT = 20;

/**
 * Brave Search API: `GET {base}/res/v1/web/search?q=&count=` with `X-Subscription-Token`,
 * answering `{web: {results: [{title, url, description, page_age, meta_url: {favicon}, profile}]}}`.
 * Descriptions carry `<strong>` highlighting, removed here.
 */
export class BraveProvider implements SearchProvider {
  readonly name = 'brave';

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
    private readonly timeoutMs: number,
  ) {}

  async search(query: string, limit: number, signal?: AbortSignal): Promise<SearchHit[]> {
    const url = new URL(`${this.baseUrl.replace(/\/+$/, '')}/res/v1/web/search`);
    url.searchParams.set('q', query);
    url.searchParams.set('count', String(Math.min(limit, BRAVE_MAX_COUNT)));
    const body = await fetchJson({
      url,
      headers: { 'x-subscription-token': this.apiKey },
      timeoutMs: this.timeoutMs,
      maxBytes: MAX_SEARCH_RESPONSE_BYTES,
      signal,
    });
    if (body === null || typeof body !== 'object') {
      throw new UpstreamError('Brave answered with something other than a JSON object', 'invalid_body');
    }
    // A query with no web results answers without `web` at all.
    const results = (body as { web?: { results?: unknown } }).web?.results ?? [];
    if (!Array.isArray(results)) throw new UpstreamError('Brave answered with a malformed web.results', 'invalid_body');
    return results.flatMap((result) => toHit(result)).slice(0, limit);
  }
}

function toHit(result: unknown): SearchHit[] {
  const url = stringField(result, 'url');
  if (!/^https?:\/\//i.test(url)) return [];
  const record = result as { meta_url?: unknown; profile?: unknown; page_age?: unknown };
  return [
    {
      url,
      title: plainText(stringField(result, 'title')) || url,
      snippet: plainText(stringField(result, 'description')),
      source: 'brave',
      favicon: stringField(record.meta_url, 'favicon') || stringField(record.profile, 'img'),
      publishedDate: isoDate(record.page_age),
    },
  ];
}
