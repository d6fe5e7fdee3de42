import type { Logger } from 'pino';
import type { GuardedFetch } from '../net/guarded-fetch.js';
import { ALLOW_EVERYTHING, CRAWLER_TOKEN, parseRobots, type RobotsRules } from './robots.js';

/** Bounds of sitemap discovery: a hostile or huge site costs us at most this much. */
const LIMITS = {
  /** robots.txt beyond this is cut (Google reads 500 KiB). */
  robotsBytes: 512 * 1024,
  /** One sitemap file (the protocol's own limit is 50 MB uncompressed; we read less). */
  sitemapBytes: 10 * 1024 * 1024,
  /** Sitemap files read per job, indexes included. */
  sitemapFiles: 50,
  /** Sitemap indexes within indexes. */
  indexDepth: 3,
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
    const text = await this.readText(`${origin}/robots.txt`, LIMITS.robotsBytes, signal);
    return text === undefined ? ALLOW_EVERYTHING : parseRobots(text, origin);
  }

  /**
   * Page URLs from the sitemaps robots.txt names and from /sitemap.xml, following sitemap
   * indexes; at most `limit` of them.
   */
  async sitemapUrls(origin: string, robots: RobotsRules, limit: number, signal?: AbortSignal): Promise<string[]> {
    const pending: Array<{ url: string; depth: number }> = [...new Set([...robots.sitemaps, `${origin}/sitemap.xml`])].map((url) => ({ url, depth: 0 }));
    const seen = new Set<string>();
    const pages = new Set<string>();
    let filesRead = 0;
    while (pending.length > 0 && pages.size < limit && filesRead < LIMITS.sitemapFiles) {
      const { url, depth } = pending.shift()!;
      if (seen.has(url)) continue;
      seen.add(url);
      filesRead += 1;
      const text = await this.readText(url, LIMITS.sitemapBytes, signal);
      if (text === undefined) continue;
      const locations = locs(text);
      if (/<sitemapindex[\s>]/i.test(text)) {
        if (depth < LIMITS.indexDepth) pending.push(...locations.map((child) => ({ url: child, depth: depth + 1 })));
        continue;
      }
      for (const location of locations) {
        if (pages.size >= limit) break;
        pages.add(location);
      }
    }
    return [...pages];
  }

  /** The body of a 2xx answer, cut at `maxBytes`; undefined for any failure (discovery is best effort). */
  private async readText(url: string, maxBytes: number, signal?: AbortSignal): Promise<string | undefined> {
    const timeout = AbortSignal.timeout(LIMITS.timeoutMs);
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

/** Every <loc> of a sitemap or sitemap index, entities decoded. */
function locs(xml: string): string[] {
  const found: string[] = [];
  for (const match of xml.matchAll(/<loc>\s*([^<]+?)\s*<\/loc>/gi)) {
    const value = (match[1] as string)
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'");
    if (URL.canParse(value)) found.push(value);
  }
  return found;
}
