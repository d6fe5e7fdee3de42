import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
/** For `vite` (the dev server): where a running Pluck answers the API calls it proxies. */
const apiTarget = process.env.PLUCK_API_URL ?? 'http://127.0.0.1:3000';
const apiPaths = ['/v1', '/v2', '/files', '/docs', '/openapi.json'];

/**
 * Builds the dashboard (Preact, no Babel: Vite's own oxc transform handles JSX) into
 * dist/dashboard, which the server serves at `/`. Tests pass their own `build.outDir`.
 */
export default defineConfig({
  root: here,
  base: '/',
  publicDir: 'public',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  // The dev server's origin (http://localhost:5173) must be in Pluck's FRONTEND_URL for
  // better-auth's origin check to accept sign-in; the proxy keeps the browser's Origin.
  server: { proxy: Object.fromEntries(apiPaths.map((path) => [path, { target: apiTarget }])) },
  build: {
    outDir: fileURLToPath(new URL('../dist/dashboard', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // Assets stay files with hashed names rather than data: URLs, so they cache with the bundle.
    assetsInlineLimit: 0,
    // One entry chunk for modern browsers: the modulepreload polyfill would be dead weight.
    modulePreload: { polyfill: false },
    sourcemap: false,
    reportCompressedSize: true,
  },
});
