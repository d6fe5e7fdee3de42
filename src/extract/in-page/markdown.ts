import { codeLanguage } from './code-blocks.js';
import { BLOCK_TAGS } from './html-blocks.js';
import { HARD_BREAK, InlineRun } from './inline-run.js';
import { serializeTable } from './markdown-table.js';
import type { MarkdownContext } from './markdown-context.js';
import { collapseWhitespace, escapeInline, escapeLineStart } from './text.js';
import { absoluteUrl, imageSource } from './urls.js';
import { checkBudget } from './work-budget.js';

/**
 * DOM -> GitHub-flavoured markdown, reading the live DOM without changing it. Block structure is
 * built bottom-up as strings: a container's children become a list of blocks (paragraphs,
 * headings, lists, tables, code, quotes) joined by blank lines.
 */

/** Only blocks this long count as copies: a short line (a label, a meal) may repeat on purpose. */
const REPEAT_MIN_CHARS = 240;

const BLOCK_SELECTOR = [...BLOCK_TAGS].join(',');

/**
 * Converts the children of each root (or the root itself when it is a block) to markdown, still
 * to be finished by `finishMarkdown` (text.ts) outside the page.
 */
export function toMarkdown(roots: Element[], context: MarkdownContext): string {
  const parts: string[] = [];
  for (const root of roots) parts.push(...elementBlocks(root, context));
  if (parts[0] === '---') parts.shift();
  return withoutRepeatedRuns(parts.filter((block, index) => !isRepeatedHeading(block, parts[index - 1]))).join('\n\n');
}

/** The longest run of blocks looked for twice in a row. */
const MAX_REPEATED_RUN = 4;

/**
 * Two to four blocks written twice in a row are one part of the page set twice (a product's
 * notice for two layouts, "final sale* / Final Sale items cannot be returned"), one hidden by the
 * stylesheet: a reader sees them once. One paragraph said twice may be meant (a refrain, cells).
 */
function withoutRepeatedRuns(blocks: string[]): string[] {
  const kept: string[] = [];
  for (let index = 0; index < blocks.length; ) {
    let skipped = 0;
    for (let run = MAX_REPEATED_RUN; run >= 2 && skipped === 0; run--) {
      if (kept.length < run || index + run > blocks.length) continue;
      let same = true;
      for (let offset = 0; offset < run && same; offset++) same = blocks[index + offset] === kept[kept.length - run + offset];
      if (same) skipped = run;
    }
    if (skipped > 0) index += skipped;
    else kept.push(blocks[index++] ?? '');
  }
  return kept;
}

/**
 * A heading written twice in a row is one heading set twice for two screen sizes (a card's title
 * over its video and again over its text), one of them hidden by the stylesheet: a reader sees
 * it once. Paragraphs may repeat on purpose (a plan's features, table cells); headings in a row do not.
 */
function isRepeatedHeading(block: string, previous: string | undefined): boolean {
  return block === previous && block.startsWith('#');
}

function isBlockElement(element: Element): boolean {
  return BLOCK_TAGS.has(element.localName);
}

function hasBlockDescendant(element: Element): boolean {
  return element.firstElementChild !== null && element.querySelector(BLOCK_SELECTOR) !== null;
}

/** The blocks of one element, without copies of blocks written before. */
export function elementBlocks(element: Element, context: MarkdownContext): string[] {
  checkBudget();
  if (!context.keep(element)) return [];
  const blocks = tagBlocks(element, context);
  if (context.written && isCopy(element, joined(blocks), context)) return [];
  return blocks.length > 0 && context.ruleBefore?.has(element) ? ['---', ...blocks] : blocks;
}

/**
 * Block lists joined once: a wrapper whose blocks are all its one child's passes that child's
 * list on (see `childBlocks`), so a chain of wrappers around an article joins it once, not once
 * per level. Only lists long enough to be checked for copies are kept.
 */
const joinedLists = new WeakMap<string[], string>();

function joined(blocks: string[]): string {
  let markdown = joinedLists.get(blocks);
  if (markdown === undefined) {
    markdown = blocks.join('\n\n');
    if (markdown.length >= REPEAT_MIN_CHARS) joinedLists.set(blocks, markdown);
  }
  return markdown;
}

/** Whether an earlier, unrelated element wrote `markdown` already (then this one is a copy). */
function isCopy(element: Element, markdown: string, context: MarkdownContext): boolean {
  if (!context.written || markdown.length < REPEAT_MIN_CHARS) return false;
  const earlier = context.written.get(markdown);
  // The same markdown from a descendant is this element's own content, not a copy.
  if (earlier && !element.contains(earlier)) return true;
  context.written.set(markdown, element);
  return false;
}

/** The blocks of one element, dispatched on its tag. */
function tagBlocks(element: Element, context: MarkdownContext): string[] {
  switch (element.localName) {
    case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6':
      return heading(element, context);
    case 'ul': case 'ol': case 'menu': case 'dir':
      return nonEmpty(list(element, context));
    case 'li':
      return nonEmpty(listItem(element, context, '-'));
    case 'pre': case 'xmp': case 'listing': case 'plaintext':
      return nonEmpty(codeBlock(element));
    case 'blockquote':
      return nonEmpty(quote(element, context));
    case 'table':
      return serializeTable(element as HTMLTableElement, context, childBlocks);
    case 'hr':
      return ['---'];
    case 'dt':
      return nonEmpty(emphasised(element, context));
    default:
      return childBlocks(element, context);
  }
}

function nonEmpty(block: string): string[] {
  return block.trim() ? [block] : [];
}

/** Walks the child nodes: inline runs become paragraphs, block children their own blocks. */
export function childBlocks(parent: Element, context: MarkdownContext): string[] {
  const blocks: string[] = [];
  /** The block list of the one child that wrote every block so far; passed on unchanged. */
  let only: string[] | undefined;
  const inline = new InlineRun();
  const flush = () => {
    const paragraph = finishParagraph(inline.text);
    if (paragraph) blocks.push(paragraph);
    inline.clear();
  };
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === Node.TEXT_NODE) {
      inline.add(node, escapeInline(node.nodeValue ?? ''));
    } else if (node.nodeType === Node.ELEMENT_NODE) {
      const element = node as Element;
      if (!context.keep(element)) continue;
      if (isBlockElement(element) || (element.localName !== 'a' && hasBlockDescendant(element))) {
        flush();
        const childList = elementBlocks(element, context);
        if (childList.length > 0) only = blocks.length === 0 ? childList : undefined;
        blocks.push(...childList);
      } else if (element.localName === 'a' && hasBlockDescendant(element)) {
        flush();
        only = undefined;
        blocks.push(...linkedBlocks(element as HTMLAnchorElement, context));
      } else {
        inline.add(element, inlineMarkdown(element, context));
      }
    }
  }
  flush();
  return only !== undefined && only.length === blocks.length ? only : blocks;
}

function finishParagraph(inline: string): string {
  const lines = collapseWhitespace(inline)
    .split(HARD_BREAK)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  return lines.map(escapeLineStart).join('  \n');
}

/** An `<a>` around blocks (a card): the blocks, with the first heading or paragraph linked. */
function linkedBlocks(anchor: HTMLAnchorElement, context: MarkdownContext): string[] {
  // A copy: the list may be a descendant's, passed on, and is changed below.
  const blocks = [...childBlocks(anchor, context)];
  const href = linkTarget(anchor, context);
  if (!href) return blocks;
  const index = blocks.findIndex((block) => /^(#{1,6} )?[^\s#>|`!-]/.test(block) && !block.includes('\n'));
  if (index < 0) return blocks;
  const block = blocks[index] ?? '';
  const prefix = /^#{1,6} /.exec(block)?.[0] ?? '';
  blocks[index] = `${prefix}[${block.slice(prefix.length)}](${markdownTarget(href)})`;
  return blocks;
}

function heading(element: Element, context: MarkdownContext): string[] {
  const text = singleLine(inlineChildren(element, context));
  if (!text) return [];
  return [`${'#'.repeat(Number(element.localName[1]))} ${text}`];
}

function emphasised(element: Element, context: MarkdownContext): string {
  const text = singleLine(inlineChildren(element, context));
  return text ? `**${text}**` : '';
}

function singleLine(inline: string): string {
  return collapseWhitespace(inline.split(HARD_BREAK).join(' ')).trim();
}

function list(element: Element, context: MarkdownContext): string {
  const ordered = element.localName === 'ol';
  let number = ordered ? Number((element as HTMLOListElement).start) || 1 : 0;
  const items: string[] = [];
  for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
    if (!context.keep(child)) continue;
    const isNestedList = child.localName === 'ul' || child.localName === 'ol';
    if (isNestedList && items.length > 0) {
      items[items.length - 1] += `\n${indent(list(child, context), '  ')}`;
      continue;
    }
    const marker = ordered ? `${number}.` : '-';
    const item = listItem(child, context, marker);
    if (!item || isCopy(child, item.slice(marker.length), context)) continue;
    items.push(item);
    number++;
  }
  return items.join('\n');
}

function listItem(element: Element, context: MarkdownContext, marker: string): string {
  const content = elementBlocksAsContainer(element, context).join('\n').trim();
  if (!content) return '';
  const [first = '', ...rest] = content.split('\n');
  const pad = ' '.repeat(marker.length + 1);
  return [`${marker} ${first}`, ...rest.map((line) => (line ? pad + line : line))].join('\n');
}

/** Like `elementBlocks`, but always treats the element as a plain container (for list items). */
function elementBlocksAsContainer(element: Element, context: MarkdownContext): string[] {
  return childBlocks(element, context);
}

function indent(text: string, pad: string): string {
  return text
    .split('\n')
    .map((line) => (line ? pad + line : line))
    .join('\n');
}

function quote(element: Element, context: MarkdownContext): string {
  const inner = childBlocks(element, context).join('\n\n').trim();
  if (!inner) return '';
  return inner
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');
}

function codeText(element: Element): string {
  let text = '';
  const walk = (node: Node) => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === Node.TEXT_NODE) text += child.nodeValue ?? '';
      else if (child.nodeType === Node.ELEMENT_NODE) {
        const name = (child as Element).localName;
        if (name === 'br') text += '\n';
        else if (name !== 'script' && name !== 'style' && name !== 'button') walk(child);
        if ((name === 'div' || name === 'p') && !text.endsWith('\n')) text += '\n';
      }
    }
  };
  walk(element);
  return text.replace(/^\n+|\s+$/g, '');
}

function codeBlock(element: Element): string {
  const text = codeText(element);
  if (!text.trim()) return '';
  const longestRun = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  return `${fence}${codeLanguage(element)}\n${text}\n${fence}`;
}

/** Inline markdown of an element's children (text and inline elements). */
export function inlineChildren(element: Element, context: MarkdownContext): string {
  const run = new InlineRun();
  for (let node = element.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === Node.TEXT_NODE) run.add(node, escapeInline(node.nodeValue ?? ''));
    else if (node.nodeType === Node.ELEMENT_NODE && context.keep(node as Element)) {
      run.add(node, inlineMarkdown(node as Element, context));
    }
  }
  return run.text;
}

/**
 * The whitespace before, the text, the whitespace after. By trimming: a regex doing the same
 * backtracks over every whitespace run inside the text, quadratic in a run's length.
 */
function edges(text: string): [lead: string, body: string, trail: string] {
  const start = text.length - text.trimStart().length;
  const end = Math.max(start, text.trimEnd().length);
  return [text.slice(0, start), text.slice(start, end), text.slice(end)];
}

function wrap(inner: string, mark: string): string {
  const [lead, body, trail] = edges(inner);
  if (!body) return inner;
  return `${lead}${mark}${body}${mark}${trail}`;
}

const BOLD = new Set(['strong', 'b']);
const ITALIC = new Set(['em', 'i', 'cite', 'dfn']);
const STRUCK = new Set(['del', 's', 'strike']);

/**
 * Emphasis inside the same emphasis in the same block (`<b class="caption"><b>hide caption</b></b>`)
 * is written once, by the outer element: `****hide caption****` is not bold to a markdown reader.
 */
function emphasis(element: Element, context: MarkdownContext, kind: ReadonlySet<string>, mark: string): string {
  const inner = inlineChildren(element, context);
  for (let parent = element.parentElement; parent && !BLOCK_TAGS.has(parent.localName); parent = parent.parentElement) {
    if (kind.has(parent.localName)) return inner;
  }
  return wrap(inner, mark);
}

function inlineCode(element: Element): string {
  const text = collapseWhitespace(element.textContent ?? '');
  if (!text.trim()) return text;
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longestRun + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

function linkTarget(anchor: Element, context: MarkdownContext): string {
  const href = anchor.getAttribute('href');
  if (!href || /^\s*(javascript|data|vbscript):/i.test(href) || href.trim().startsWith('#')) return '';
  return absoluteUrl(href, context.base);
}

/**
 * A URL as a link or image target: parentheses and whitespace, which would end it, percent-encoded
 * (by hand for the parentheses: `encodeURIComponent` leaves them as they are).
 */
function markdownTarget(url: string): string {
  return url.replace(/[()\s]/g, (character) => (character === '(' ? '%28' : character === ')' ? '%29' : encodeURIComponent(character)));
}

function link(anchor: Element, context: MarkdownContext): string {
  const inner = inlineChildren(anchor, context);
  const href = linkTarget(anchor, context);
  const text = singleLine(inner);
  if (!text) return '';
  if (!href) return inner;
  const [lead, , trail] = edges(collapseWhitespace(inner));
  return `${lead}[${text}](${markdownTarget(href)})${trail}`;
}

function isPixel(element: Element): boolean {
  const width = element.getAttribute('width');
  const height = element.getAttribute('height');
  return width === '0' || width === '1' || height === '0' || height === '1';
}

function image(element: Element, context: MarkdownContext): string {
  if (isPixel(element)) return '';
  const source = imageSource(element, context.base);
  if (!source) return '';
  const alt = singleLine(escapeInline((element.getAttribute('alt') ?? '').replace(/[[\]]/g, '')));
  return `![${alt}](${markdownTarget(source)})`;
}

/** Inline markdown of one inline element. */
export function inlineMarkdown(element: Element, context: MarkdownContext): string {
  switch (element.localName) {
    case 'br':
      return HARD_BREAK;
    case 'a':
      return link(element, context);
    case 'img':
      return image(element, context);
    case 'strong': case 'b':
      return emphasis(element, context, BOLD, '**');
    case 'em': case 'i': case 'cite': case 'dfn':
      return emphasis(element, context, ITALIC, '*');
    case 'del': case 's': case 'strike':
      return emphasis(element, context, STRUCK, '~~');
    case 'code': case 'kbd': case 'samp': case 'tt':
      return inlineCode(element);
    case 'wbr':
      return '';
    default:
      return inlineChildren(element, context);
  }
}
