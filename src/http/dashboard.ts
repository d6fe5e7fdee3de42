import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import type { MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import type { AppEnv } from './context.js';

/** Paths that belong to the API and its tooling: the dashboard never answers for them. */
const RESERVED_PREFIXES = ['/v1', '/v2', '/files', '/health', '/ready', '/openapi.json', '/docs', '/metrics'];

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/**
 * The dashboard's pages run no inline script or style and talk only to this origin. Result
 * images and PDFs are shown from blob: URLs the page creates; stored-file thumbnails come
 * from the files' public URLs (this service's /files, or the bucket's S3_PUBLIC_URL).
 */
export function dashboardCsp(fileOrigins: string[] = []): string {
  const images = ["'self'", 'blob:', 'data:', ...new Set(fileOrigins)].join(' ');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${images}`,
    "connect-src 'self'",
    'frame-src blob:',
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Origin of each URL, for the CSP; anything unparsable is left out. */
function originsOf(urls: Array<string | undefined>): string[] {
  return urls.flatMap((url) => {
    try {
      return url ? [new URL(url).origin] : [];
    } catch {
      return [];
    }
  });
}

/** Vite puts content-hashed names under /assets/: they never change, so they may be cached for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

function isReserved(path: string): boolean {
  return RESERVED_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

async function readIfFile(path: string): Promise<Buffer | undefined> {
  try {
    if (!(await stat(path)).isFile()) return undefined;
    return await readFile(path);
  } catch {
    return undefined;
  }
}

/**
 * Serves the built single-page dashboard from `dashboardDir`: its files as they are, and
 * index.html for any other GET that asks for HTML (client-side routes such as /keys). API
 * paths, and anything the build does not hold, fall through to the app's 404.
 */
export function serveDashboard(options: {
  dashboardDir: string;
  /** Where stored files' public URLs point (PUBLIC_BASE_URL, S3_PUBLIC_URL): thumbnails load from there. */
  fileBaseUrls: Array<string | undefined>;
  logger: Logger;
}): MiddlewareHandler<AppEnv> {
  const { dashboardDir, logger } = options;
  const securityHeaders = {
    'Content-Security-Policy': dashboardCsp(originsOf(options.fileBaseUrls)),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
  };
  const root = resolve(dashboardDir);
  const indexPath = join(root, 'index.html');
  void stat(indexPath).catch(() =>
    logger.warn({ dashboardDir: root }, 'dashboard not built: run `npm run build` to serve it at /'),
  );

  return async function dashboardMiddleware(c, next) {
    const path = c.req.path;
    if (isReserved(path)) return next();

    let relative: string;
    try {
      relative = decodeURIComponent(path);
    } catch {
      return next();
    }
    const filePath = resolve(root, `.${relative}`);
    // A path that escapes the build folder (../, encoded or not) is never read.
    const inside = filePath === root || filePath.startsWith(root + sep);
    if (inside && !relative.includes('\0') && relative !== '/') {
      const body = await readIfFile(filePath);
      if (body) {
        const type = CONTENT_TYPES[extname(filePath).toLowerCase()] ?? 'application/octet-stream';
        const cache = relative.startsWith('/assets/') ? IMMUTABLE : 'no-cache';
        return c.body(new Uint8Array(body), 200, { ...securityHeaders, 'Content-Type': type, 'Cache-Control': cache });
      }
    }

    const wantsPage = (c.req.header('accept') ?? '').includes('text/html');
    if (!wantsPage || relative.startsWith('/assets/')) return next();
    const index = await readIfFile(indexPath);
    if (!index) return next();
    return c.body(new Uint8Array(index), 200, {
      ...securityHeaders,
      'Content-Type': CONTENT_TYPES['.html']!,
      'Cache-Control': 'no-cache',
    });
  };
}
