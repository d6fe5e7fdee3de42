import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configOutcome, type ConfigOutcome, DEFAULTS, ENVIRONMENTS } from './environments.js';

/** Recorded by record-config.ts; see environments.ts. */
const recorded = JSON.parse(readFileSync(new URL('config-environments.json', import.meta.url), 'utf8')) as Record<string, ConfigOutcome>;

describe('loadConfig on representative environments', () => {
  it('has a recorded outcome for every environment', () => {
    expect(Object.keys(recorded).sort()).toEqual(Object.keys(ENVIRONMENTS).sort());
  });

  it('makes the recorded config of the defaults', () => {
    expect(configOutcome(ENVIRONMENTS[DEFAULTS]!)).toStrictEqual(recorded[DEFAULTS]);
  });

  const defaults = recorded[DEFAULTS] as { config: unknown };
  for (const [name, env] of Object.entries(ENVIRONMENTS).filter(([name]) => name !== DEFAULTS)) {
    it(`makes the recorded config, or lists the recorded problems, of: ${name}`, () => {
      const outcome = configOutcome(env, defaults.config);
      const expected = recorded[name]!;
      // Problems in any order: each part of the config lists its own.
      if ('problems' in outcome && 'problems' in expected) expect([...outcome.problems].sort()).toEqual([...expected.problems].sort());
      else expect(outcome).toStrictEqual(expected);
    });
  }
});
