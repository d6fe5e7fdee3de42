import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';

/**
 * Code that runs inside the page (where the live DOM, its geometry and computed styles are) is
 * written as ordinary TypeScript modules and bundled once per process with esbuild into the
 * source of one function expression. Each call evaluates `(function)(argument)` in the page, so
 * nothing is left behind on the page's `window`.
 */
const bundles = new Map<string, Promise<string>>();

/** The source file next to `importMetaUrl` called `relativePath` (.ts under tsx/vitest, .js when compiled). */
export function siblingModule(importMetaUrl: string, relativePath: string): string {
  const extension = extname(fileURLToPath(importMetaUrl));
  return fileURLToPath(new URL(`${relativePath}${extension}`, importMetaUrl));
}

/**
 * Bundles `entryFile`, whose named export `exportName` is a function of one JSON argument, into
 * the source of a function expression. Cached: later calls cost nothing.
 */
export function bundlePageFunction(entryFile: string, exportName: string): Promise<string> {
  const key = `${entryFile}#${exportName}`;
  let bundle = bundles.get(key);
  if (!bundle) {
    bundle = buildPageFunction(entryFile, exportName);
    bundles.set(key, bundle);
    bundle.catch(() => bundles.delete(key));
  }
  return bundle;
}

async function buildPageFunction(entryFile: string, exportName: string): Promise<string> {
  const result = await build({
    entryPoints: [entryFile],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: '__pluckModule',
    platform: 'browser',
    target: 'chrome110',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text;
  if (!code) throw new Error(`esbuild produced no output for ${entryFile}`);
  return `(function (argument) {\n${code}\nreturn __pluckModule[${JSON.stringify(exportName)}](argument);\n})`;
}

/** Runs a bundled page function on `page` with a JSON-serialisable argument. */
export async function runPageFunction<T>(page: Page, functionSource: string, argument: unknown): Promise<T> {
  return (await page.evaluate(`${functionSource}(${JSON.stringify(argument)})`)) as T;
}
