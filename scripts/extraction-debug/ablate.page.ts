import { BOILERPLATE_RULES, type BoilerplateRule } from '../../src/extract/in-page/boilerplate-rules.js';
import { extractInPage } from '../../src/extract/in-page/entry.js';

/**
 * Runs in the page: its markdown with each named rule of the table left out in turn ('' leaves
 * none out), in the order of `rules`. The table is this bundle's own copy, so only this tool's extractions change.
 */
export function extractWithout(options: { url: string; rules: string[] }): string[] {
  const table = BOILERPLATE_RULES as BoilerplateRule[];
  const all = [...table];
  const markdown: string[] = [];
  try {
    for (const name of options.rules) {
      table.splice(0, table.length, ...all.filter((rule) => rule.name !== name));
      const outcome = extractInPage({ url: options.url, onlyMainContent: true, includeTags: [], excludeTags: [] });
      markdown.push('markdown' in outcome ? outcome.markdown : '');
    }
  } finally {
    table.splice(0, table.length, ...all);
  }
  return markdown;
}
