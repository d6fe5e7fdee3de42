import type { TextFormat } from './classify.js';
import { csvMarkdown } from './csv.js';
import { cutMarkdown, fenced, firstHeading, type DocumentReading } from './reading.js';

/**
 * Text documents as markdown: plain text and markdown as they are, JSON pretty-printed in a
 * fence, XML in a fence, CSV as a table when it is small and regular. Linear in the text, so it
 * runs in the caller's thread; the caller's byte bound keeps it short.
 */

/** Decodes by the byte order mark, else the charset the response named, else UTF-8. */
export function decodeText(body: Uint8Array, charset?: string): string {
  const bom = byteOrderMark(body);
  const label = bom ?? charset ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  // TextDecoder drops the mark itself (ignoreBOM false).
  const text = decoder.decode(body);
  return decoder.encoding === 'windows-1252' ? withWindows1252Signs(text) : text;
}

/** What windows-1252 holds at 0x80..0x9f (the five gaps stay as they are). */
const WINDOWS_1252_SIGNS = '€\x81‚ƒ„…†‡ˆ‰Š‹Œ\x8dŽ\x8f\x90‘’“”•–—˜™š›œ\x9džŸ';

/**
 * Node 20's decoder reads windows-1252 (which `iso-8859-1` and `latin1` name too, in the
 * Encoding standard) as Latin-1: 0x93 comes out as a control character instead of “. The
 * signs are put back here.
 */
function withWindows1252Signs(text: string): string {
  return text.replace(/[\x80-\x9f]/g, (char) => WINDOWS_1252_SIGNS[char.charCodeAt(0) - 0x80]!);
}

function byteOrderMark(body: Uint8Array): string | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  return undefined;
}

export function readText(body: Uint8Array, format: TextFormat, charset: string | undefined, maxChars: number | undefined): DocumentReading {
  const text = decodeText(body, charset).replace(/\r\n?/g, '\n');
  const { markdown, title } = textMarkdown(text, format);
  const cut = cutMarkdown(markdown, maxChars);
  return { markdown: cut.markdown, title, metadata: {}, truncated: cut.truncated, ...(cut.truncated ? { truncatedBy: 'maxChars' as const } : {}) };
}

function textMarkdown(text: string, format: TextFormat): { markdown: string; title: string } {
  switch (format) {
    case 'markdown':
      return { markdown: text.trim(), title: firstHeading(text) };
    case 'json':
      return jsonMarkdown(text);
    case 'xml':
      return { markdown: fenced(text.trim(), 'xml'), title: xmlTitle(text) };
    case 'csv':
    case 'tsv':
      return { markdown: csvMarkdown(text, format === 'tsv' ? '\t' : ','), title: '' };
    case 'plain':
      return { markdown: text.trim(), title: '' };
  }
}

/** Valid JSON, pretty-printed in a fence; anything else is plain text. */
function jsonMarkdown(text: string): { markdown: string; title: string } {
  try {
    return { markdown: fenced(JSON.stringify(JSON.parse(text), null, 2), 'json'), title: '' };
  } catch {
    return { markdown: text.trim(), title: '' };
  }
}

/** A feed's or a document's first `<title>`: an RSS channel's, an Atom feed's. */
function xmlTitle(text: string): string {
  const title = /<title(?:\s[^>]*)?>([^<]{1,500})<\/title>/i.exec(text.slice(0, 20_000))?.[1];
  return title ? decodeXmlEntities(title).trim() : '';
}

function decodeXmlEntities(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (entity, name: string) => {
    if (name[0] !== '#') return named[name.toLowerCase()] ?? entity;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  });
}
