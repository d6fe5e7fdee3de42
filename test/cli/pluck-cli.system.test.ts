import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPluck } from '../../packages/sdk/src/cli/main.js';
import type { CliIo } from '../../packages/sdk/src/cli/io.js';
import { apiClient } from '../helpers/client.js';
import { type BuiltPluckCli, buildPluckCli } from '../helpers/pluck-cli.js';
import { PNG_SIGNATURE, type PluckUnderTest, startPluckUnderTest } from '../sdk/sdk-fixtures.js';

describe('the pluck CLI against a running Pluck', { timeout: 60_000 }, () => {
  let pluckServer: PluckUnderTest;
  let cli: BuiltPluckCli;
  let env: Record<string, string>;
  let work: string;

  beforeAll(async () => {
    [pluckServer, cli, work] = await Promise.all([startPluckUnderTest(), buildPluckCli(), mkdtemp(join(tmpdir(), 'pluck-cli-'))]);
    const { key } = await apiClient(pluckServer.server.baseUrl).signUpWithKey();
    env = { PLUCK_API_KEY: key, PLUCK_URL: pluckServer.server.baseUrl };
  });
  afterAll(async () => {
    await Promise.all([pluckServer?.close(), cli?.remove(), work && rm(work, { recursive: true, force: true })]);
  });

  const articleUrl = () => `${pluckServer.site.origin}/article`;

  it('prints help with every command and the exit codes, and exits 2 on a usage mistake', async () => {
    const help = await cli.run(['--help'], {});
    expect(help.code).toBe(0);
    for (const name of ['markdown', 'screenshot', 'pdf', 'search', 'batch']) expect(help.stdout.toString()).toContain(`  ${name} `);
    expect(help.stdout.toString()).toContain('3 API key refused');
    const commandHelp = await cli.run(['batch', '--help'], {});
    expect(commandHelp.stdout.toString()).toContain('Usage: pluck batch FILE --out DIR');

    for (const args of [['markdown'], ['markdown', articleUrl(), '--frobnicate'], ['fetch', articleUrl()], ['batch', 'urls.txt', '--out', work, '--concurrency', '99']]) {
      const wrong = await cli.run(args, env);
      expect(wrong.code, `${args.join(' ')}: ${wrong.stderr}`).toBe(2);
      expect(wrong.stdout.length).toBe(0);
    }
    const noKey = await cli.run(['markdown', articleUrl()], { PLUCK_URL: pluckServer.server.baseUrl });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('PLUCK_API_KEY');
  });

  it('prints markdown to stdout, and the whole answer with --json', async () => {
    const text = await cli.run(['markdown', articleUrl()], env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.toString()).toMatch(/^# The Difference Engine/);
    expect(text.stderr).toBe('');

    const json = await cli.run(['markdown', articleUrl(), '--json'], env);
    const answer = JSON.parse(json.stdout.toString());
    expect(answer).toMatchObject({ success: true, creditsCost: expect.any(Number), requestId: expect.any(String) });
    expect(answer.data.metadata.title).toBe('SDK Fixture');

    const missing = await cli.run(['markdown', `${pluckServer.site.origin}/missing`], env);
    expect(missing.code).toBe(5);
    expect(missing.stdout.toString()).toContain('Nothing here');
    expect(missing.stderr).toContain('the page answered HTTP 404');
  });

  it('runs actions on the page from --action flags and --actions-file, and refuses one that is not JSON', async () => {
    const file = join(work, 'actions.json');
    await writeFile(file, JSON.stringify([{ type: 'executeJavascript', script: "document.querySelector('h1').textContent = 'Renamed by an action'" }]));
    const acted = await cli.run(['markdown', articleUrl(), '--actions-file', file, '--action', '{"type":"executeJavascript","script":"return document.title"}', '--json'], env);
    expect(acted.code, acted.stderr).toBe(0);
    const answer = JSON.parse(acted.stdout.toString());
    expect(answer.data.markdown).toContain('# Renamed by an action');
    expect(answer.data.actions.javascriptReturns).toEqual([
      { type: 'string', value: 'Renamed by an action' },
      { type: 'string', value: 'SDK Fixture' },
    ]);
    const wrong = await cli.run(['markdown', articleUrl(), '--action', '{click}'], env);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--action is not JSON');
  });

  it('writes a screenshot with -o, and a PDF to a pipe', async () => {
    const file = join(work, 'shot.png');
    const shot = await cli.run(['screenshot', articleUrl(), '-o', file, '--full-page'], env);
    expect(shot.code, shot.stderr).toBe(0);
    expect((await readFile(file)).subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(shot.stderr).toContain('wrote');

    const piped = await cli.run(['pdf', articleUrl()], env);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('searches, one result a paragraph', async () => {
    const search = await cli.run(['search', 'analytical engine', '--limit', '2'], env);
    expect(search.code, search.stderr).toBe(0);
    const paragraphs = search.stdout.toString().trim().split('\n\n');
    expect(paragraphs).toHaveLength(2);
    expect(paragraphs[0]!.split('\n')[1]).toMatch(/^https?:\/\//);
  });

  it('exits 3 when the key is refused, naming the code and the request id', async () => {
    const refused = await cli.run(['markdown', articleUrl()], { ...env, PLUCK_API_KEY: 'pk_revoked-or-made-up' });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/UNAUTHORIZED: .+ \(request [0-9a-f-]{36}\)/);
    expect(refused.stdout.length).toBe(0);
  });

  it('exits 4 when the credits run out, and a batch stops there', async () => {
    const { key, userId } = await apiClient(pluckServer.server.baseUrl).signUpWithKey();
    await pluckServer.server.ctx.database.db.updateTable('credit_balance').set({ balance: 0 }).where('user_id', '=', userId).execute();
    const broke = { ...env, PLUCK_API_KEY: key };
    const single = await cli.run(['markdown', articleUrl()], broke);
    expect(single.code).toBe(4);
    expect(single.stderr).toContain('INSUFFICIENT_CREDITS');
    const list = join(work, 'broke.txt');
    await writeFile(list, [1, 2, 3].map((n) => `${articleUrl()}?n=${n}`).join('\n'));
    const batch = await cli.run(['batch', list, '--out', join(work, 'broke-out'), '--concurrency', '1'], broke);
    expect(batch.code).toBe(4);
    expect(batch.stderr).toContain('done 0, failed 1, skipped 2, credits 0');
  });

  it('exits 5 for a target that fails and 6 when Pluck does not answer', async () => {
    const target = await cli.run(['markdown', pluckServer.unreachableUrl], env);
    expect(target.code, target.stderr).toBe(5);
    expect(target.stderr).toContain('TARGET_UNREACHABLE');
    const noPluck = await cli.run(['markdown', articleUrl(), '--pluck-url', pluckServer.unreachableUrl], env);
    expect(noPluck.code, noPluck.stderr).toBe(6);
  });

  it('runs a batch from a file, with a summary, and exits with the failure kind', async () => {
    const list = join(work, 'urls.txt');
    await writeFile(list, `# pages to keep\n${articleUrl()}\n\n${pluckServer.unreachableUrl}\n${articleUrl()}?copy=2\n${pluckServer.site.origin}/missing\n`);
    const out = join(work, 'batch-out');
    const batch = await cli.run(['batch', list, '--format', 'markdown', '--out', out, '--concurrency', '2', '--json'], env);
    expect(batch.code, batch.stderr).toBe(5);
    expect(batch.stderr).toContain('done 2, failed 2, credits 3');
    expect(batch.stderr).toContain(`failed ${pluckServer.unreachableUrl}: TARGET_UNREACHABLE`);
    const files = (await readdir(out)).sort();
    // The 404 page is written (its content is what it said) but counted as failed.
    expect(files).toEqual([
      expect.stringMatching(/^1-127\.0\.0\.1-\d+-article\.md$/),
      expect.stringMatching(/^3-127\.0\.0\.1-\d+-article-copy-2\.md$/),
      expect.stringMatching(/^4-127\.0\.0\.1-\d+-missing\.md$/),
    ]);
    expect(batch.stderr).toMatch(/failed http:\/\/127\.0\.0\.1:\d+\/missing: the page answered HTTP 404/);
    expect(await readFile(join(out, files[0]!), 'utf8')).toContain('# The Difference Engine');
    const summary = JSON.parse(batch.stdout.toString());
    expect(summary).toMatchObject({ done: 2, failed: 2, skipped: 0, credits: 3 });
    expect(summary.results[1]).toMatchObject({ url: pluckServer.unreachableUrl, error: { code: 'TARGET_UNREACHABLE', exitCode: 5, requestId: expect.any(String) } });
  });

  it('draws a progress line on a terminal, and stops a batch whose key is refused', async () => {
    const list = join(work, 'progress.txt');
    await writeFile(list, `${articleUrl()}\n${articleUrl()}?two\n`);
    const lines: string[] = [];
    const statuses: string[] = [];
    const io: CliIo = {
      out: (text) => lines.push(text),
      outBytes: async () => undefined,
      err: (text) => lines.push(text),
      status: (text) => statuses.push(text),
      stderrIsTty: true,
      stdoutIsTty: true,
      writeFile: (path, bytes) => writeFile(path, bytes),
    };
    const code = await runPluck(['batch', list, '--out', join(work, 'progress-out'), '--concurrency', '1'], env, io);
    expect(code).toBe(0);
    expect(statuses).toEqual(expect.arrayContaining(['[0/2] done 0, failed 0', '[1/2] done 1, failed 0', '[2/2] done 2, failed 0']));
    expect(lines).toContain('done 2, failed 0, credits 2');

    lines.length = 0;
    const refusedCode = await runPluck(['batch', list, '--out', join(work, 'refused-out'), '--concurrency', '1'], { ...env, PLUCK_API_KEY: 'pk_made-up' }, io);
    expect(refusedCode).toBe(3);
    expect(lines).toContain('done 0, failed 1, skipped 1, credits 0');
  });

  it('crawls a site into a zip of markdown files, or JSON lines on stdout', async () => {
    const zipPath = join(work, 'site.zip');
    const zipped = await cli.run(['crawl', articleUrl(), '--limit', '2', '-o', zipPath], env);
    expect(zipped.code, zipped.stderr).toBe(0);
    expect(zipped.stderr).toMatch(/completed: done 2, failed 0, credits 2; wrote /);
    const files = unzipSync(new Uint8Array(await readFile(zipPath)));
    const host = new URL(pluckServer.site.origin).hostname;
    expect(new TextDecoder().decode(files[`${host}/article.md`])).toContain('The Difference Engine');

    const lines = await cli.run(['crawl', articleUrl(), '--limit', '1'], env);
    expect(lines.code, lines.stderr).toBe(0);
    const results = lines.stdout.toString().trim().split('\n').map((line) => JSON.parse(line));
    expect(results).toEqual([expect.objectContaining({ url: articleUrl(), status: 'completed', data: expect.objectContaining({ markdown: expect.stringContaining('The Difference Engine') }) })]);

    const refused = await cli.run(['crawl', 'http://169.254.169.254/'], env);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain('URL_NOT_ALLOWED');
  });

});
