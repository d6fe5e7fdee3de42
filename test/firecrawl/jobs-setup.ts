import type { ServerResponse } from 'node:http';
import { apiClient } from '../helpers/client.js';
import { type RecordingServer, type RouteHandler, startRecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** A loopback port the egress policy refuses (only the site's own host:port is allowed). */
export const REFUSED_ORIGIN = 'http://127.0.0.1:9';
/** Characters of each big page: three of them are more than one status answer holds (10 MB), fewer than ANSWER_MAX_CHARS each. */
export const BIG_PAGE_CHARS = 4_000_000;

const page = (res: ServerResponse, title: string, body: string) =>
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`);
const links = (...paths: string[]) => paths.map((path) => `<a href="${path}">${path}</a>`).join(' ');

/**
 * A small site (a dozen pages): /docs with children and a grandchild, /blog, a page named only in
 * the sitemap, a robots.txt that disallows /private, a link under /docs to a refused address,
 * pages that hold for 1.5 s (/slow/N, linking each other: a crawl to cancel), big pages (/big/N),
 * and a webhook receiver (/hook) keeping what it is sent.
 */
export async function startJobSite(): Promise<RecordingServer & { hooks: Array<{ signature: string; body: string }> }> {
  const hooks: Array<{ signature: string; body: string }> = [];
  const routes: Record<string, RouteHandler> = {
    '/hook': (req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        hooks.push({ signature: String(req.headers['pluck-signature'] ?? ''), body });
        res.writeHead(204).end();
      });
    },
    '/': (_req, res) => page(res, 'Home', `<p>The home page.</p>${links('/docs', '/blog', '/private/secret')}`),
    '/docs': (_req, res) => page(res, 'Docs', `<p>The documentation.</p>${links('/docs/a', '/docs/b', '/blog/1', '/')}`),
    '/docs/a': (_req, res) => page(res, 'Docs A', `<p>Chapter A of the documentation.</p>${links('/docs/a/deep', '/docs/b')}`),
    '/docs/a/deep': (_req, res) => page(res, 'Docs A deep', `<p>A deeper page of chapter A.</p>${links('/docs')}`),
    '/docs/b': (_req, res) => page(res, 'Docs B', `<p>Chapter B of the documentation.</p>${links('/docs', `${REFUSED_ORIGIN}/docs/evil`)}`),
    '/docs/orphan': (_req, res) => page(res, 'Docs orphan', '<p>Only the sitemap names this page.</p>'),
    '/blog': (_req, res) => page(res, 'Blog', `<p>The blog.</p>${links('/blog/1', '/blog/2', '/docs')}`),
    '/blog/1': (_req, res) => page(res, 'Blog 1', `<p>The first post.</p>${links('/blog/2')}`),
    '/blog/2': (_req, res) => page(res, 'Blog 2', `<p>The second post.</p>${links('/blog/1')}`),
    '/private/secret': (_req, res) => page(res, 'Secret', '<p>robots.txt keeps crawlers out.</p>'),
    '/robots.txt': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private\n'),
    '/sitemap.xml': (_req, res, server) =>
      res
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${server.origin}/docs/orphan</loc></url><url><loc>${server.origin}/blog/2</loc></url></urlset>`),
  };
  for (let n = 0; n < 6; n += 1) {
    routes[`/slow/${n}`] = (_req, res) => void setTimeout(() => page(res, `Slow ${n}`, `<p>A slow page.</p>${links(...Array.from({ length: 6 }, (_, m) => `/slow/${m}`))}`), 1500);
  }
  for (let n = 0; n < 3; n += 1) {
    // The bulk is a comment: rawHtml keeps it, and the browser has nothing to lay out.
    routes[`/big/${n}`] = (_req, res) => page(res, `Big ${n}`, `<p>Big page ${n}.</p><!-- ${`big${n} `.repeat(BIG_PAGE_CHARS / 5)} -->`);
  }
  return Object.assign(await startRecordingServer(routes), { hooks });
}

export interface JobWorld {
  site: Awaited<ReturnType<typeof startJobSite>>;
  server: TestServer;
  api: ReturnType<typeof apiClient>;
  key: string;
  close(): Promise<void>;
}

/** Pluck with the job runner polling often, the small site allowed, and one account with an API key. */
export async function startJobWorld(): Promise<JobWorld> {
  const site = await startJobSite();
  const server = await startTestServer('sqlite', {
    ALLOW_PRIVATE_HOSTS: site.hostPort,
    FREE_JOBS_AT_ONCE: '6',
    JOB_CONCURRENCY: '3',
    JOB_POLL_INTERVAL_MS: '200',
    JOB_LEASE_SECONDS: '5',
    LOG_LEVEL: 'warn',
  });
  const api = apiClient(server.baseUrl);
  const { key } = await api.signUpWithKey();
  return {
    site,
    server,
    api,
    key,
    close: async () => {
      await server.close();
      await site.close();
    },
  };
}
