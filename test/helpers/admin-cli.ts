import { runAdmin } from '../../src/cli/run-admin.js';
import { bundleCli } from './bundled-cli.js';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface AdminCli {
  run(args: string[], env: Record<string, string>, stdin?: string): Promise<CliRun>;
}

export interface BuiltCli extends AdminCli {
  remove(): Promise<void>;
}

/**
 * The admin CLI called as a function in this process, as its bin calls it: the same arguments,
 * environment and streams (captured here), without a process start per command. Output is
 * what the streams would carry, one line per write; an error the bin would print as a stack
 * answers exit code 1 with that stack on stderr, as the bin does.
 */
export const adminInProcess: AdminCli = {
  run: async (args, env, stdin) => {
    let stdout = '';
    let stderr = '';
    const io = {
      out: (text: string) => void (stdout += `${text}\n`),
      err: (text: string) => void (stderr += `${text}\n`),
      readStdin: async () => stdin ?? '',
    };
    try {
      const code = await runAdmin(args, { ...process.env, LOG_LEVEL: 'warn', ...env }, io);
      return { code, stdout, stderr };
    } catch (error) {
      return { code: 1, stdout, stderr: stderr + (error instanceof Error ? error.stack : String(error)) };
    }
  },
};

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
