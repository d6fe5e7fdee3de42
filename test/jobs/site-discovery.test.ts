import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventLoopSlices } from '../../src/event-loop.js';
import { parseRobots } from '../../src/jobs/robots.js';
import { scanLocs, SITEMAP_LIMITS, SiteDiscovery } from '../../src/jobs/site-discovery.js';
import { AddressPolicy } from '../../src/net/address-policy.js';
import { createGuardedFetch, type GuardedFetcher } from '../../src/net/guarded-fetch.js';
import { longestStall } from '../helpers/event-loop-watch.js';
import { type RecordingServer, type RouteHandler, startRecordingServer } from '../helpers/recording-server.js';
import { seededRandom } from '../helpers/seeded-random.js';

/** The whitespace run from the report: 2,000 spaces took the old pattern 2.6 s, 4,000 took 21 s. */
const HOSTILE_SPACES = 30_000;

/** The reference the scanner must agree with on short inputs: the pattern it replaces. */
function referenceLocs(xml: string): string[] {
  const found: string[] = [];
  for (const match of xml.matchAll(/<loc>\s*([^<]+?)\s*<\/loc>/gi)) {
    const value = (match[1] as string).replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[name] as string);
    if (URL.canParse(value)) found.push(value);
  }
  return found;
}

async function scanned(xml: string, max = Number.POSITIVE_INFINITY): Promise<string[]> {
  const found: string[] = [];
  await scanLocs(xml, new EventLoopSlices(), (url) => found.push(url) < max);
  return found;
}

/** A sitemap route; the document is encoded once, so that serving 10 MB does not hold this process's thread (the reader's gaps are measured in it). */
function xml(body: string): RouteHandler {
  const bytes = Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>${body}`);
  return (_req, res) => void res.writeHead(200, { 'content-type': 'application/xml' }).end(bytes);
}

describe('the sitemap reader', () => {
  it('agrees with the regular expression it replaces on 3,000 random short documents', async () => {
    const random = seededRandom(4949);
    const fragments = ['<loc>', '</loc>', '<LOC>', '</Loc>', ' ', '\n\t', 'http://a.test/x', 'https://b.test/?q=1&amp;r=2', '&quot;', '<', '>', 'y', '<url>', '</url>'];
    for (let trial = 0; trial < 3000; trial += 1) {
      const document = Array.from({ length: random.int(0, 14) }, () => random.pick(fragments)).join('');
      expect(await scanned(document), `seed 4949, trial ${trial}: ${JSON.stringify(document)}`).toEqual(referenceLocs(document));
    }
  });

  it('decodes entities once, skips values holding markup, and stops when told', async () => {
    const document = '<loc> http://a.test/?x=1&amp;lt;2&#38;y=&#x33; </loc><loc><![CDATA[http://c.test/]]></loc><loc>http://d.test/</loc><loc>http://e.test/</loc>';
    expect(await scanned(document)).toEqual(['http://a.test/?x=1&lt;2&y=3', 'http://d.test/', 'http://e.test/']);
    expect(await scanned(document, 2)).toEqual(['http://a.test/?x=1&lt;2&y=3', 'http://d.test/']);
  });

  describe('over loopback', () => {
    let site: RecordingServer;
    let guarded: GuardedFetcher;
    let discovery: SiteDiscovery;
    const page = (i: number) => `${site.origin}/page/${i}`;

    beforeAll(async () => {
      const routes: Record<string, RouteHandler> = {};
      site = await startRecordingServer(routes);
      routes['/spaces.xml'] = xml(`<urlset><url><loc>${' '.repeat(HOSTILE_SPACES)}</url>${[1, 2, 3].map((i) => `<url><loc>${page(i)}</loc></url>`).join('')}</urlset>`);
      // 10 MB, the most a sitemap is read: 60,000 entries in whitespace, and a <loc> opening a megabyte of spaces.
      const entries = Array.from({ length: 60_000 }, (_, i) => `<url>\n  <loc>\n    ${page(i)}\n  </loc>\n</url>\n`);
      const hostile = `<url><loc>${' '.repeat(1024 * 1024)}</url>`;
      const head = `<urlset>${entries.slice(0, 30_000).join('')}${hostile}${entries.slice(30_000).join('')}`;
      routes['/ten-megabytes.xml'] = xml(`${head}${' '.repeat(Math.max(0, SITEMAP_LIMITS.sitemapBytes - head.length - 100))}</urlset>`);
      // Indexes: 200 children at each level, four levels deep.
      for (let level = 0; level < 4; level += 1) {
        routes[`/index-${level}.xml`] = xml(`<sitemapindex>${Array.from({ length: 200 }, (_, i) => `<sitemap><loc>${site.origin}/index-${level + 1}.xml?child=${i}</loc></sitemap>`).join('')}</sitemapindex>`);
      }
      routes['/index-4.xml'] = xml(`<urlset><url><loc>${page(4)}</loc></url></urlset>`);
      guarded = createGuardedFetch(new AddressPolicy({ allowPrivateHosts: [site.hostPort] }));
      discovery = new SiteDiscovery(guarded.fetch, pino({ level: 'silent' }));
    });
    afterAll(async () => {
      await guarded?.close();
      await site?.close();
    });

    const robotsNaming = (path: string) => parseRobots(`Sitemap: ${site.origin}${path}\n`, site.origin);

    it(`reads a <loc> followed by ${HOSTILE_SPACES.toLocaleString('en')} spaces at once`, async () => {
      const { result, longestGapMs, elapsedMs } = await longestStall(() => discovery.sitemapUrls(site.origin, robotsNaming('/spaces.xml'), 100));
      expect(result).toEqual([page(1), page(2), page(3)]);
      process.stdout.write(`sitemap: <loc> and ${HOSTILE_SPACES} spaces read in ${elapsedMs.toFixed(0)} ms, longest event-loop gap ${longestGapMs.toFixed(0)} ms\n`);
      // Milliseconds (the old pattern: hours). The bound leaves room for a loaded machine.
      expect(elapsedMs).toBeLessThan(2000);
    });

    it('reads a 10 MB sitemap in slices, taking at most the entries one file may give', async () => {
      const { result, longestGapMs, elapsedMs } = await longestStall(() => discovery.sitemapUrls(site.origin, robotsNaming('/ten-megabytes.xml'), 200_000));
      expect(result).toHaveLength(SITEMAP_LIMITS.entriesPerFile);
      expect(result.slice(0, 2)).toEqual([page(0), page(1)]);
      expect(new Set(result).size).toBe(result.length);
      process.stdout.write(`sitemap: 10 MB read in ${elapsedMs.toFixed(0)} ms, longest event-loop gap ${longestGapMs.toFixed(0)} ms\n`);
      expect(longestGapMs).toBeLessThan(1000);
    });

    it('follows indexes to their depth bound and reads at most the files a job may read', async () => {
      const before = site.hits.length;
      const urls = await discovery.sitemapUrls(site.origin, robotsNaming('/index-0.xml'), 1000);
      const reads = site.hits.slice(before);
      expect(reads.length).toBeLessThanOrEqual(SITEMAP_LIMITS.sitemapFiles);
      expect(reads.some((hit) => hit.path === '/index-4.xml')).toBe(false);
      expect(urls).toEqual([]);
    });
  });
});
