import { z } from 'zod';

/** How values are spelled in the environment: the parsers the config sections share. */

export const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

export const commaList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0),
  );

export const positiveInt = z.coerce.number().int().positive();
export const nonNegativeInt = z.coerce.number().int().min(0);
export const portNumber = z.coerce.number().int().min(0).max(65535);
export const httpUrl = z.url({ protocol: /^https?$/ });

export function stripTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * A rule over the environment as it was given, before parsing and defaults (so that it sees
 * names no section reads, and runs even when a value is invalid). It adds nothing to the config.
 */
export function environmentRule(problemsOf: (env: Record<string, string>) => string[]) {
  return z
    .record(z.string(), z.string())
    .superRefine((env, ctx) => {
      for (const message of problemsOf(env)) ctx.addIssue({ code: 'custom', message });
    })
    .transform(() => ({}));
}
