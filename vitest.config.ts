import { configDefaults, defineConfig } from 'vitest/config';
import { ALL_TESTS, SYSTEM_TESTS, UNIT_TESTS } from './test/lanes.js';

/**
 * Three projects, one per lane (test/lanes.ts), run one after another (sequence.groupOrder):
 * unit first, so a broken pure module fails within seconds, then integration, then system.
 * Worker counts were measured on the 2-core development machine, shared with other runs
 * (docs/development.md, "Test lanes"): unit files take 2-3 s with 1, 2 or 4 threads; the
 * integration and system lanes gain little past 2 processes on 2 cores, and a third made the
 * browser pool's 300 ms queue test miss its window under load. Isolation stays on everywhere:
 * without it the unit lane was no faster, and the other lanes hold module state per process.
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
          maxWorkers: 2,
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
          maxWorkers: 2,
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
