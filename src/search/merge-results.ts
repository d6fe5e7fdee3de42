import { createHash } from 'node:crypto';
import { withoutTrailingSlashes } from '../net/url-text.js';
import type { SearchHit } from './search-provider.js';

/** Query parameters that only track clicks; two URLs differing in them are the same page. */
const TRACKING_PARAMETER = /^(utm_[a-z]+|gclid|fbclid|msclkid|ref_src)$/i;

/**
 * The identity of a URL for deduplication: scheme, `www.`, default port, fragment, trailing
 * slash, tracking parameters and parameter order do not make two results different pages.
 */
export function normalizeUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return raw.trim().toLowerCase();
  }
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  const port = url.port ? `:${url.port}` : '';
  const path = withoutTrailingSlashes(url.pathname) || '/';
  const params = [...url.searchParams.entries()]
    .filter(([name]) => !TRACKING_PARAMETER.test(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = params.length > 0 ? `?${new URLSearchParams(params).toString()}` : '';
  return `${host}${port}${path}${query}`;
}

/** A stable id for a result: the same page gets the same id in every answer. */
export function resultId(url: string): string {
  return createHash('sha256').update(normalizeUrl(url)).digest('hex').slice(0, 16);
}

/**
 * Merges ranked lists from several providers: takes the first of each, then the second of
 * each, and so on, so every provider's best results come first. A page found twice keeps its
 * first appearance, with empty fields filled from the later one.
 */
export function mergeResults(lists: SearchHit[][], limit: number): SearchHit[] {
  const merged = new Map<string, SearchHit>();
  const longest = Math.max(0, ...lists.map((list) => list.length));
  for (let rank = 0; rank < longest; rank++) {
    for (const list of lists) {
      const hit = list[rank];
      if (!hit) continue;
      const key = normalizeUrl(hit.url);
      const seen = merged.get(key);
      merged.set(key, seen ? fillGaps(seen, hit) : { ...hit });
    }
  }
  return [...merged.values()].slice(0, limit);
}

function fillGaps(kept: SearchHit, other: SearchHit): SearchHit {
  return {
    ...kept,
    snippet: kept.snippet || other.snippet,
    favicon: kept.favicon || other.favicon,
    publishedDate: kept.publishedDate || other.publishedDate,
  };
}
