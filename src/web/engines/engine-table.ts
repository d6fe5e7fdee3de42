import type { PageNeed } from '../outputs/reading.js';
import { askedOutputs } from '../outputs/table.js';
import type { OutputRequest } from '../outputs.js';
import type { PageRequest } from '../page-options.js';

/**
 * The ways a URL is read, cheapest first. Each engine says what it can read, what outputs it can
 * give (the needs of output entries it meets, outputs/reading.ts), what a page costs it and when
 * `auto` takes it; the URL reader (url-reader.ts) takes the first that applies:
 *
 * | engine | reads | meets | a page costs | auto takes it when |
 * |---|---|---|---|---|
 * | document | PDF, DOCX, text (src/documents) | page text | one GET, a parse off the event loop | the target answers with a document |
 * | static | HTML as sent, scripts off, stylesheets only | document, page text | one GET, one script-less rendering | the HTML shows its text without scripts |
 * | browser | anything Chromium shows, scripts on | document, page text, painted page | a full page load: scripts, subresources, settling | otherwise, and whenever an option needs scripts (actions, waits, a session) |
 *
 * Callers choose with `engine` (`auto`, the default; `static`; `browser`); `metadata.engine`
 * says which engine answered.
 */
export type EngineName = 'document' | 'static' | 'browser';

/** What a caller may ask for (`engine`). */
export type EngineChoice = 'auto' | 'static' | 'browser';

export interface EngineEntry {
  name: EngineName;
  meets: readonly PageNeed[];
}

export const ENGINE_TABLE: readonly EngineEntry[] = [
  { name: 'document', meets: ['page text'] },
  { name: 'static', meets: ['document', 'page text'] },
  { name: 'browser', meets: ['document', 'page text', 'painted page'] },
];

/**
 * Why a request must be loaded by the scripted browser whatever its target serves, or undefined
 * when a cheaper engine may read it: an output that paints the page, or an option that only
 * means something with scripts running (a wait, a selector to wait for, a session's state).
 */
export function browserOnlyReason(page: PageRequest, outputs: OutputRequest): string | undefined {
  const staticEngine = ENGINE_TABLE.find((engine) => engine.name === 'static')!;
  const unmet = askedOutputs(outputs).find(({ entry }) => entry.needs.some((need) => !staticEngine.meets.includes(need)));
  if (unmet) return `the ${unmet.entry.name} output needs the painted page`;
  if (page.actions !== undefined && page.actions.length > 0) return 'actions act on the page with its scripts running';
  if (page.session !== undefined) return 'a session keeps browser state';
  if (page.waitForSelector !== undefined) return 'waitForSelector waits for scripts';
  if (page.waitUntil !== undefined) return 'waitUntil names a browser event';
  if (page.waitTime > 0) return 'waitTime waits for scripts';
  return undefined;
}
