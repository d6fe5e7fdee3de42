/**
 * A code block's language, from the classes and data attributes highlighters write
 * (`language-ts`, `lang-python`, `highlight-rust`, SyntaxHighlighter's `brush: js`, `data-lang`).
 * A label over the block that only names the language (MDN's `js`) stays a line of its own: the
 * wcxb-dev truth keeps it (dropping it cost 0.001 F1 on documentation pages, issue 30).
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
