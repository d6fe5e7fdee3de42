import { BLOCK_TAGS } from './html-blocks.js';
import { collapseWhitespace, escapeInline, escapeLineStart } from './text.js';
import { absoluteUrl } from './urls.js';

/**
 * The fallback conversion: the whole visible page to markdown in one iterative pass, without the
 * main-content steps. Linear in the DOM, no recursion, bounded in time and length, so it handles
 * what the main-content extraction cannot (hundreds of thousands of elements, nesting thousands
 * deep, a rule that throws on an odd DOM). Headings, paragraphs, list items, links, code blocks and
 * table rows keep their form; the rest is text.
 */

export interface PlainOptions {
  base: string;
  keep(element: Element): boolean;
  /** `performance.now()` time after which the pass stops with what it has. */
  deadline: number;
  /** Characters of markdown at most. */
  maxChars: number;
}

export interface PlainResult {
  markdown: string;
  /** Stopped early by the deadline or the length cap. */
  truncated: boolean;
}

const HEADING = /^h[1-6]$/;
const CODE_TAGS = new Set(['pre', 'xmp', 'listing', 'plaintext']);
const CELL_TAGS = new Set(['td', 'th']);

interface Writer {
  blocks: string[];
  chars: number;
  /** Inline text of the block being written. */
  line: string;
  /** Prefix of that block ('## ', '- ', '  - '). */
  prefix: string;
  listDepth: number;
  /** Inside a `<pre>`: text kept as it is. */
  code: number;
}

export function plainMarkdown(roots: Element[], options: PlainOptions): PlainResult {
  const writer: Writer = { blocks: [], chars: 0, line: '', prefix: '', listDepth: 0, code: 0 };
  let truncated = false;
  let visited = 0;
  for (const root of roots) {
    if (!walk(root, writer, options, () => {
      visited += 1;
      return (visited & 1023) !== 0 || performance.now() < options.deadline;
    })) {
      truncated = true;
      break;
    }
    if (writer.chars > options.maxChars) {
      truncated = true;
      break;
    }
  }
  flush(writer);
  const markdown = writer.blocks.join('\n\n');
  return { markdown: markdown.length > options.maxChars ? markdown.slice(0, options.maxChars) : markdown, truncated };
}

/** One depth-first pass with an explicit stack; false when `proceed` said stop. */
function walk(root: Element, writer: Writer, options: PlainOptions, proceed: () => boolean): boolean {
  // Each entry is a node to enter, or (as `exit`) an element whose end is due.
  const stack: Array<{ node: Node; exit: boolean; mark?: number }> = [{ node: root, exit: false }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (entry.exit) {
      leave(entry.node as Element, writer, options, entry.mark ?? 0);
      continue;
    }
    if (!proceed() || writer.chars > options.maxChars) return false;
    const node = entry.node;
    if (node.nodeType === Node.TEXT_NODE) {
      text(node.nodeValue ?? '', writer);
      continue;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) continue;
    const element = node as Element;
    if (element !== root && !options.keep(element)) continue;
    const mark = enter(element, writer);
    stack.push({ node: element, exit: true, mark });
    // Children pushed last-first, so the first child is entered next.
    for (let child = element.lastChild; child; child = child.previousSibling) stack.push({ node: child, exit: false });
  }
  return true;
}

function text(value: string, writer: Writer): void {
  if (writer.code > 0) {
    writer.line += value;
    return;
  }
  writer.line += escapeInline(collapseWhitespace(value));
}

/** Starts an element; returns where its inline text starts (for links). */
function enter(element: Element, writer: Writer): number {
  const name = element.localName;
  if (name === 'br') {
    writer.line += writer.code > 0 ? '\n' : '  \n';
    return 0;
  }
  if (CELL_TAGS.has(name)) {
    if (writer.line.trim()) writer.line += ' | ';
    return 0;
  }
  if (name === 'ul' || name === 'ol') {
    flush(writer);
    writer.listDepth += 1;
    return 0;
  }
  if (!BLOCK_TAGS.has(name)) return writer.line.length;
  flush(writer);
  if (HEADING.test(name)) writer.prefix = `${'#'.repeat(Number(name[1]))} `;
  else if (name === 'li') writer.prefix = `${'  '.repeat(Math.max(0, writer.listDepth - 1))}- `;
  else if (CODE_TAGS.has(name)) writer.code += 1;
  return 0;
}

function leave(element: Element, writer: Writer, options: PlainOptions, mark: number): void {
  const name = element.localName;
  if (name === 'a' && writer.code === 0) {
    const label = writer.line.slice(mark).trim();
    const href = element.getAttribute('href') ?? '';
    const target = /^\s*(javascript|data|vbscript):|^\s*#/i.test(href) ? '' : absoluteUrl(href, options.base);
    if (label && target) writer.line = `${writer.line.slice(0, mark)}[${label}](${linkTarget(target)}) `;
    return;
  }
  if (name === 'ul' || name === 'ol') {
    flush(writer);
    writer.listDepth = Math.max(0, writer.listDepth - 1);
    return;
  }
  if (!BLOCK_TAGS.has(name)) return;
  if (CODE_TAGS.has(name)) {
    const code = writer.line.replace(/^\n+|\s+$/g, '');
    writer.line = '';
    writer.code = Math.max(0, writer.code - 1);
    if (code.trim()) push(writer, `\`\`\`\n${code.replace(/```/g, '` ` `')}\n\`\`\``);
    return;
  }
  flush(writer);
}

/** Parentheses and whitespace would end a link target: percent-encoded, as the main writer does. */
function linkTarget(url: string): string {
  return url.replace(/[()\s]/g, (character) => (character === '(' ? '%28' : character === ')' ? '%29' : encodeURIComponent(character)));
}

/** Ends the block being written. */
function flush(writer: Writer): void {
  if (writer.code > 0) return;
  const lines = writer.line
    .split('  \n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  writer.line = '';
  const prefix = writer.prefix;
  writer.prefix = '';
  if (lines.length === 0) return;
  const body = prefix ? lines.join(' ') : lines.map(escapeLineStart).join('  \n');
  push(writer, `${prefix}${body}`);
}

function push(writer: Writer, block: string): void {
  writer.blocks.push(block);
  writer.chars += block.length + 2;
}
