import { unzipSync } from 'fflate';
import { looksLikeText, sniffMarkup, sniffSignature, xmlRootName, type Signature, type UnsupportedFamily } from './signatures.js';

/**
 * What a fetched response is, so the caller can pick the engine that reads it: an HTML page (the
 * browser's), a document this module reads (PDF, DOCX, text), or something nothing reads.
 *
 * The response's own type decides when it names one; when it is generic (`application/octet-
 * stream`, none at all) or the response is a download (`content-disposition: attachment`), the
 * body's first bytes decide, then the file name the server gave, then the URL's extension.
 */

export type TextFormat = 'plain' | 'markdown' | 'json' | 'xml' | 'csv' | 'tsv';

export type { UnsupportedFamily };

/** A body this module reads, as `readDocument` takes it. */
export type DocumentKind = { kind: 'pdf' } | { kind: 'docx' } | { kind: 'text'; format: TextFormat; charset?: string };

/** What a whole body is. */
export type BodyKind = { kind: 'html' } | DocumentKind | { kind: 'unsupported'; mediaType: string; family: UnsupportedFamily };

/**
 * A zip archive whose first bytes do not say whether it is a DOCX: its central directory, at
 * the end of the body, does. Answered only when the body itself was not given; pass it to
 * `classifyZip` once it has arrived.
 */
export type ZipPending = { kind: 'zip' };

export interface BodyFacts {
  /** The response's `content-type` header, as sent. */
  contentType?: string | null;
  /** The response's `content-disposition` header, as sent. */
  contentDisposition?: string | null;
  /** The URL the body came from (after redirects): its extension is the last hint. */
  url?: string;
  /** The body's first bytes, when the rest has not arrived: a kilobyte is enough. */
  head?: Uint8Array;
  /** The whole body, once it has arrived: its start is sniffed, and a zip is told apart here. */
  body?: Uint8Array;
}

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** Types that say nothing about the content: the bytes decide. */
const GENERIC_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/unknown', 'unknown/unknown', 'application/binary', 'application/x-download', 'application/download', 'application/force-download', 'application/x-unknown']);

const PDF_TYPES = new Set(['application/pdf', 'application/x-pdf', 'application/acrobat', 'applications/vnd.pdf', 'text/pdf', 'text/x-pdf']);

const TEXT_TYPES: Record<string, TextFormat> = {
  'text/plain': 'plain',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'application/json': 'json',
  'text/json': 'json',
  'application/xml': 'xml',
  'text/xml': 'xml',
  'text/csv': 'csv',
  'application/csv': 'csv',
  'text/tab-separated-values': 'tsv',
  'application/javascript': 'plain',
  'application/x-javascript': 'plain',
  'application/yaml': 'plain',
  'application/x-yaml': 'plain',
  'application/toml': 'plain',
  'application/x-ndjson': 'plain',
  'application/jsonl': 'plain',
};

/** Document types other than DOCX, which no engine reads. */
const OTHER_DOCUMENT_TYPES = /^application\/(msword|rtf|epub\+zip|postscript|vnd\.ms-|vnd\.oasis\.opendocument\.|vnd\.openxmlformats-officedocument\.(spreadsheetml|presentationml)|vnd\.apple\.)/;
const ARCHIVE_TYPES = /^application\/(zip|x-zip-compressed|gzip|x-gzip|x-tar|x-bzip2|x-7z-compressed|vnd\.rar|x-rar-compressed|x-xz|zstd|java-archive)$/;

type Hint = BodyKind | null;

/** What a file name's extension says; null for one it does not know. */
const EXTENSIONS: Record<string, BodyKind> = {
  pdf: { kind: 'pdf' },
  docx: { kind: 'docx' },
  docm: { kind: 'docx' },
  html: { kind: 'html' },
  htm: { kind: 'html' },
  xhtml: { kind: 'html' },
  txt: { kind: 'text', format: 'plain' },
  text: { kind: 'text', format: 'plain' },
  md: { kind: 'text', format: 'markdown' },
  markdown: { kind: 'text', format: 'markdown' },
  json: { kind: 'text', format: 'json' },
  xml: { kind: 'text', format: 'xml' },
  rss: { kind: 'text', format: 'xml' },
  atom: { kind: 'text', format: 'xml' },
  csv: { kind: 'text', format: 'csv' },
  tsv: { kind: 'text', format: 'tsv' },
  ...family('image', { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', avif: 'image/avif', svg: 'image/svg+xml', bmp: 'image/bmp', ico: 'image/x-icon', tif: 'image/tiff', tiff: 'image/tiff', heic: 'image/heic' }),
  ...family('audio', { mp3: 'audio/mpeg', wav: 'audio/wav', ogg: 'audio/ogg', oga: 'audio/ogg', flac: 'audio/flac', m4a: 'audio/mp4', aac: 'audio/aac', opus: 'audio/opus' }),
  ...family('video', { mp4: 'video/mp4', m4v: 'video/mp4', mov: 'video/quicktime', webm: 'video/webm', mkv: 'video/x-matroska', avi: 'video/x-msvideo', ogv: 'video/ogg' }),
  ...family('archive', { zip: 'application/zip', gz: 'application/gzip', tgz: 'application/gzip', tar: 'application/x-tar', bz2: 'application/x-bzip2', xz: 'application/x-xz', '7z': 'application/x-7z-compressed', rar: 'application/vnd.rar', zst: 'application/zstd' }),
  ...family('document', {
    doc: 'application/msword',
    xls: 'application/vnd.ms-excel',
    xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ppt: 'application/vnd.ms-powerpoint',
    pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    odt: 'application/vnd.oasis.opendocument.text',
    ods: 'application/vnd.oasis.opendocument.spreadsheet',
    odp: 'application/vnd.oasis.opendocument.presentation',
    rtf: 'application/rtf',
    epub: 'application/epub+zip',
  }),
  ...family('font', { woff: 'font/woff', woff2: 'font/woff2', ttf: 'font/ttf', otf: 'font/otf' }),
  ...family('binary', { exe: 'application/x-msdownload', msi: 'application/x-msi', dmg: 'application/x-apple-diskimage', iso: 'application/x-iso9660-image', apk: 'application/vnd.android.package-archive', deb: 'application/vnd.debian.binary-package', rpm: 'application/x-rpm', wasm: 'application/wasm', bin: 'application/octet-stream' }),
};

function family(name: UnsupportedFamily, types: Record<string, string>): Record<string, BodyKind> {
  return Object.fromEntries(Object.entries(types).map(([extension, mediaType]) => [extension, { kind: 'unsupported', mediaType, family: name }]));
}

/** The most of the head that is looked at: signatures and markup openers sit in the first bytes. */
const HEAD_WINDOW = 4096;

/** What the response is, by its headers, its first bytes and its URL; given the whole body, never `zip`. */
export function classifyBody(facts: BodyFacts & { body: Uint8Array }): BodyKind;
export function classifyBody(facts: BodyFacts): BodyKind | ZipPending;
export function classifyBody(facts: BodyFacts): BodyKind | ZipPending {
  const kind = classifyHead(facts);
  return kind.kind === 'zip' && facts.body ? classifyZip(facts.body) : kind;
}

function classifyHead(facts: BodyFacts): BodyKind | ZipPending {
  const { mediaType, charset } = parseContentType(facts.contentType);
  const head = (facts.head ?? facts.body ?? new Uint8Array()).subarray(0, HEAD_WINDOW);
  const signature = sniffSignature(head);
  const fileName = dispositionFileName(facts.contentDisposition);
  const named = extensionHint(fileName) ?? extensionHint(urlFileName(facts.url));
  const withCharset = (kind: BodyKind | ZipPending): BodyKind | ZipPending => (kind.kind === 'text' && charset ? { ...kind, charset } : kind);

  // A download is whatever its bytes are; a server labels attachments carelessly.
  if (isAttachment(facts.contentDisposition) && signature) return fromSignature(signature, head, named);
  if (GENERIC_TYPES.has(mediaType)) return withCharset(bySniffing(signature, head, named));
  return withCharset(byDeclaredType(mediaType, signature, head, named) ?? bySniffing(signature, head, named));
}

/** The kind the declared type gives, with the corrections the bytes force; null when the type is one nothing here knows. */
function byDeclaredType(mediaType: string, signature: Signature | null, head: Uint8Array, named: Hint): BodyKind | ZipPending | null {
  // "%PDF-" never opens a web page: a PDF labelled as a page or as text is still a PDF.
  if (signature?.kind === 'pdf' && (mediaType.startsWith('text/') || mediaType === 'application/xhtml+xml')) return { kind: 'pdf' };
  if (mediaType === 'text/html' || mediaType === 'application/xhtml+xml') return { kind: 'html' };
  // A server answering a document link with its sign-in or error page still labels it as the document.
  if (PDF_TYPES.has(mediaType)) return signature?.kind === 'html' ? { kind: 'html' } : { kind: 'pdf' };
  if (mediaType === DOCX_TYPE) return signature?.kind === 'html' ? { kind: 'html' } : { kind: 'docx' };
  if (mediaType === 'image/svg+xml') return { kind: 'unsupported', mediaType, family: 'image' };
  if (isXmlType(mediaType)) return xmlKind(head);
  if (isJsonType(mediaType)) return { kind: 'text', format: 'json' };
  const text = TEXT_TYPES[mediaType];
  if (text === 'plain' && named?.kind === 'text') return named;
  if (text) return { kind: 'text', format: text };
  if (mediaType.startsWith('text/')) return { kind: 'text', format: named?.kind === 'text' ? named.format : 'plain' };
  const [top] = mediaType.split('/');
  if (top === 'image' || top === 'audio' || top === 'video' || top === 'font') return { kind: 'unsupported', mediaType, family: top };
  // Office types: a DOCX is sometimes sent as the older Word type.
  if (OTHER_DOCUMENT_TYPES.test(mediaType)) {
    if (signature?.kind === 'zip') return named?.kind === 'docx' ? named : { kind: 'zip' };
    return { kind: 'unsupported', mediaType, family: 'document' };
  }
  if (ARCHIVE_TYPES.test(mediaType)) {
    if (signature?.kind === 'zip' && named?.kind === 'docx') return named;
    return signature?.kind === 'zip' && mediaType.includes('zip') ? { kind: 'zip' } : { kind: 'unsupported', mediaType, family: 'archive' };
  }
  return null;
}

/** The kind the bytes give, then the names, then whether the bytes read as text. */
function bySniffing(signature: Signature | null, head: Uint8Array, named: Hint): BodyKind | ZipPending {
  if (signature) return fromSignature(signature, head, named);
  if (named) return named;
  if (!looksLikeText(head)) return { kind: 'unsupported', mediaType: 'application/octet-stream', family: 'binary' };
  const start = Buffer.from(head.subarray(0, 64)).toString('latin1').trimStart();
  return { kind: 'text', format: start.startsWith('{') || start.startsWith('[') ? 'json' : 'plain' };
}

function fromSignature(signature: Signature, head: Uint8Array, named: Hint): BodyKind | ZipPending {
  switch (signature.kind) {
    case 'pdf':
    case 'html':
    case 'unsupported':
      return signature;
    case 'xml':
      return xmlKind(head);
    case 'zip':
      // The file name is enough to try it as a DOCX; readDocument says so if it is not one.
      if (named?.kind === 'docx') return named;
      if (named?.kind === 'unsupported') return named;
      return { kind: 'zip' };
  }
}

/** XML that is a web page (XHTML) goes to the browser; an SVG is an image; any other XML (feeds, sitemaps) is text. */
function xmlKind(head: Uint8Array): BodyKind {
  const root = xmlRootName(head);
  if (root === 'html') return { kind: 'html' };
  if (root === 'svg') return { kind: 'unsupported', mediaType: 'image/svg+xml', family: 'image' };
  if (root === null && sniffMarkup(head) === 'html') return { kind: 'html' };
  return { kind: 'text', format: 'xml' };
}

const isXmlType = (mediaType: string) => mediaType === 'application/xml' || mediaType === 'text/xml' || (mediaType.endsWith('+xml') && mediaType !== 'application/xhtml+xml');
const isJsonType = (mediaType: string) => mediaType.endsWith('+json');

/** The essence of a content type (`type/subtype`, lower case) and its charset parameter. */
export function parseContentType(header: string | null | undefined): { mediaType: string; charset?: string } {
  if (!header) return { mediaType: '' };
  const [essence = '', ...parameters] = header.split(';');
  const charset = parameters
    .map((parameter) => parameter.trim().match(/^charset\s*=\s*"?([^";\s]+)"?$/i)?.[1])
    .find((value) => value !== undefined);
  return { mediaType: essence.trim().toLowerCase(), ...(charset ? { charset: charset.toLowerCase() } : {}) };
}

function isAttachment(header: string | null | undefined): boolean {
  return /^\s*attachment\b/i.test(header ?? '');
}

/** The file name a `content-disposition` header gives (`filename*` first, as RFC 6266 says). */
export function dispositionFileName(header: string | null | undefined): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*[^']*'[^']*'([^;]+)/i.exec(header)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      return extended.trim();
    }
  }
  return /filename\s*=\s*(?:"([^"]*)"|([^;]+))/i.exec(header)?.slice(1).find(Boolean)?.trim() ?? null;
}

function urlFileName(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).pathname.split('/').pop() ?? null;
  } catch {
    return null;
  }
}

function extensionHint(fileName: string | null): Hint {
  const extension = /\.([a-z0-9]{1,8})$/i.exec(fileName ?? '')?.[1]?.toLowerCase();
  return extension ? (EXTENSIONS[extension] ?? null) : null;
}

type ZipKind = Extract<BodyKind, { kind: 'docx' } | { kind: 'unsupported' }>;

/** The entries that tell zip-based formats apart, by the format they name. */
const ZIP_MARKERS: { entry: string; kind: ZipKind }[] = [
  { entry: 'word/document.xml', kind: { kind: 'docx' } },
  { entry: 'xl/workbook.xml', kind: { kind: 'unsupported', mediaType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', family: 'document' } },
  { entry: 'ppt/presentation.xml', kind: { kind: 'unsupported', mediaType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', family: 'document' } },
  { entry: 'content.xml', kind: { kind: 'unsupported', mediaType: 'application/vnd.oasis.opendocument.text', family: 'document' } },
  { entry: 'META-INF/container.xml', kind: { kind: 'unsupported', mediaType: 'application/epub+zip', family: 'document' } },
];

/** Entries read from a central directory before giving up on finding a marker. */
const MAX_ZIP_ENTRIES_READ = 10_000;

/**
 * A zip archive's kind, from the names in its central directory (read without inflating
 * anything): a DOCX, another office format, or an archive.
 */
export function classifyZip(body: Uint8Array): ZipKind {
  const archive: ZipKind = { kind: 'unsupported', mediaType: 'application/zip', family: 'archive' };
  let found: ZipKind | undefined;
  let read = 0;
  const stop = new Error('enough of the directory read');
  try {
    unzipSync(body, {
      filter: (file) => {
        found = ZIP_MARKERS.find((marker) => marker.entry === file.name)?.kind;
        if (found || ++read >= MAX_ZIP_ENTRIES_READ) throw stop;
        return false;
      },
    });
  } catch (error) {
    if (error !== stop) return archive;
  }
  return found ?? archive;
}
