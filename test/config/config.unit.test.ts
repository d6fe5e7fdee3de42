import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ConfigError, configSchema, loadConfig } from '../../src/config.js';
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
      // Problems in any order: each section lists its own.
      if ('problems' in outcome && 'problems' in expected) expect([...outcome.problems].sort()).toEqual([...expected.problems].sort());
      else expect(outcome).toStrictEqual(expected);
    });
  }

  it('sets every variable the config reads in "every variable set"', () => {
    expect(Object.keys(ENVIRONMENTS['every variable set']!).sort()).toEqual(variablesRead().sort());
  });
});

describe('loadConfig problems', () => {
  it('lists the checks across variables together with every other problem', () => {
    const env = { PORT: 'eighty', FREE_ACCOUNT_REQUESTS_PER_HOUR: '999', EGRESS_PROXY_PUBLIC_URL: 'http://pluck-1.lan:3128', S3_REGION: 'auto' };
    let thrown: unknown;
    try {
      loadConfig(env);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const problems = (thrown as ConfigError).problems;
    expect([...problems].sort()).toEqual([
      'EGRESS_PROXY_PORT: set a fixed port when EGRESS_PROXY_PUBLIC_URL is set, so the advertised address stays valid',
      'FREE_ACCOUNT_REQUESTS_PER_HOUR: must be at least FREE_REQUESTS_PER_HOUR (1000)',
      'PORT: Invalid input: expected number, received NaN',
      'S3_BUCKET: required when any S3_ variable is set (found S3_REGION)',
    ]);
    expect((thrown as ConfigError).message).toBe(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  });
});

describe('the documentation', () => {
  it('names every variable the config reads, in docs/configuration.md or a page it points to', () => {
    const docs = readdirSync('docs')
      .filter((file) => file.endsWith('.md'))
      .map((file) => readFileSync(`docs/${file}`, 'utf8'))
      .join('\n');
    expect(variablesRead().filter((name) => !docs.includes(`\`${name}\``))).toEqual([]);
  });
});

/** The environment variables the config's sections read, from their object schemas. */
function variablesRead(): string[] {
  const names = new Set<string>();
  const visit = (schema: z.core.$ZodType): void => {
    const def = (schema as z.core.$ZodTypes)._zod.def;
    if (def.type === 'intersection') [def.left, def.right].forEach(visit);
    else if (def.type === 'pipe') visit(def.in);
    else if (def.type === 'object') Object.keys(def.shape).forEach((name) => names.add(name));
  };
  visit(configSchema);
  expect(names).toContain('PORT');
  return [...names];
}
