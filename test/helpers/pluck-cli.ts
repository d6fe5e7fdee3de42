import { type BundledRun, bundleCli } from './bundled-cli.js';

export type PluckCliRun = BundledRun;

export interface BuiltPluckCli {
  /** The built CLI's file, for a test that starts it itself (`node <entry> mcp`). */
  entry: string;
  run(args: string[], env: Record<string, string>, options?: { cwd?: string }): Promise<PluckCliRun>;
  remove(): Promise<void>;
}

/** The `pluck` CLI, built once from packages/sdk/src/cli/run.ts into one file, as the installed bin runs it. */
export async function buildPluckCli(): Promise<BuiltPluckCli> {
  const cli = await bundleCli('packages/sdk/src/cli/run.ts', false);
  return {
    entry: cli.entry,
    run: (args, env, options = {}) => {
      // Only what the test gives: PLUCK_* from the developer's shell must not leak in.
      const { PLUCK_API_KEY: _key, PLUCK_URL: _url, ...inherited } = process.env;
      return cli.run(args, { env: { ...inherited, ...env } as Record<string, string>, cwd: options.cwd });
    },
    remove: cli.remove,
  };
}
