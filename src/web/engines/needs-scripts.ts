/**
 * Whether an HTML document, as its server sent it, needs its scripts to show its content: the
 * static engine's first question (engine-table.ts), asked of the bytes before any rendering.
 * Only signs that hold for the whole page count: a `<noscript>` note alone does not (a
 * server-rendered article often has one for its comments widget), an empty app root in a body
 * with no text does. A document that passes is still checked once rendered without scripts
 * (`isThin`): these signs are the cheap first half.
 */

/** Below this many words of text in the body as sent, a page is a shell for its scripts. */
export const SHELL_MAX_WORDS = 40;
/** Below this many words shown without scripts, the scripted page is worth its cost. */
export const THIN_MAX_WORDS = 40;
/** Only the start of a large document is looked at: what decides is near its top. */
const SCAN_MAX_CHARS = 2_000_000;

export type ScriptNeed =
  | { needsScripts: false }
  | { needsScripts: true; reason: 'empty app root' | 'no text without scripts' | 'redirects by refresh' | 'frameset' };

/** Roots client-rendered frameworks mount into, empty as the server sends them. */
const EMPTY_APP_ROOT =
  /<(div|main|section)\b[^>]*\bid\s*=\s*["']?(root|app|__next|__nuxt|___gatsby|svelte|q-app|react-root|app-root)["']?[^>]*>\s*<\/\1>|<(app-root|ng-app)\b[^>]*>\s*<\/\3>/i;
const META_REFRESH = /<meta\b[^>]*http-equiv\s*=\s*["']?refresh["']?[^>]*content\s*=\s*["']?\s*\d+\s*[;,]\s*url\s*=/i;
const FRAMESET = /<frameset\b/i;

export function scriptNeedOf(html: string): ScriptNeed {
  const text = html.length > SCAN_MAX_CHARS ? html.slice(0, SCAN_MAX_CHARS) : html;
  if (META_REFRESH.test(text)) return { needsScripts: true, reason: 'redirects by refresh' };
  if (FRAMESET.test(text)) return { needsScripts: true, reason: 'frameset' };
  const words = bodyWords(text, SHELL_MAX_WORDS);
  if (words < SHELL_MAX_WORDS) return { needsScripts: true, reason: EMPTY_APP_ROOT.test(text) ? 'empty app root' : 'no text without scripts' };
  return { needsScripts: false };
}

/**
 * Words of text in the body, outside scripts, styles, templates and noscript (which a browser
 * with scripts does not show), counted up to `enough`. A rough count, linear in the document:
 * tags are skipped by scanning for `>`, not parsed.
 */
export function bodyWords(html: string, enough: number): number {
  const lower = html.toLowerCase();
  const bodyAt = lower.indexOf('<body');
  let at = bodyAt === -1 ? 0 : bodyAt;
  let words = 0;
  let inWord = false;
  while (at < html.length && words < enough) {
    const char = html.charCodeAt(at);
    if (char === 60 /* < */) {
      inWord = false;
      if (lower.startsWith('<!--', at)) {
        const end = lower.indexOf('-->', at + 4);
        if (end === -1) break;
        at = end + 3;
        continue;
      }
      const skipTo = skippedElementEnd(lower, at);
      const close = lower.indexOf('>', skipTo);
      if (close === -1) break;
      at = close + 1;
      continue;
    }
    const isSpace = char === 32 || char === 10 || char === 13 || char === 9 || char === 12 || char === 160;
    if (!isSpace && !inWord) words += 1;
    inWord = !isSpace;
    at += 1;
  }
  return words;
}

const SKIPPED = ['script', 'style', 'template', 'noscript'];

/** At a `<`: the start of the closing tag when it opens an element whose content is not shown text, else the same place. */
function skippedElementEnd(lower: string, at: number): number {
  for (const name of SKIPPED) {
    if (lower.startsWith(name, at + 1)) {
      const next = lower.charCodeAt(at + 1 + name.length);
      // `<script>`, `<script src=…>`, not `<scripted-thing>`
      if (next === 62 || next === 32 || next === 10 || next === 9 || next === 13 || next === 47) {
        const end = lower.indexOf(`</${name}`, at);
        return end === -1 ? lower.length : end;
      }
    }
  }
  return at;
}
