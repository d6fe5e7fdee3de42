import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * Static imports, re-exports, side-effect imports and dynamic imports with a literal
 * specifier; `import type` and `export type` are left out, as no code runs through them.
 */
const IMPORT = /(?:^(?:import|export)(?!\s+type\s)[^;]*?\sfrom\s*|^import\s*|import\(\s*)'([^']+)'/gms;

export interface SourceImports {
  /** Repository files, relative to the root (`.js` in a specifier names the `.ts` file). */
  files: string[];
  /** Package and `node:` specifiers, as written. */
  packages: string[];
}

/** What a TypeScript file of the repository at `root` imports. */
export function importsOf(root: string, file: string): SourceImports {
  const text = readFileSync(join(root, file), 'utf8');
  const found: SourceImports = { files: [], packages: [] };
  for (const [, specifier] of text.matchAll(IMPORT)) {
    if (!specifier!.startsWith('.')) {
      found.packages.push(specifier!);
      continue;
    }
    const target = relative(root, resolve(root, dirname(file), specifier!));
    const hit = [target.replace(/\.js$/, '.ts'), target.replace(/\.js$/, '.tsx'), target].find((candidate) => existsSync(join(root, candidate)));
    if (hit) found.files.push(hit);
  }
  return found;
}
