import type { Logger } from 'pino';
import { EventLoopSlices } from '../event-loop.js';
import type { GuardedFetch } from '../net/guarded-fetch.js';
import { MAX_JOB_URL_LENGTH } from './crawl-urls.js';
import { ALLOW_EVERYTHING, CRAWLER_TOKEN, parseRobots, ROBOTS_LIMITS, type RobotsRules } from './robots.js';

/** Bounds of sitemap discovery: a hostile or huge site costs a job at most this much. */
export const SITEMAP_LIMITS = {
  /** One sitemap file (the protocol's own limit is 50 MB uncompressed; we read less). */
  sitemapBytes: 10 * 1024 * 1024,
  /** Sitemap files read per job, indexes included. */
  sitemapFiles: 50,
  /** Sitemap indexes within indexes. */
  indexDepth: 3,
  /** `<loc>` entries taken from one file: the protocol's own limit per sitemap. */
  entriesPerFile: 50_000,
  /** Each robots.txt or sitemap read, connection to last byte. */
  timeoutMs: 10_000,
};

const USER_AGENT = `Mozilla/5.0 (compatible; ${CRAWLER_TOKEN}/1.0)`;

/**
 * robots.txt and sitemaps of a site, read with the guarded fetch: every connection (redirect
 * hops included) passes the egress policy, so discovery cannot reach a refused address either.
 */
export class SiteDiscovery {
  constructor(
    private readonly fetch: GuardedFetch,
    private readonly log: Logger,
  ) {}

  /** The site's rules; a missing or unreadable robots.txt allows everything. */
  async robots(origin: string, signal?: AbortSignal): Promise<RobotsRules> {
    const text = await this.readText(`${origin}/robots.txt`, ROBOTS_LIMITS.bytes, signal);
    if (text === undefined) return ALLOW_EVERYTHING;
    const rules = parseRobots(text, origin);
    if (rules.ignoredRules > 0) this.log.warn({ origin, ignoredRules: rules.ignoredRules, limits: ROBOTS_LIMITS }, 'robots.txt rules past the bounds ignored');
    return rules;
  }

  /**
   * Page URLs from the sitemaps robots.txt names and from /sitemap.xml, following sitemap
   * indexes; at most `limit` of them. A big sitemap is read in slices, so other requests are
   * answered meanwhile.
   */
  async sitemapUrls(origin: string, robots: RobotsRules, limit: number, signal?: AbortSignal): Promise<string[]> {
    const pending: Array<{ url: string; depth: number }> = [...new Set([...robots.sitemaps, `${origin}/sitemap.xml`])].map((url) => ({ url, depth: 0 }));
    const seen = new Set<string>();
    const pages = new Set<string>();
    const slices = new EventLoopSlices();
    let filesRead = 0;
    while (pending.length > 0 && pages.size < limit && filesRead < SITEMAP_LIMITS.sitemapFiles) {
      const { url, depth } = pending.shift()!;
      if (seen.has(url)) continue;
      seen.add(url);
      filesRead += 1;
      const text = await this.readText(url, SITEMAP_LIMITS.sitemapBytes, signal);
      if (text === undefined || signal?.aborted) continue;
      await slices.pause();
      let taken = 0;
      if (/<sitemapindex[\s>]/i.test(text)) {
        // Children past the files a job reads would never be read: not even kept.
        const room = SITEMAP_LIMITS.sitemapFiles - filesRead - pending.length;
        if (depth >= SITEMAP_LIMITS.indexDepth || room <= 0) continue;
        await scanLocs(text, slices, (child) => {
          pending.push({ url: child, depth: depth + 1 });
          return ++taken < room;
        });
        continue;
      }
      await scanLocs(text, slices, (location) => {
        pages.add(location);
        return ++taken < SITEMAP_LIMITS.entriesPerFile && pages.size < limit;
      });
    }
    return [...pages];
  }

  /** The body of a 2xx answer, cut at `maxBytes`; undefined for any failure (discovery is best effort). */
  private async readText(url: string, maxBytes: number, signal?: AbortSignal): Promise<string | undefined> {
    const timeout = AbortSignal.timeout(SITEMAP_LIMITS.timeoutMs);
    try {
      const response = await this.fetch(url, {
        headers: { 'user-agent': USER_AGENT, accept: 'text/plain, application/xml, text/xml, */*' },
        signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
      });
      if (!response.ok || !response.body) {
        await response.body?.cancel();
        return undefined;
      }
      const chunks: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        const bytes = chunk as Uint8Array;
        chunks.push(bytes.subarray(0, Math.max(0, maxBytes - size)));
        size += bytes.byteLength;
        if (size >= maxBytes) break;
      }
      return Buffer.concat(chunks).toString('utf8');
    } catch (error) {
      this.log.debug({ url, err: error }, 'site discovery fetch failed');
      return undefined;
    }
  }
}

const LOC_CLOSE = '</loc>';
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * Hands each `<loc>` of a sitemap or sitemap index to `take` (entities decoded, whitespace
 * trimmed, only parseable URLs no longer than a job keeps), in order, until it answers false.
 * One left-to-right pass: each `<loc>` is found by a search for that literal, its value ends at
 * the next `<`, which must open `</loc>`. So the time is linear in the file's size, where the
 * regular expression this replaces (`<loc>\s*([^<]+?)\s*</loc>`) took time growing with the
 * cube of a run of whitespace. Pauses on `slices` between entries.
 */
export async function scanLocs(xml: string, slices: EventLoopSlices, take: (url: string) => boolean): Promise<void> {
  const open = /<loc>/gi;
  for (let match = open.exec(xml); match !== null; match = open.exec(xml)) {
    const start = match.index + match[0].length;
    const end = xml.indexOf('<', start);
    if (end < 0) return;
    if (xml.slice(end, end + LOC_CLOSE.length).toLowerCase() !== LOC_CLOSE) {
      // Markup inside the value (CDATA, a comment): not a plain <loc>, skipped as before.
      open.lastIndex = end;
      continue;
    }
    open.lastIndex = end + LOC_CLOSE.length;
    const value = decodeEntities(xml.slice(start, end).trim());
    if (value.length <= MAX_JOB_URL_LENGTH && URL.canParse(value) && !take(value)) return;
    await slices.pause();
  }
}

/** XML's predefined entities and character references; anything else stays as written. */
function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(?:(amp|lt|gt|quot|apos)|#(\d{1,7})|#x([\da-fA-F]{1,6}));/g, (whole, name?: string, decimal?: string, hex?: string) => {
    if (name !== undefined) return ENTITIES[name] ?? whole;
    const code = decimal !== undefined ? Number(decimal) : Number.parseInt(hex as string, 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
