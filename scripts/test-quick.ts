/**
 * `npm run test:quick`: every unit test, and the integration tests of what changed since main
 * (committed on this branch, staged, unstaged or new). A test is taken when it changed, when it
 * reaches a changed file (see reachOf), or when a changed file sits in the src/<domain>/ of its
 * folder (test/web/ for src/web/). System tests are never run here, only named. PostgreSQL and
 * Redis variants are left to the full suite (`npm test`, `bash scripts/test.sh`).
 *
 * Why not `vitest --changed`: it follows the module graph, and every test server reaches
 * src/container.ts and from there all of src, so any change selects nearly every test.
 *
 *   npm run test:quick                    # against main (or HEAD when on main)
 *   npm run test:quick -- --base HEAD~3   # against another commit
 *   npm run test:quick -- --list          # print the selection only
 *   npm run test:quick -- --bail 1        # anything else goes to vitest
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importsOf as sourceImportsOf } from '../test/helpers/source-imports.js';
import { laneOf, TEST_ROOTS } from '../test/lanes.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Where the code under test lives; following imports stops at these. */
const SOURCE_ROOTS = ['src/', 'packages/sdk/src/'];
/** Past this many integration files the change is in shared code, and the lane is not quick. */
const SHARED_CODE_FILES = 20;

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
}

function lines(text: string): string[] {
  return text.split('\n').filter(Boolean);
}

function baseRef(given: string | undefined): string {
  if (given) return given;
  try {
    return git('merge-base', 'HEAD', 'main');
  } catch {
    return 'HEAD';
  }
}

function changedFiles(base: string): string[] {
  const tracked = lines(git('diff', '--name-only', base));
  const untracked = lines(git('ls-files', '--others', '--exclude-standard'));
  return [...new Set([...tracked, ...untracked])];
}

function testFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.test.ts')) found.push(path);
    }
  };
  for (const root of TEST_ROOTS) if (existsSync(join(ROOT, root))) walk(root);
  return found.sort();
}

const importsOf = (file: string) => sourceImportsOf(ROOT, file).files;

/** `src/<domain>` (or `packages/sdk`) for a file inside one; undefined for src/'s own files (app, container, config, ...). */
function domainOf(file: string): string | undefined {
  if (file.startsWith('packages/sdk/')) return 'packages/sdk';
  const match = /^src\/([^/]+)\//.exec(file);
  return match ? `src/${match[1]}` : undefined;
}

const isSource = (file: string) => SOURCE_ROOTS.some((root) => file.startsWith(root));

/**
 * Files a test reaches: its imports, followed freely through tests, helpers and scripts, and
 * through source files only within the domain they entered (the golden test reaches
 * src/extract/extract.ts and everything of src/extract behind it, but a test server's
 * src/container.ts, of no domain, ends there).
 */
function reachOf(test: string): Set<string> {
  const reached = new Set<string>([test]);
  const queue = [test];
  while (queue.length > 0) {
    const file = queue.pop()!;
    for (const target of importsOf(file)) {
      if (reached.has(target)) continue;
      const throughSource = isSource(file);
      if (throughSource && (domainOf(file) === undefined || domainOf(target) !== domainOf(file))) continue;
      reached.add(target);
      if (!isSource(target) || domainOf(target) !== undefined) queue.push(target);
    }
  }
  return reached;
}

/** The domain of a test by its folder: test/web/... tests src/web. */
function folderDomainOf(test: string): string | undefined {
  const match = /^test\/([^/]+)\//.exec(test);
  return match && existsSync(join(ROOT, 'src', match[1]!)) ? `src/${match[1]}` : undefined;
}

/** A test is related to a change in a file it reaches, or in the src/<domain>/ of its folder. */
function related(test: string, changed: string[]): boolean {
  const reach = reachOf(test);
  const folderDomain = folderDomainOf(test);
  return changed.some((file) => reach.has(file) || (folderDomain !== undefined && domainOf(file) === folderDomain));
}

const args = process.argv.slice(2);
const baseAt = args.indexOf('--base');
const base = baseRef(baseAt >= 0 ? args[baseAt + 1] : undefined);
const listOnly = args.includes('--list');
const passThrough = args.filter((arg, index) => arg !== '--list' && index !== baseAt && index !== baseAt + 1);

const changed = changedFiles(base).filter((file) => file.endsWith('.ts') || file.endsWith('.tsx'));
const selected = testFiles().filter((test) => laneOf(test) !== 'unit' && related(test, changed));
const integration = selected.filter((test) => laneOf(test) === 'integration');
const system = selected.filter((test) => laneOf(test) === 'system');

console.log(`test:quick against ${base === 'HEAD' ? 'HEAD' : base.slice(0, 12)}: ${changed.length} changed TypeScript file(s)`);
console.log(`  unit: every file`);
console.log(`  integration (${integration.length}):${integration.map((test) => `\n    ${test}`).join('')}`);
if (system.length > 0) {
  console.log(`  system, not run here (${system.length}): npx vitest run --project system ${system.join(' ')}`);
}
if (integration.length > SHARED_CODE_FILES) {
  console.log(`  note: the change reaches shared code (${integration.length} integration files); \`npm test\` runs everything`);
}
if (listOnly) process.exit(0);

const vitest = spawnSync(
  'npx',
  ['vitest', 'run', '--project', 'unit', '--project', 'integration', '.unit.test.ts', ...integration, ...passThrough],
  { cwd: ROOT, stdio: 'inherit', env: { ...process.env, TEST_EXTERNAL_SERVICES: 'off' } },
);
process.exit(vitest.status ?? 1);
