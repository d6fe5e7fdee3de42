import { readFile } from 'node:fs/promises';
import type { PageAction } from '../generated/types.gen.js';
import { type OptionValues, UsageError } from './command.js';

/** `--action JSON` (repeated, in order) and `--actions-file FILE` (a JSON array): the page's actions before it is read. */
export const actionOptions = {
  action: { type: 'string', multiple: true },
  'actions-file': { type: 'string' },
} as const;

export const actionUsage = '[--action JSON]... [--actions-file FILE]';

export const actionDetails =
  '  --action JSON        An action on the page before it is read, e.g. \'{"type":"click","selector":"#more"}\';\n' +
  '                       repeat it for several, run in order (click, write, press, scroll, wait, screenshot,\n' +
  '                       scrape, executeJavascript, pdf; see the API docs).\n' +
  '  --actions-file FILE  A JSON array of actions, run before any --action.';

/** The actions the flags give, as the request field (`{}` when none); a flag that is not JSON is a usage mistake. */
export async function actionsFrom(values: OptionValues): Promise<{ actions?: PageAction[] }> {
  const actions: PageAction[] = [];
  const file = values['actions-file'];
  if (typeof file === 'string') {
    const listed = parseJson(await readFile(file, 'utf8').catch(() => { throw new UsageError(`--actions-file ${file} could not be read`); }), `--actions-file ${file}`);
    if (!Array.isArray(listed)) throw new UsageError(`--actions-file ${file} must hold a JSON array of actions`);
    actions.push(...(listed as PageAction[]));
  }
  const flags = values.action;
  for (const text of Array.isArray(flags) ? flags : []) {
    const action = parseJson(text, '--action');
    if (action === null || typeof action !== 'object' || Array.isArray(action)) throw new UsageError(`--action takes one JSON object, not ${text}`);
    actions.push(action as PageAction);
  }
  return actions.length > 0 ? { actions } : {};
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`${what} is not JSON: ${text.slice(0, 100)}`);
  }
}
