/**
 * `npm run test:quick`: every unit test, and the integration tests of what changed since main
 * (committed on this branch, staged, unstaged or new). A test is taken when it changed, or
 * when a changed file is one it reaches (its imports, followed through test helpers and
 * scripts, not through src), or when a changed src/<domain>/ file shares a domain with it (it
 * sits in test/<domain>/ or reaches a file of src/<domain>/). System tests are never run here,
 * only named. The PostgreSQL and Redis variants are left to the full suite (`npm test`).
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
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
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

/** A relative import or re-export, or a dynamic import; `import type` is left out (no code runs through it). */
const IMPORT = /(?:^(?:import|export)(?!\s+type\s)[^;]*?\sfrom\s*|^import\s*|import\(\s*)'(\.{1,2}\/[^']+)'/gms;

/** The repository files a file imports by relative path (`.js` in an import names the `.ts` file). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const found: string[] = [];
  for (const [, specifier] of text.matchAll(IMPORT)) {
    const target = relative(ROOT, resolve(ROOT, dirname(file), specifier!));
    const candidates = [target.replace(/\.js$/, '.ts'), target.replace(/\.js$/, '.tsx'), target];
    const hit = candidates.find((candidate) => existsSync(join(ROOT, candidate)));
    if (hit) found.push(hit);
  }
  return found;
}

const isSource = (file: string) => SOURCE_ROOTS.some((root) => file.startsWith(root));

/** Files a test reaches: its imports, followed through tests, helpers and scripts, up to the first source file. */
function reachOf(test: string): Set<string> {
  const reached = new Set<string>([test]);
  const queue = [test];
  while (queue.length > 0) {
    for (const target of importsOf(queue.pop()!)) {
      if (reached.has(target)) continue;
      reached.add(target);
      if (!isSource(target)) queue.push(target);
    }
  }
  return reached;
}

/** `src/<domain>` (or `packages/sdk`) for a file inside one; undefined for src/'s own files (app, container, config, ...). */
function domainOf(file: string): string | undefined {
  if (file.startsWith('packages/sdk/')) return 'packages/sdk';
  const match = /^src\/([^/]+)\//.exec(file);
  return match ? `src/${match[1]}` : undefined;
}

/** The domain of a test by its folder: test/web/... tests src/web. */
function folderDomainOf(test: string): string | undefined {
  const match = /^test\/([^/]+)\//.exec(test);
  return match && existsSync(join(ROOT, 'src', match[1]!)) ? `src/${match[1]}` : undefined;
}

function related(test: string, changed: string[]): boolean {
  const reach = reachOf(test);
  const domains = new Set([...reach].map(domainOf).filter(Boolean));
  const folderDomain = folderDomainOf(test);
  return changed.some((file) => {
    if (reach.has(file)) return true;
    const domain = domainOf(file);
    return domain !== undefined && (domains.has(domain) || domain === folderDomain);
  });
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
