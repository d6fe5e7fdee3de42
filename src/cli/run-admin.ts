import { parseArgs } from 'node:util';
import { createSmtpMailer, type Mailer } from '../auth/mailer.js';
import { ConfigError, type Config, loadConfig } from '../config.js';
import { type Command, CommandError, COMMANDS, UsageError } from './commands.js';
import { type CliIo, processIo } from './output.js';

const PREFIX = 'npm run admin --';

function usageLine(name: string, command: Command): string {
  return `${PREFIX} ${name} ${command.usage}`;
}

function commandHelp(name: string, command: Command): string {
  return `${command.summary}.\n\nUsage:\n  ${usageLine(name, command)}\n\n${command.details}\n  --help  Show this help.`;
}

function overview(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`);
  return [
    'Operate Pluck accounts from the server, without SQL. Uses the same settings as the service',
    '(DATA_DIR or DATABASE_URL, SMTP_URL, ADMIN_EMAILS, ...).',
    '',
    `Usage: ${PREFIX} <command> [options]`,
    '',
    'Commands:',
    ...lines,
    '',
    `Run ${PREFIX} <command> --help for a command's options.`,
  ].join('\n');
}

/**
 * Mail for the CLI: by SMTP when SMTP_URL is set; otherwise the link is printed on stdout, for
 * the operator to hand over (the service would only have logged it).
 */
function cliMailer(config: Config, io: CliIo): Mailer {
  if (config.smtpUrl) return createSmtpMailer(config.smtpUrl, config.mailFrom);
  return { delivery: 'log', send: async (message) => io.out(message.link ?? message.text) };
}

/**
 * Runs one command; answers the exit code (0 done, 1 failed, 2 misused). The bin (`admin.ts`) only
 * hands it the process's arguments, environment and streams; tests call it in-process.
 */
export async function runAdmin(argv: string[], env: Record<string, string | undefined>, io: CliIo = processIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? rest[0] : undefined;
    const command = topic ? COMMANDS[topic] : undefined;
    io.out(command ? commandHelp(topic!, command) : overview());
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`Unknown command: ${name}\n\n${overview()}`);
    return 2;
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: rest, options: { ...command.options, help: { type: 'boolean', short: 'h' } }, strict: true }));
  } catch (error) {
    io.err(`${error instanceof Error ? error.message : String(error)}\n\nUsage:\n  ${usageLine(name, command)}`);
    return 2;
  }
  if (values.help) {
    io.out(commandHelp(name, command));
    return 0;
  }

  let config: Config;
  try {
    // The CLI runs no jobs: a runner here would take a job up only to give it back at exit.
    config = loadConfig({ ...env, LOG_LEVEL: env.LOG_LEVEL ?? 'warn', JOBS_RUNNER: 'off' });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.err(error.message);
    return 1;
  }
  // Loaded only now: help and usage errors answer at once, without the whole service.
  const { closeContext, createContext } = await import('../container.js');
  const ctx = await createContext(config, { mailer: cliMailer(config, io) });
  try {
    await command.run(ctx, values, io);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n\nUsage:\n  ${usageLine(name, command)}`);
      return 2;
    }
    if (error instanceof CommandError) {
      io.err(error.message);
      return 1;
    }
    throw error;
  } finally {
    await closeContext(ctx);
  }
}
