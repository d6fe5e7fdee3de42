import { writeFileSync } from 'node:fs';
import { configOutcome, DEFAULTS, ENVIRONMENTS } from './environments.js';

/** Rewrites config-environments.json from what loadConfig makes now. */
const defaults = configOutcome(ENVIRONMENTS[DEFAULTS]!);
if (!('config' in defaults)) throw new Error(`the defaults make no config: ${JSON.stringify(defaults)}`);
const outcomes = Object.fromEntries(
  Object.entries(ENVIRONMENTS).map(([name, env]) => [name, name === DEFAULTS ? defaults : configOutcome(env, defaults.config)]),
);
writeFileSync(new URL('config-environments.json', import.meta.url), `${JSON.stringify(outcomes, null, 2)}\n`);
