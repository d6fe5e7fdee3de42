import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface BuiltCli {
  run(args: string[], env: Record<string, string>, stdin?: string): Promise<CliRun>;
  remove(): Promise<void>;
}

/**
 * Builds `npm run admin` from src/cli/admin.ts into plain JavaScript once (packages stay
 * imports, resolved from this checkout's node_modules), so each run is a bare `node` start:
 * under tsx every run compiled the whole service again, seconds per command.
 */
export async function buildAdminCli(): Promise<BuiltCli> {
  const cache = join(ROOT, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  const outdir = await mkdtemp(join(cache, 'pluck-admin-cli-'));
  await build({
    entryPoints: [join(ROOT, 'src/cli/admin.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    splitting: true,
    outdir,
    logLevel: 'error',
  });
  return {
    run: (args, env, stdin) =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [join(outdir, 'admin.js'), ...args], {
          cwd: ROOT,
          env: { ...process.env, LOG_LEVEL: 'warn', ...env },
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk) => (stdout += chunk));
        child.stderr.on('data', (chunk) => (stderr += chunk));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout, stderr }));
        child.stdin.end(stdin ?? '');
      }),
    remove: () => rm(outdir, { recursive: true, force: true }),
  };
}
