import { z } from 'zod';
import { authSection } from './config/auth.js';
import { browserSection } from './config/browser.js';
import { egressSection } from './config/egress.js';
import { jobsSection } from './config/jobs.js';
import { plansSection } from './config/plans.js';
import { providersSection } from './config/providers.js';
import { serverSection } from './config/server.js';
import { storesSection } from './config/stores.js';
import { webSection } from './config/web.js';

/**
 * Every setting Pluck reads, parsed once from the environment. Nothing else in the code reads
 * `process.env`; tests build a config from a plain object.
 *
 * Each section (src/config/*.ts) is a schema over the variables it reads, each with its
 * default, its check and its comment, that turns them into its part of the config; the config
 * is what the sections make together, so its type is their output and nothing is written twice.
 * Every section reads the whole environment and keeps the variables it knows; `.and` runs all
 * of them, so the problems of every section, checks across variables included, come at once.
 */
export const configSchema = serverSection
  .and(authSection)
  .and(storesSection)
  .and(browserSection)
  .and(egressSection)
  .and(plansSection)
  .and(providersSection)
  .and(webSection)
  .and(jobsSection);

export type Config = z.output<typeof configSchema>;

export type { PlanName } from './config/plans.js';
export type PlanLimits = Config['plans']['free'];
export type AuthLimitsConfig = Config['authLimits'];
export type RedisConfig = Config['redis'];
export type FilesConfig = Config['files'];
export type S3Config = NonNullable<Config['s3']>;
export type BrowserConfig = Config['browser'];
export type EgressConfig = Config['egress'];
export type WebConfig = Config['web'];
export type WebOperation = keyof WebConfig['creditCosts'];
export type CacheLimits = WebConfig['cacheLimits'];
export type SearchConfig = Config['search'];
export type CaptionsConfig = Config['captions'];
export type AiConfig = Config['ai'];
export type JobsConfig = Config['jobs'];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment, listing every problem at once rather than failing on the first. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  // An empty value counts as unset, as shells and compose files tend to leave them.
  const defined = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = configSchema.safeParse(defined);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message)));
  }
  return parsed.data;
}
