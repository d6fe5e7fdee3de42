import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface PluckCliRun {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

export interface BuiltPluckCli {
  /** The built CLI's file, for a test that starts it itself (`node <entry> mcp`). */
  entry: string;
  run(args: string[], env: Record<string, string>, options?: { cwd?: string }): Promise<PluckCliRun>;
  remove(): Promise<void>;
}

/**
 * Builds the `pluck` CLI from packages/sdk/src/cli/run.ts into one JavaScript file once, so
 * each run is a bare `node` start, as the installed bin is (tsx would compile it every run).
 */
export async function buildPluckCli(): Promise<BuiltPluckCli> {
  const cache = join(ROOT, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  const outdir = await mkdtemp(join(cache, 'pluck-cli-'));
  await build({
    entryPoints: [join(ROOT, 'packages/sdk/src/cli/run.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outdir,
    logLevel: 'error',
  });
  return {
    entry: join(outdir, 'run.js'),
    run: (args, env, options = {}) =>
      new Promise((resolve, reject) => {
        // Only what the test gives: PLUCK_* from the developer's shell must not leak in.
        const { PLUCK_API_KEY: _key, PLUCK_URL: _url, ...inherited } = process.env;
        const child = spawn(process.execPath, [join(outdir, 'run.js'), ...args], {
          cwd: options.cwd ?? ROOT,
          env: { ...inherited, ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const stdout: Buffer[] = [];
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
        child.stderr.on('data', (chunk) => (stderr += chunk));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout: Buffer.concat(stdout), stderr }));
      }),
    remove: () => rm(outdir, { recursive: true, force: true }),
  };
}
