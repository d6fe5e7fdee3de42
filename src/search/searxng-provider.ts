import { fetchJson, UpstreamError } from '../providers/bounded-fetch.js';
import { isoDate, plainText, stringField } from '../providers/plain-text.js';
import { MAX_SEARCH_RESPONSE_BYTES, type SearchHit, type SearchProvider } from './search-provider.js';

/**
 * A SearXNG instance through its JSON API: `GET {base}/search?q=...&format=json`, answering
 * `{results: [{url, title, content, engine, engines, publishedDate}], number_of_results}`.
 * The instance must list `json` under `search.formats` in its settings.yml (403 otherwise).
 */
export class SearxngProvider implements SearchProvider {
  readonly name = 'searxng';

  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {}

  async search(query: string, limit: number, signal?: AbortSignal): Promise<SearchHit[]> {
    const url = new URL(`${this.baseUrl.replace(/\/+$/, '')}/search`);
    url.searchParams.set('q', query);
    url.searchParams.set('format', 'json');
    url.searchParams.set('pageno', '1');
    const body = await fetchJson({ url, timeoutMs: this.timeoutMs, maxBytes: MAX_SEARCH_RESPONSE_BYTES, signal });
    const results = (body as { results?: unknown } | null)?.results;
    if (!Array.isArray(results)) {
      throw new UpstreamError('SearXNG answered without a results array', 'invalid_body');
    }
    return results.flatMap((result) => toHit(result)).slice(0, limit);
  }
}

function toHit(result: unknown): SearchHit[] {
  const url = stringField(result, 'url');
  if (!/^https?:\/\//i.test(url)) return [];
  const engines = (result as { engines?: unknown }).engines;
  const firstEngine = Array.isArray(engines) && typeof engines[0] === 'string' ? engines[0] : '';
  return [
    {
      url,
      title: plainText(stringField(result, 'title')) || url,
      snippet: plainText(stringField(result, 'content')),
      source: stringField(result, 'engine') || firstEngine || 'searxng',
      favicon: '',
      publishedDate: isoDate((result as { publishedDate?: unknown }).publishedDate),
    },
  ];
}
