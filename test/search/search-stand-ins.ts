import { sendJson, sendText, type StandIn, startStandIn } from '../helpers/loopback-stand-in.js';

export const BRAVE_TEST_KEY = 'brave-test-subscription-token';

/**
 * Queries steer the stand-ins, so one running app covers every case:
 * `searxng-down`, `brave-down`, `all-down`, `searxng-slow` (never answers), `searxng-huge`
 * (over the size cap), `searxng-limited` / `brave-limited` (429, rate limited), `nothing`.
 */
function has(query: string, marker: string) {
  return query.includes(marker);
}

/** SearXNG's `GET /search?q=&format=json`, with the fields a real instance sends. */
export function startSearxngStandIn(): Promise<StandIn> {
  return startStandIn((request, response) => {
    const query = request.url.searchParams.get('q') ?? '';
    if (request.url.pathname !== '/search') return sendText(response, 404, 'text/html', '<h1>Not Found</h1>');
    if (request.url.searchParams.get('format') !== 'json') return sendText(response, 403, 'text/html', '<h1>Forbidden</h1>');
    if (has(query, 'searxng-slow')) return; // holds the connection until the client gives up
    if (has(query, 'searxng-huge')) {
      // Past the 2 MB cap on provider responses.
      const filler = 'x'.repeat(1024);
      const results = Array.from({ length: 3 * 1024 }, (_, i) => ({ url: `https://huge.example/${i}`, title: filler }));
      return sendJson(response, 200, { query, results });
    }
    if (has(query, 'searxng-down')) return sendText(response, 500, 'text/html', '<h1>Internal Server Error</h1>');
    // SearXNG's limiter plugin: a bare 429.
    if (has(query, 'searxng-limited')) return sendText(response, 429, 'text/plain', 'Too Many Requests');
    // A misconfigured proxy answering HTML with 200: not JSON, so the provider must fail cleanly.
    if (has(query, 'all-down')) return sendText(response, 200, 'text/html', '<html><body>maintenance</body></html>');
    const results = has(query, 'nothing') ? [] : SEARXNG_RESULTS;
    sendJson(response, 200, {
      query,
      number_of_results: 0,
      results,
      answers: [],
      corrections: [],
      infoboxes: [],
      suggestions: [],
      unresponsive_engines: [],
    });
  });
}

/** Brave's `GET /res/v1/web/search?q=&count=` behind `X-Subscription-Token`. */
export function startBraveStandIn(): Promise<StandIn> {
  return startStandIn((request, response) => {
    const query = request.url.searchParams.get('q') ?? '';
    if (request.url.pathname !== '/res/v1/web/search') return sendJson(response, 404, { type: 'ErrorResponse' });
    if (request.headers['x-subscription-token'] !== BRAVE_TEST_KEY) {
      return sendJson(response, 401, {
        type: 'ErrorResponse',
        error: { id: 'x', status: 401, code: 'SUBSCRIPTION_TOKEN_INVALID', detail: 'The provided subscription token is invalid.' },
      });
    }
    if (has(query, 'brave-limited')) {
      const error = { id: 'x', status: 429, code: 'RATE_LIMITED', detail: 'Request rate limit exceeded for plan.' };
      return sendJson(response, 429, { type: 'ErrorResponse', error }, { 'x-ratelimit-reset': '1, 1419704' });
    }
    if (has(query, 'brave-down') || has(query, 'all-down')) {
      return sendJson(response, 500, { type: 'ErrorResponse', error: { status: 500, code: 'INTERNAL' } });
    }
    const count = Number(request.url.searchParams.get('count') ?? '20');
    const base = { type: 'search', query: { original: query, show_strict_warning: false, more_results_available: false } };
    // Brave leaves `web` out entirely when there are no web results.
    if (has(query, 'nothing')) return sendJson(response, 200, base);
    sendJson(response, 200, { ...base, web: { type: 'search', results: BRAVE_RESULTS.slice(0, count), family_friendly: true } });
  });
}

const SEARXNG_RESULTS = [
  {
    url: 'https://example.com/alpha',
    title: 'Alpha page',
    content: 'Alpha from SearXNG',
    engine: 'google',
    engines: ['google', 'duckduckgo'],
    parsed_url: ['https', 'example.com', '/alpha', '', '', ''],
    template: 'default.html',
    positions: [1, 2],
    score: 4,
    category: 'general',
    publishedDate: '2024-03-01T10:00:00',
  },
  {
    url: 'https://www.example.org/beta/',
    title: 'Beta page',
    content: '',
    engine: 'duckduckgo',
    engines: ['duckduckgo'],
    positions: [2],
    score: 1,
    category: 'general',
    publishedDate: null,
  },
  {
    url: 'https://example.net/gamma',
    title: 'Gamma page',
    content: 'Gamma from SearXNG',
    engine: 'bing',
    engines: ['bing'],
    positions: [3],
    score: 0.5,
    category: 'general',
    publishedDate: null,
  },
];

function braveResult(url: string, title: string, description: string, extra: Record<string, unknown> = {}) {
  const host = new URL(url).hostname;
  return {
    title,
    url,
    is_source_local: false,
    is_source_both: false,
    description,
    profile: { name: host, url, long_name: host, img: `https://imgs.search.brave.test/${host}/profile.png` },
    language: 'en',
    family_friendly: true,
    type: 'search_result',
    subtype: 'generic',
    meta_url: { scheme: 'https', netloc: host, hostname: host, favicon: `https://imgs.search.brave.test/${host}/favicon.png`, path: '› x' },
    ...extra,
  };
}

const BRAVE_RESULTS = [
  // The same page as SearXNG's first result, spelled differently: must be merged into it.
  braveResult('http://example.com/alpha?utm_source=brave#top', 'Alpha (Brave)', '<strong>Alpha</strong> from Brave'),
  braveResult('https://delta.example/d', 'Delta page', '<strong>Delta</strong> &amp; friends', {
    page_age: '2024-02-11T08:12:00',
    age: 'February 11, 2024',
  }),
  braveResult('https://example.org/beta', 'Beta (Brave)', 'Beta from Brave'),
];
