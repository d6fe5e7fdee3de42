import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

/**
 * Builds the dashboard with its real Vite config into a fresh temporary folder (what
 * `npm run build` does into dist/dashboard), so tests never depend on an earlier build.
 * Pass the folder to the server as DASHBOARD_DIR.
 */
export async function buildDashboard(): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), 'pluck-dashboard-'));
  await build({
    configFile: fileURLToPath(new URL('../../dashboard/vite.config.ts', import.meta.url)),
    logLevel: 'error',
    build: { outDir, emptyOutDir: true, reportCompressedSize: false },
  });
  return outDir;
}
