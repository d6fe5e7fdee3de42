import type { ServerResponse } from 'node:http';
import { type RecordingServer, type RouteHandler, startRecordingServer } from '../helpers/recording-server.js';

/** Sections and pages per section of the generated site: 10 x 19 = 190 pages (208 with the home page, sections, orphans and a query variant). */
export const SECTIONS = 10;
export const PAGES_PER_SECTION = 19;
/** Pages named only in the sitemaps, linked from nowhere. */
export const ORPHANS = 6;

export interface FixtureSite {
  server: RecordingServer;
  /** Every page URL a full crawl should load successfully (the redirect's and the 404's apart). */
  pageUrls: string[];
  close(): Promise<void>;
}

const html = (res: ServerResponse, body: string, status = 200) =>
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><head><title>${body.slice(0, 30)}</title></head><body>${body}</body></html>`);

const xml = (res: ServerResponse, body: string) => res.writeHead(200, { 'content-type': 'application/xml' }).end(`<?xml version="1.0" encoding="UTF-8"?>${body}`);

/**
 * A small site on loopback for crawls: a home page, sections, 220 pages linking each other in
 * loops, URL variants (fragment, query order, trailing slash) of one page, a redirect, a broken
 * link, a robots.txt that disallows /private and names a sitemap index (two nested sitemaps with
 * orphan pages), and links to refused addresses: the cloud metadata address and `refusedOrigin`
 * (a loopback port the egress policy does not allow).
 */
export async function startFixtureSite(refusedOrigin: string): Promise<FixtureSite> {
  const routes: Record<string, RouteHandler> = {};
  const pageUrls: string[] = [];
  let origin = '';
  const pagePath = (section: number, index: number) => `/page/${section}-${index}`;

  routes['/'] = (_req, res) =>
    html(res, `<main><h1>Home</h1><p>The fixture site's home page.</p>${Array.from({ length: SECTIONS }, (_, s) => `<a href="/section/${s}">Section ${s}</a>`).join(' ')}<a href="/private/secret">Private</a></main>`);
  for (let section = 0; section < SECTIONS; section += 1) {
    const links = Array.from({ length: PAGES_PER_SECTION }, (_, i) => `<a href="${pagePath(section, i)}">Page ${i}</a>`).join(' ');
    routes[`/section/${section}`] = (_req, res) => html(res, `<main><h1>Section ${section}</h1><p>Pages of section ${section}.</p>${links}<a href="/">Home</a></main>`);
    for (let index = 0; index < PAGES_PER_SECTION; index += 1) {
      const next = pagePath(section, (index + 1) % PAGES_PER_SECTION);
      routes[pagePath(section, index)] = (_req, res) =>
        html(
          res,
          `<main><h1>Page ${section}-${index}</h1><p>Content of page ${section}-${index} of the fixture site.</p>` +
            `<a href="${next}">Next</a> <a href="/section/${section}">Up</a> <a href="/page/0-0#top">Top</a> ` +
            `<a href="/page/0-0/">Slash</a> <a href="/missing">Broken</a> <a href="/old">Old</a> <a href="/private/p${index}">Private</a>` +
            (index === 0 ? ` <a href="${refusedOrigin}/evil">Elsewhere</a> <a href="http://169.254.169.254/latest/meta-data/">Metadata</a>` : '') +
            '</main>',
        );
    }
  }
  for (let orphan = 0; orphan < ORPHANS; orphan += 1) {
    routes[`/orphan/${orphan}`] = (_req, res) => html(res, `<main><h1>Orphan ${orphan}</h1><p>Only the sitemap names this page.</p></main>`);
  }
  routes['/old'] = (_req, res) => res.writeHead(301, { location: '/page/0-0' }).end();
  routes['/missing'] = (_req, res) => html(res, '<main><h1>Not found</h1><p>There is nothing here.</p></main>', 404);
  routes['/robots.txt'] = (_req, res) =>
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`User-agent: *\nDisallow: /private\nAllow: /private/open\n\nSitemap: ${origin}/sitemap-index.xml\n`);
  routes['/sitemap-index.xml'] = (_req, res) =>
    xml(res, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${origin}/sitemap-pages.xml</loc></sitemap><sitemap><loc>${origin}/sitemap-orphans.xml</loc></sitemap></sitemapindex>`);
  routes['/sitemap-pages.xml'] = (_req, res) =>
    xml(res, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/</loc></url><url><loc>${origin}/page/3-3?b=2&amp;a=1</loc></url><url><loc>${origin}/private/hidden</loc></url></urlset>`);
  routes['/sitemap-orphans.xml'] = (_req, res) =>
    xml(res, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from({ length: ORPHANS }, (_, o) => `<url><loc>${origin}/orphan/${o}</loc></url>`).join('')}</urlset>`);
  routes['/sitemap.xml'] = (_req, res) => res.writeHead(404).end();

  const server = await startRecordingServer(routes);
  origin = server.origin;
  pageUrls.push(`${origin}/`);
  for (let section = 0; section < SECTIONS; section += 1) {
    pageUrls.push(`${origin}/section/${section}`);
    for (let index = 0; index < PAGES_PER_SECTION; index += 1) pageUrls.push(`${origin}${pagePath(section, index)}`);
  }
  for (let orphan = 0; orphan < ORPHANS; orphan += 1) pageUrls.push(`${origin}/orphan/${orphan}`);
  pageUrls.push(`${origin}/page/3-3?a=1&b=2`);
  return { server, pageUrls, close: () => server.close() };
}
