import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltCli, buildAdminCli } from '../helpers/admin-cli.js';

/**
 * The admin CLI's bin, built as `npm run build` builds it and started as its own process: the
 * part admin-cli.test.ts (which calls runAdmin in-process) cannot see, that the bin hands
 * runAdmin the real arguments, environment and streams and exits with its code.
 */
describe('the admin CLI binary', { timeout: 120_000 }, () => {
  let cli: BuiltCli;
  let dataDir: string;

  beforeAll(async () => {
    [cli, dataDir] = await Promise.all([buildAdminCli(), mkdtemp(join(tmpdir(), 'pluck-admin-bin-'))]);
  });
  afterAll(async () => {
    await cli?.remove();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers help on stdout, usage mistakes and bad settings on stderr, each with its exit code', async () => {
    const help = await cli.run(['--help'], { DATA_DIR: '/nonexistent/never-created' });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: npm run admin -- <command> [options]');
    const unknown = await cli.run(['drop-tables'], { DATA_DIR: '/nonexistent/never-created' });
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('Unknown command: drop-tables');
    // A settings problem is a message for the operator, not a stack trace.
    const badSettings = await cli.run(['list-users'], { DATA_DIR: dataDir, FREE_CONCURRENCY: '-1' });
    expect(badSettings.code).toBe(1);
    expect(badSettings.stderr).toContain('FREE_CONCURRENCY');
    expect(badSettings.stderr).not.toMatch(/\n\s+at /);
  });

  it('runs a command against a database, reading a secret from stdin', async () => {
    const env = { DATA_DIR: dataDir };
    const created = await cli.run(['create-key', '--email', 'operator@example.com', '--name', 'ops'], env);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout.trim()).toMatch(/^pk_\S+$/);
    expect(created.stderr).toContain('shown only once');
    const set = await cli.run(['set-password', '--email', 'operator@example.com', '--password-stdin'], env, 'piped by the operator\n');
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toBe('');
    const shown = await cli.run(['show-user', '--email', 'operator@example.com', '--json'], env);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ email: 'operator@example.com', apiKeys: 1 });
  });
});
