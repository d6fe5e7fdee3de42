import type { ElementStats } from './measure.js';

/**
 * What a code block says of itself: its language, from the classes and data attributes
 * highlighters write (`language-ts`, `lang-python`, `highlight-rust`, SyntaxHighlighter's
 * `brush: js`, `data-lang`), and the label some sites set over it that only names that language.
 */

const LANGUAGE_CLASS = /(?:^|\s)(?:(?:language|lang|highlight-source|highlight|brush|syntax)-|brush:\s*)([a-z0-9_+#.-]+)/i;
/**
 * Class values that name no language: the highlighter's defaults and opt-outs. Sphinx writes
 * `highlight-default` for the project's default lexer, which the page does not name.
 */
const NO_LANGUAGE = /^(?:none|plain|text|nohighlight|plaintext|default)$/i;

export function codeLanguage(element: Element): string {
  const code = element.querySelector('code');
  for (const candidate of [element, code, element.parentElement, element.parentElement?.parentElement]) {
    if (!candidate) continue;
    const fromData = candidate.getAttribute('data-lang') ?? candidate.getAttribute('data-language');
    if (fromData && /^[\w+#.-]{1,30}$/.test(fromData) && !NO_LANGUAGE.test(fromData)) return fromData.toLowerCase();
    const match = LANGUAGE_CLASS.exec(candidate.getAttribute('class') ?? '');
    if (match?.[1] && !NO_LANGUAGE.test(match[1])) return match[1].toLowerCase();
  }
  return '';
}

/** Longer than this, an element is more than a language's name. */
const MAX_LANGUAGE_LABEL = 20;

/**
 * A label over a code block that only names its language (MDN's `js` above each example, a
 * docs theme's tab of one language): the fence says it, a line of its own would not. The label
 * (or the header holding it) is the element just before the `pre`.
 */
export function isCodeLanguageLabel(element: Element, own: ElementStats): boolean {
  if (own.text === 0 || own.text > MAX_LANGUAGE_LABEL || own.elements > 3) return false;
  const next = element.nextElementSibling;
  if (next?.localName !== 'pre') return false;
  const language = codeLanguage(next);
  return language !== '' && (element.textContent ?? '').trim().toLowerCase() === language;
}
