/**
 * The three lanes of the suite, chosen by file name (docs/development.md, "Test lanes"):
 *
 * - `*.unit.test.ts`: pure modules, run in threads, many at once. No Pluck server, no Chromium,
 *   no database, no Redis, no child process (in-process loopback stand-ins are fine).
 * - `*.system.test.ts`: whole processes and the heaviest runs: spawned servers, workers and
 *   CLIs, the 208-page crawl, the dashboard driven in a browser.
 * - every other `*.test.ts`: integration, a test server with SQLite (and PostgreSQL and Redis
 *   when they answer) and Chromium, each file in a process of its own.
 *
 * vitest.config.ts builds its projects from these globs; test/lanes.unit.test.ts holds every
 * test file to exactly one lane and the unit lane to its promise.
 */
export const TEST_ROOTS = ['test', 'src'];
export const ALL_TESTS = TEST_ROOTS.map((root) => `${root}/**/*.test.ts`);
export const UNIT_TESTS = TEST_ROOTS.map((root) => `${root}/**/*.unit.test.ts`);
export const SYSTEM_TESTS = TEST_ROOTS.map((root) => `${root}/**/*.system.test.ts`);

export type Lane = 'unit' | 'integration' | 'system';

/** The lane of a test file by its name, as the projects' globs decide it. */
export function laneOf(file: string): Lane {
  if (file.endsWith('.unit.test.ts')) return 'unit';
  if (file.endsWith('.system.test.ts')) return 'system';
  return 'integration';
}
