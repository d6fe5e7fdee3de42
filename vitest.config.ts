import { configDefaults, defineConfig } from 'vitest/config';
import { ALL_TESTS, SYSTEM_TESTS, UNIT_TESTS } from './test/lanes.js';

/**
 * Three projects, one per lane (test/lanes.ts), run one after another (sequence.groupOrder):
 * unit first, so a broken pure module fails within seconds, then integration, then system.
 * Worker counts were measured on the 2-core development machine (docs/development.md).
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: UNIT_TESTS,
          pool: 'threads',
          maxWorkers: 4,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ALL_TESTS,
          exclude: [...configDefaults.exclude, ...UNIT_TESTS, ...SYSTEM_TESTS],
          pool: 'forks',
          maxWorkers: 3,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'system',
          include: SYSTEM_TESTS,
          pool: 'forks',
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
