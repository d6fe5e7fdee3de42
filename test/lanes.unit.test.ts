import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import config from '../vitest.config.js';
import { importsOf } from './helpers/source-imports.js';
import { laneOf } from './lanes.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Every file of the repository that names itself a test, wherever it is. */
function testFilesOnDisk(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(`${ROOT}${dir}`, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules' || entry.name === 'dist') continue;
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path);
      else if (/\.(test|spec)\.[cm]?[jt]sx?$/.test(entry.name)) found.push(path);
    }
  };
  walk('');
  return found.sort();
}

/** The globs these projects use (`**`, `*`, `?`); anything richer fails here rather than being matched wrongly. */
function globToRegExp(glob: string): RegExp {
  if (/[{}[\]()!+@]/.test(glob)) throw new Error(`the lane check does not read this glob: ${glob}`);
  let pattern = '';
  for (let at = 0; at < glob.length; at++) {
    if (glob.startsWith('**/', at)) {
      pattern += '(?:.*/)?';
      at += 2;
    } else if (glob.startsWith('**', at)) {
      pattern += '.*';
      at += 1;
    } else if (glob[at] === '*') pattern += '[^/]*';
    else if (glob[at] === '?') pattern += '[^/]';
    else pattern += glob[at]!.replace(/[.^$|\\]/g, '\\$&');
  }
  return new RegExp(`^${pattern}$`);
}

interface Project {
  name: string;
  matches(file: string): boolean;
}

function projects(): Project[] {
  return (config.test?.projects ?? []).map((entry) => {
    if (typeof entry !== 'object' || entry instanceof Promise || !entry.test?.name || !entry.test.include) {
      throw new Error('every project is written inline with a name and an include list');
    }
    const include = entry.test.include.map(globToRegExp);
    const exclude = (entry.test.exclude ?? []).map(globToRegExp);
    const name = typeof entry.test.name === 'string' ? entry.test.name : entry.test.name.label;
    return { name, matches: (file) => include.some((glob) => glob.test(file)) && !exclude.some((glob) => glob.test(file)) };
  });
}

/** What a unit test may not reach: it would start a server, Chromium, a database, Redis or a process. */
const HEAVY_PACKAGES = ['playwright-core', 'better-sqlite3', 'pg', 'ioredis', 'bullmq', 'node:child_process', 'child_process', '@hono/node-server'];
const HEAVY_FILES = [/^test\/helpers\/(test-server|server-process|databases|redis|bundled-cli)\.ts$/, /^src\/(app|container|server|worker)\.ts$/, /^src\/(db|redis)\//];

/** Every file a test reaches through relative imports, and the packages they import. */
function reach(test: string): { files: Set<string>; packages: Map<string, string> } {
  const files = new Set([test]);
  const packages = new Map<string, string>();
  const queue = [test];
  while (queue.length > 0) {
    const file = queue.pop()!;
    const imports = importsOf(ROOT, file);
    for (const name of imports.packages) if (!packages.has(name)) packages.set(name, file);
    for (const target of imports.files) {
      if (files.has(target)) continue;
      files.add(target);
      queue.push(target);
    }
  }
  return { files, packages };
}

describe('the test lanes (test/lanes.ts)', () => {
  it('runs every test file of the repository in exactly one project, the lane its name gives', () => {
    const lanes = projects();
    expect(lanes.map((lane) => lane.name).sort()).toEqual(['integration', 'system', 'unit']);
    const files = testFilesOnDisk();
    expect(files.length).toBeGreaterThan(80);
    const misplaced = files
      .map((file) => ({ file, in: lanes.filter((lane) => lane.matches(file)).map((lane) => lane.name) }))
      .filter((entry) => entry.in.length !== 1 || entry.in[0] !== laneOf(entry.file));
    expect(misplaced).toEqual([]);
  });

  it('keeps unit tests off servers, Chromium, databases, Redis and child processes', () => {
    const unitTests = testFilesOnDisk().filter((file) => laneOf(file) === 'unit');
    expect(unitTests.length).toBeGreaterThan(5);
    const offences = unitTests.flatMap((test) => {
      const { files, packages } = reach(test);
      return [
        ...[...files].filter((file) => HEAVY_FILES.some((pattern) => pattern.test(file))).map((file) => `${test} reaches ${file}`),
        ...[...packages].filter(([name]) => HEAVY_PACKAGES.includes(name)).map(([name, by]) => `${test} imports ${name} (through ${by})`),
      ];
    });
    expect(offences).toEqual([]);
  });
});
