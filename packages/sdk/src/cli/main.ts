import { parseArgs } from 'node:util';
import { createPluck } from '../pluck.js';
import { type Command, type OptionValues, UsageError } from './command.js';
import { COMMANDS } from './commands.js';
import { describeError, EXIT, type ExitCode, exitCodeFor } from './exit-codes.js';
import { type CliIo, processIo } from './io.js';

const GLOBAL_OPTIONS = {
  'api-key': { type: 'string' },
  'pluck-url': { type: 'string' },
  json: { type: 'boolean' },
  timeout: { type: 'string' },
  retries: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const DEFAULT_TIMEOUT_SECONDS = 120;

const GLOBAL_HELP = `Options for every command:
  --api-key KEY     API key (default: PLUCK_API_KEY).
  --pluck-url URL   Where Pluck answers (default: PLUCK_URL, else http://localhost:3000).
  --json            JSON output instead of text.
  --timeout SECS    Give up on a request after this long (default ${DEFAULT_TIMEOUT_SECONDS}).
  --retries N       Ask again this often on 429/503, as Retry-After says (default 2).
  -h, --help        Help.

Exit codes: 0 done, 1 other failure, 2 usage (or a request Pluck refused as malformed),
3 API key refused, 4 out of credits or over a limit, 5 the page/target failed,
6 Pluck failed or did not answer.`;

function commandHelp(name: string, command: Command): string {
  const args = command.args.join(' ');
  return `${command.summary}.\n\nUsage: pluck ${name} ${args} ${command.usage}\n\n${command.details}\n\n${GLOBAL_HELP}`;
}

function overview(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  return [
    'pluck: web pages as markdown, screenshots and PDFs, and web search, from a Pluck server.',
    '',
    'Usage: pluck <command> [arguments] [options]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`),
    '',
    'Run pluck <command> --help for its options.',
    '',
    GLOBAL_HELP,
  ].join('\n');
}

function settings(values: OptionValues, env: Record<string, string | undefined>) {
  const apiKey = (values['api-key'] as string | undefined) ?? env.PLUCK_API_KEY;
  if (!apiKey) throw new UsageError('no API key: set PLUCK_API_KEY or pass --api-key');
  const baseUrl = (values['pluck-url'] as string | undefined) ?? env.PLUCK_URL ?? 'http://localhost:3000';
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) throw new UsageError(`PLUCK_URL / --pluck-url is not an http(s) URL: ${baseUrl}`);
  const timeout = values.timeout === undefined ? DEFAULT_TIMEOUT_SECONDS : Number(values.timeout);
  if (!Number.isFinite(timeout) || timeout <= 0 || timeout > 3600) throw new UsageError(`--timeout takes seconds from 1 to 3600, not "${String(values.timeout)}"`);
  const retries = values.retries === undefined ? 2 : Number(values.retries);
  if (!Number.isInteger(retries) || retries < 0 || retries > 10) throw new UsageError(`--retries takes 0 to 10, not "${String(values.retries)}"`);
  return { apiKey, baseUrl, timeoutMs: timeout * 1000, retries };
}

/** Runs one command line (without `node` and the script); answers the exit code. */
export async function runPluck(argv: string[], env: Record<string, string | undefined>, io: CliIo = processIo): Promise<ExitCode> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? rest[0] : undefined;
    const command = topic ? COMMANDS[topic] : undefined;
    io.out(command ? commandHelp(topic!, command) : overview());
    return EXIT.OK;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`pluck: unknown command "${name}"\n\n${overview()}`);
    return EXIT.USAGE;
  }
  try {
    const { values, positionals } = parseArgs({ args: rest, options: { ...GLOBAL_OPTIONS, ...command.options }, allowPositionals: true, strict: true });
    if (values.help) {
      io.out(commandHelp(name, command));
      return EXIT.OK;
    }
    if (positionals.length !== command.args.length) {
      throw new UsageError(`pluck ${name} takes ${command.args.join(' ')}; got ${positionals.length === 0 ? 'none' : positionals.join(' ')}`);
    }
    const { apiKey, baseUrl, timeoutMs, retries } = settings(values, env);
    const pluck = createPluck({ apiKey, baseUrl, retries });
    return await command.run({ pluck, apiKey, baseUrl, io, values, args: positionals, signal: () => AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    // parseArgs' own errors (unknown option, missing value) carry an ERR_PARSE_ARGS_* code.
    const parseError = (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    if (error instanceof UsageError || parseError) {
      io.err(`pluck ${name}: ${(error as Error).message}\n\nUsage: pluck ${name} ${command.args.join(' ')} ${command.usage}\nRun pluck ${name} --help for more.`);
      return EXIT.USAGE;
    }
    io.err(`pluck ${name}: ${describeError(error)}`);
    return exitCodeFor(error);
  }
}
