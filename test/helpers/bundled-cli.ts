import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface BundledRun {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

export interface BundledCli {
  /** The built file, for a test that starts it itself. */
  entry: string;
  run(args: string[], options: { env: Record<string, string>; stdin?: string; cwd?: string }): Promise<BundledRun>;
  remove(): Promise<void>;
}

/**
 * Builds a command-line entry point of this repository into plain JavaScript once, so each run
 * is a bare `node` start as an installed command is (under tsx every run compiled it again,
 * seconds per command). `externalPackages` leaves npm packages as imports from node_modules.
 */
export async function bundleCli(entryPoint: string, externalPackages: boolean): Promise<BundledCli> {
  const cache = join(ROOT, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  const outdir = await mkdtemp(join(cache, `cli-${basename(entryPoint, '.ts')}-`));
  await build({
    entryPoints: [join(ROOT, entryPoint)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    ...(externalPackages ? { packages: 'external' as const, splitting: true } : {}),
    outdir,
    logLevel: 'error',
  });
  const entry = join(outdir, `${basename(entryPoint, '.ts')}.js`);
  return {
    entry,
    run: (args, { env, stdin, cwd = ROOT }) =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [entry, ...args], { cwd, env, stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
        const stdout: Buffer[] = [];
        let stderr = '';
        child.stdout!.on('data', (chunk: Buffer) => stdout.push(chunk));
        child.stderr!.on('data', (chunk) => (stderr += chunk));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout: Buffer.concat(stdout), stderr }));
        child.stdin?.end(stdin);
      }),
    remove: () => rm(outdir, { recursive: true, force: true }),
  };
}
