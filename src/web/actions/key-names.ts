/**
 * Key names as callers write them (Firecrawl's examples say `ENTER`) to the names the browser's
 * keyboard knows (`Enter`): each part of a chord (`control+a`) matched without regard to case.
 * A name it does not know is left as it is, for the keyboard to refuse with its own message.
 */
const KEY_NAMES = [
  'Enter',
  'Tab',
  'Escape',
  'Backspace',
  'Delete',
  'Insert',
  'Space',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'Shift',
  'Control',
  'Alt',
  'Meta',
  'ControlOrMeta',
  'CapsLock',
  ...Array.from({ length: 12 }, (_, index) => `F${index + 1}`),
];

const BY_LOWER_CASE = new Map(KEY_NAMES.map((name) => [name.toLowerCase(), name]));
const ALIASES = new Map([
  ['esc', 'Escape'],
  ['return', 'Enter'],
  ['ctrl', 'Control'],
  ['cmd', 'Meta'],
  ['up', 'ArrowUp'],
  ['down', 'ArrowDown'],
  ['left', 'ArrowLeft'],
  ['right', 'ArrowRight'],
]);

export function keyName(key: string): string {
  if (key.length === 1) return key;
  return key
    .split('+')
    .map((part) => {
      if (part.length <= 1) return part;
      const lower = part.toLowerCase();
      return BY_LOWER_CASE.get(lower) ?? ALIASES.get(lower) ?? part;
    })
    .join('+');
}
