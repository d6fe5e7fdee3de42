import { bundleCli } from './bundled-cli.js';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface BuiltCli {
  run(args: string[], env: Record<string, string>, stdin?: string): Promise<CliRun>;
  remove(): Promise<void>;
}

/** `npm run admin`, built once from src/cli/admin.ts (packages stay imports from this checkout's node_modules). */
export async function buildAdminCli(): Promise<BuiltCli> {
  const cli = await bundleCli('src/cli/admin.ts', true);
  return {
    run: async (args, env, stdin) => {
      const { code, stdout, stderr } = await cli.run(args, { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdin: stdin ?? '' });
      return { code, stdout: stdout.toString(), stderr };
    },
    remove: cli.remove,
  };
}
