import type { ParseArgsConfig } from 'node:util';
import type { Pluck } from '../pluck.js';
import type { ExitCode } from './exit-codes.js';
import type { CliIo } from './io.js';

export type OptionValues = Record<string, string | boolean | string[] | undefined>;

export interface CommandRun {
  pluck: Pluck;
  /** The resolved settings, for a command that talks to Pluck other than through `pluck` (the MCP bridge). */
  apiKey: string;
  baseUrl: string;
  io: CliIo;
  values: OptionValues;
  /** The positionals the command declared, in order, all present. */
  args: string[];
  /** Aborts each request after --timeout. */
  signal: () => AbortSignal;
}

export interface Command {
  summary: string;
  /** Positional arguments, all required, e.g. ['URL']. */
  args: string[];
  /** The options after the positionals, for the help line. */
  usage: string;
  details: string;
  options: NonNullable<ParseArgsConfig['options']>;
  run(run: CommandRun): Promise<ExitCode>;
}

/** A mistake on the command line found after parsing (exit 2). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A positive whole number from a flag, within [min, max]. */
export function intOption(values: OptionValues, name: string, fallback: number, min: number, max: number): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (typeof raw !== 'string' || !/^\d+$/.test(raw) || value < min || value > max) {
    throw new UsageError(`--${name} takes a whole number from ${min} to ${max}, not "${String(raw)}"`);
  }
  return value;
}

/** Pretty JSON for --json: one document on stdout. */
export const toJson = (value: unknown) => JSON.stringify(value, null, 2);
