import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The layers of docs/development.md, read off the imports: routes and adapters -> services ->
 * engines, stores and providers. Type-only imports count: a type pulled from a layer above
 * drags its ideas down as surely as a value.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Each file (relative to src/, without `.ts`) and the files of src/ it imports. */
const graph = new Map<string, string[]>(
  sourceFiles(SRC).map((file) => {
    const text = readFileSync(file, 'utf8');
    const imports = [...text.matchAll(/^(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'/gm)].map((match) =>
      relative(SRC, resolve(dirname(file), match[1]!)).replace(/\.js$/, ''),
    );
    return [relative(SRC, file).replace(/\.ts$/, ''), imports];
  }),
);

const isRouteLayer = (file: string) => file.endsWith('.routes') || file.endsWith('.openapi');
/** Adapters speak another protocol over the services: they render errors and answers themselves. */
const isAdapter = (file: string) => file.startsWith('firecrawl/') || file.startsWith('mcp/') || file === 'auth/auth-forward';
const inFolder = (folder: string) => (file: string) => file.startsWith(`${folder}/`);

function importsWhere(importer: (file: string) => boolean, imported: (file: string) => boolean): string[] {
  return [...graph].flatMap(([file, imports]) => (importer(file) ? imports.filter(imported).map((target) => `${file} -> ${target}`) : []));
}

describe('import layers', () => {
  it('finds the source files and their imports', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('app')).toContain('http/error-handler');
  });

  it('lets only app.ts import a route file', () => {
    expect(importsWhere((file) => file !== 'app', (target) => target.endsWith('.routes'))).toEqual([]);
  });

  it('keeps http/ to the routes, their OpenAPI parts, app.ts and the adapters', () => {
    const allowed = (file: string) => isRouteLayer(file) || isAdapter(file) || file === 'app' || file.startsWith('http/');
    expect(importsWhere((file) => !allowed(file), inFolder('http'))).toEqual([]);
  });

  it('keeps the engines, stores and backends free of http/ and web/', () => {
    const low = ['browser', 'extract', 'documents', 'net', 'db', 'redis', 'limits', 'cache', 'errors'];
    const isLow = (file: string) => low.some((folder) => file.startsWith(`${folder}/`)) && !isRouteLayer(file);
    expect(importsWhere(isLow, (target) => target.startsWith('http/') || target.startsWith('web/'))).toEqual([]);
  });

  it('keeps the document reader off the browser: it reads bytes someone else fetched', () => {
    expect(graph.has('documents/read-document')).toBe(true);
    expect(importsWhere(inFolder('documents'), (target) => target.startsWith('browser/'))).toEqual([]);
  });

  it('keeps the error type free of any transport', () => {
    expect(importsWhere(inFolder('errors'), (target) => !target.startsWith('errors/'))).toEqual([]);
  });

  it('has no import loops', () => {
    const loops: string[][] = [];
    const state = new Map<string, 'open' | 'done'>();
    const path: string[] = [];
    const visit = (file: string) => {
      state.set(file, 'open');
      path.push(file);
      for (const target of graph.get(file) ?? []) {
        if (!graph.has(target)) continue;
        if (state.get(target) === 'open') loops.push([...path.slice(path.indexOf(target)), target]);
        else if (!state.has(target)) visit(target);
      }
      path.pop();
      state.set(file, 'done');
    };
    for (const file of graph.keys()) if (!state.has(file)) visit(file);
    expect(loops.map((loop) => loop.join(' -> '))).toEqual([]);
  });
});
