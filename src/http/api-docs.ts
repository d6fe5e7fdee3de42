import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Scalar } from '@scalar/hono-api-reference';
import type { Hono } from 'hono';
import type { AppEnv } from './context.js';

/** Where the API reference's script is served from: this service, never a third-party origin. */
export const REFERENCE_SCRIPT_PATH = '/docs/scalar-api-reference.js';

/**
 * The interactive API reference at /docs, working offline: Scalar's page, its script served by
 * Pluck itself from the pinned @scalar/api-reference package (copied into dist/docs by the build;
 * read from node_modules when running from source), no default fonts, no telemetry, and a
 * Content-Security-Policy that lets the page load and talk to nothing but this origin. The
 * dashboard's session lives on this origin, so no script from elsewhere may run here.
 */
export function mountApiDocs(app: Hono<AppEnv>): void {
  const configuration = {
    url: '/openapi.json',
    pageTitle: 'Pluck API',
    cdn: REFERENCE_SCRIPT_PATH,
    withDefaultFonts: false,
    telemetry: false,
    showDeveloperTools: 'never',
    // Its AI chat fetches a registry through Scalar's proxy: nothing here may reach them.
    agent: { disabled: true },
  };
  const reference = Scalar(configuration as Parameters<typeof Scalar>[0]);
  let script: Promise<Buffer> | undefined;

  app.get('/docs', async (c, next) => {
    const page = (await reference(c as unknown as Parameters<typeof reference>[0], next)) as Response;
    // Scalar's page configures itself in an inline script: a nonce lets exactly that one run.
    const nonce = randomBytes(16).toString('base64');
    const html = (await page.text())
      .replaceAll('<script', `<script nonce="${nonce}"`)
      .replace('</head>', '<link rel="icon" href="/favicon.svg" type="image/svg+xml" /></head>');
    return c.html(html, 200, { 'Content-Security-Policy': docsPolicy(nonce), 'X-Content-Type-Options': 'nosniff' });
  });

  app.get(REFERENCE_SCRIPT_PATH, async (c) => {
    script ??= readFile(referenceScriptFile());
    return c.body(new Uint8Array(await script), 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=86400',
      'X-Content-Type-Options': 'nosniff',
    });
  });
}

function docsPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'self' 'nonce-${nonce}'`,
    // Scalar (Vue) sets styles inline.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** dist/docs/ in a build, the package itself when running from source. */
function referenceScriptFile(): string {
  const built = fileURLToPath(new URL('../docs/scalar-api-reference.js', import.meta.url));
  if (import.meta.url.includes('/dist/')) return built;
  return createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js');
}
