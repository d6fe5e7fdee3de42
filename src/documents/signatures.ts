/**
 * What the first bytes of a body say it is: the magic numbers of the formats a web server sends
 * as downloads. Consulted when the response's own type says nothing useful (a generic type, no
 * type, an attachment), and to catch a server that labels a PDF as text.
 */

/** Kinds of content that never hold text Pluck reads. */
export type UnsupportedFamily = 'image' | 'audio' | 'video' | 'font' | 'archive' | 'document' | 'binary';

export type Signature =
  | { kind: 'pdf' }
  | { kind: 'zip' }
  | { kind: 'html' }
  | { kind: 'xml' }
  | { kind: 'unsupported'; mediaType: string; family: UnsupportedFamily };

interface SignatureRule {
  /** Bytes at `offset`; `null` matches any byte. */
  bytes: readonly (number | null)[];
  offset?: number;
  /** Two or three letters a text could start with: they count only when the rest is not text. */
  weak?: boolean;
  signature: Signature;
}

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));
const unsupported = (mediaType: string, family: UnsupportedFamily): Signature => ({ kind: 'unsupported', mediaType, family });
const ANY4 = [null, null, null, null];

/** In order: the first rule that matches decides. ISO base media files are told apart by their brand. */
const SIGNATURES: readonly SignatureRule[] = [
  { bytes: ascii('PK\x03\x04'), signature: { kind: 'zip' } },
  { bytes: ascii('PK\x05\x06'), signature: { kind: 'zip' } },
  { bytes: [0x89, ...ascii('PNG')], signature: unsupported('image/png', 'image') },
  { bytes: ascii('GIF8'), signature: unsupported('image/gif', 'image') },
  { bytes: [0xff, 0xd8, 0xff], signature: unsupported('image/jpeg', 'image') },
  { bytes: [...ascii('RIFF'), ...ANY4, ...ascii('WEBP')], signature: unsupported('image/webp', 'image') },
  { bytes: [...ascii('RIFF'), ...ANY4, ...ascii('WAVE')], signature: unsupported('audio/wav', 'audio') },
  { bytes: [...ascii('RIFF'), ...ANY4, ...ascii('AVI ')], signature: unsupported('video/x-msvideo', 'video') },
  { bytes: ascii('ftypavif'), offset: 4, signature: unsupported('image/avif', 'image') },
  { bytes: ascii('ftypheic'), offset: 4, signature: unsupported('image/heic', 'image') },
  { bytes: ascii('ftypM4A'), offset: 4, signature: unsupported('audio/mp4', 'audio') },
  { bytes: ascii('ftyp'), offset: 4, signature: unsupported('video/mp4', 'video') },
  { bytes: ascii('II*\x00'), signature: unsupported('image/tiff', 'image') },
  { bytes: ascii('MM\x00*'), signature: unsupported('image/tiff', 'image') },
  { bytes: ascii('BM'), weak: true, signature: unsupported('image/bmp', 'image') },
  { bytes: [0x00, 0x00, 0x01, 0x00], signature: unsupported('image/x-icon', 'image') },
  { bytes: ascii('ID3'), weak: true, signature: unsupported('audio/mpeg', 'audio') },
  { bytes: [0xff, 0xfb], signature: unsupported('audio/mpeg', 'audio') },
  { bytes: [0xff, 0xf3], signature: unsupported('audio/mpeg', 'audio') },
  { bytes: ascii('OggS'), signature: unsupported('audio/ogg', 'audio') },
  { bytes: ascii('fLaC'), signature: unsupported('audio/flac', 'audio') },
  { bytes: [0x1a, 0x45, 0xdf, 0xa3], signature: unsupported('video/webm', 'video') },
  { bytes: [0x1f, 0x8b], signature: unsupported('application/gzip', 'archive') },
  { bytes: ascii('BZh'), signature: unsupported('application/x-bzip2', 'archive') },
  { bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], signature: unsupported('application/x-7z-compressed', 'archive') },
  { bytes: ascii('Rar!'), signature: unsupported('application/vnd.rar', 'archive') },
  { bytes: [0xfd, ...ascii('7zXZ')], signature: unsupported('application/x-xz', 'archive') },
  { bytes: [0x28, 0xb5, 0x2f, 0xfd], signature: unsupported('application/zstd', 'archive') },
  { bytes: ascii('ustar'), offset: 257, signature: unsupported('application/x-tar', 'archive') },
  { bytes: ascii('wOFF'), signature: unsupported('font/woff', 'font') },
  { bytes: ascii('wOF2'), signature: unsupported('font/woff2', 'font') },
  { bytes: ascii('OTTO'), signature: unsupported('font/otf', 'font') },
  // The compound file of Office 97-2003 (.doc, .xls, .ppt) and Outlook messages.
  { bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], signature: unsupported('application/x-ole-storage', 'document') },
  { bytes: ascii('{\\rtf'), signature: unsupported('application/rtf', 'document') },
  { bytes: ascii('%!PS'), signature: unsupported('application/postscript', 'document') },
  { bytes: [0x7f, ...ascii('ELF')], signature: unsupported('application/x-executable', 'binary') },
  { bytes: ascii('MZ'), weak: true, signature: unsupported('application/x-msdownload', 'binary') },
  { bytes: [0x00, ...ascii('asm')], signature: unsupported('application/wasm', 'binary') },
];

/** A PDF's header may follow some junk; readers (pdf.js among them) look for it in the first kilobyte. */
const PDF_HEADER_WINDOW = 1024;

/** The signature of a body from its first bytes, or null when they name no format. */
export function sniffSignature(head: Uint8Array): Signature | null {
  if (indexOfAscii(head, '%PDF-', PDF_HEADER_WINDOW) >= 0) return { kind: 'pdf' };
  for (const rule of SIGNATURES) {
    if (matchesAt(head, rule.bytes, rule.offset ?? 0) && !(rule.weak && looksLikeText(head))) return rule.signature;
  }
  const markup = sniffMarkup(head);
  return markup ? { kind: markup } : null;
}

function matchesAt(head: Uint8Array, bytes: readonly (number | null)[], offset: number): boolean {
  if (head.length < offset + bytes.length) return false;
  return bytes.every((byte, index) => byte === null || head[offset + index] === byte);
}

function indexOfAscii(head: Uint8Array, text: string, window: number): number {
  const end = Math.min(head.length, window) - text.length;
  outer: for (let at = 0; at <= end; at++) {
    for (let index = 0; index < text.length; index++) if (head[at + index] !== text.charCodeAt(index)) continue outer;
    return at;
  }
  return -1;
}

/**
 * The tags that open an HTML document in the WHATWG MIME sniffing standard ("identifying a
 * resource with an unknown MIME type"), each followed by a space or `>`.
 */
const HTML_OPENERS = ['!doctype html', 'html', 'head', 'script', 'iframe', 'h1', 'div', 'font', 'table', 'a', 'style', 'title', 'b', 'body', 'br', 'p', '!--'];

/** `html` for a body that opens like an HTML document, `xml` for one that opens with an XML declaration. */
export function sniffMarkup(head: Uint8Array): 'html' | 'xml' | null {
  const text = leadingText(head).trimStart().toLowerCase();
  if (text.startsWith('<?xml')) return 'xml';
  for (const opener of HTML_OPENERS) {
    if (!text.startsWith(`<${opener}`)) continue;
    const next = text.charAt(opener.length + 1);
    if (next === '>' || next === ' ' || next === '\t' || next === '\n' || next === '\r' || opener === '!--') return 'html';
  }
  return null;
}

/** The root element of an XML body, after its declaration, comments, processing instructions and doctype. */
export function xmlRootName(head: Uint8Array): string | null {
  const text = leadingText(head);
  const root = /^(?:\s|<\?[^]*?\?>|<!--[^]*?-->|<!DOCTYPE[^>]*>)*<([A-Za-z_][\w.:-]*)/i.exec(text);
  return root ? root[1]!.toLowerCase() : null;
}

/** The head as Latin-1 text without a UTF-8 byte order mark: enough to read ASCII markup. */
function leadingText(head: Uint8Array): string {
  const start = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  return Buffer.from(head.buffer, head.byteOffset + start, Math.max(0, head.length - start)).toString('latin1');
}

/**
 * Bytes no text file holds (the "binary data bytes" of the MIME sniffing standard): control
 * characters other than tab, line feed, form feed, carriage return and escape.
 */
export function looksLikeText(head: Uint8Array): boolean {
  if (head.length === 0) return true;
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return true;
  for (const byte of head) {
    if (byte <= 0x08 || byte === 0x0b || (byte >= 0x0e && byte <= 0x1a) || (byte >= 0x1c && byte <= 0x1f)) return false;
  }
  return true;
}
