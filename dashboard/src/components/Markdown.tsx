import type { ComponentChildren, VNode } from 'preact';

/**
 * Renders the GitHub-flavoured markdown Pluck produces (headings, nested lists, tables, fenced
 * code, quotes, links, emphasis) as Preact elements. The markdown comes from pages strangers
 * wrote, so no HTML is ever interpreted: everything becomes text nodes, links keep only
 * http(s) targets, and images are shown as links (the dashboard loads nothing from other sites).
 */
export function Markdown({ source }: { source: string }) {
  return <div class="markdown">{blocks(source.replace(/\r\n?/g, '\n').split('\n'))}</div>;
}

const LIST_ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const FENCE = /^\s*(```+|~~~+)\s*([\w+#.-]*)/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const TABLE_DIVIDER = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/;

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

function tableCells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

function blocks(lines: string[]): VNode[] {
  const out: VNode[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (!line.trim()) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1]!;
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.trim().startsWith(marker)) body.push(lines[i++]!);
      i++;
      out.push(
        <pre>
          <code data-language={fence[2] || undefined}>{body.join('\n')}</code>
        </pre>,
      );
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const Tag = `h${Math.min(6, heading[1]!.length + 1)}` as 'h2';
      out.push(<Tag>{inline(heading[2]!)}</Tag>);
      i++;
      continue;
    }
    if (RULE.test(line)) {
      out.push(<hr />);
      i++;
      continue;
    }
    if (line.trimStart().startsWith('>')) {
      const quoted: string[] = [];
      while (i < lines.length && lines[i]!.trimStart().startsWith('>')) quoted.push(lines[i++]!.trimStart().replace(/^>\s?/, ''));
      out.push(<blockquote>{blocks(quoted)}</blockquote>);
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && TABLE_DIVIDER.test(lines[i + 1]!)) {
      const head = tableCells(line);
      i += 2;
      const rows: string[][] = [];
      while (i < lines.length && lines[i]!.includes('|') && lines[i]!.trim()) rows.push(tableCells(lines[i++]!));
      out.push(
        <div class="table-scroll">
          <table>
            <thead>
              <tr>{head.map((cell) => <th scope="col">{inline(cell)}</th>)}</tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr>{row.map((cell) => <td>{inline(cell)}</td>)}</tr>
              ))}
            </tbody>
          </table>
        </div>,
      );
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      const [list, next] = listAt(lines, i);
      out.push(list);
      i = next;
      continue;
    }
    const paragraph: string[] = [];
    while (
      i < lines.length &&
      lines[i]!.trim() &&
      !FENCE.test(lines[i]!) &&
      !HEADING.test(lines[i]!) &&
      !LIST_ITEM.test(lines[i]!) &&
      !lines[i]!.trimStart().startsWith('>')
    ) {
      paragraph.push(lines[i++]!.trim());
    }
    out.push(<p>{inline(paragraph.join(' '))}</p>);
  }
  return out;
}

/** One list starting at `start`; deeper-indented lines belong to the item above them. */
function listAt(lines: string[], start: number): [VNode, number] {
  const first = LIST_ITEM.exec(lines[start]!)!;
  const base = indentOf(lines[start]!);
  const ordered = /\d/.test(first[2]!);
  const items: ComponentChildren[] = [];
  let i = start;
  while (i < lines.length) {
    const match = LIST_ITEM.exec(lines[i]!);
    if (!match || indentOf(lines[i]!) !== base || /\d/.test(match[2]!) !== ordered) break;
    const content = [match[3]!];
    i++;
    while (i < lines.length && (lines[i]!.trim() === '' ? LIST_ITEM.test(lines[i + 1] ?? '') && indentOf(lines[i + 1]!) > base : indentOf(lines[i]!) > base)) {
      content.push(lines[i]!.slice(Math.min(indentOf(lines[i]!), base + 2)));
      i++;
    }
    const [text, ...rest] = content;
    items.push(
      <li>
        {inline(text!)}
        {rest.length ? blocks(rest) : null}
      </li>,
    );
  }
  const start0 = ordered ? Number.parseInt(first[2]!, 10) : undefined;
  return [ordered ? <ol start={start0 !== 1 ? start0 : undefined}>{items}</ol> : <ul>{items}</ul>, i];
}

const INLINE = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)|!\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)|\[([^\]]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)|\*\*([^*]+)\*\*|__([^_]+)__|\*([^*\s][^*]*)\*|\b_([^_\s][^_]*)_\b/g;

function safeHref(url: string): string | undefined {
  try {
    const parsed = new URL(url, location.href);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

function link(href: string, children: ComponentChildren) {
  const safe = safeHref(href);
  if (!safe) return <span>{children}</span>;
  return (
    <a href={safe} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  );
}

function inline(text: string): ComponentChildren[] {
  const parts: ComponentChildren[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    const index = match.index ?? 0;
    if (index > last) parts.push(unescape(text.slice(last, index)));
    const [, , code, alt, src, label, href, strong, strong2, em, em2] = match;
    if (code !== undefined) parts.push(<code>{code.trim()}</code>);
    else if (src !== undefined) parts.push(link(src, <span class="image-link">[image: {alt || 'no description'}]</span>));
    else if (href !== undefined) parts.push(link(href, inline(label!)));
    else if (strong !== undefined || strong2 !== undefined) parts.push(<strong>{inline((strong ?? strong2)!)}</strong>);
    else if (em !== undefined || em2 !== undefined) parts.push(<em>{inline((em ?? em2)!)}</em>);
    last = index + match[0].length;
  }
  if (last < text.length) parts.push(unescape(text.slice(last)));
  return parts;
}

function unescape(text: string): string {
  return text.replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1');
}
