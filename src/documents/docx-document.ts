import { strFromU8, unzipSync } from 'fflate';
import mammoth from 'mammoth';
import TurndownService from 'turndown';
import { DocumentTooLarge, DocumentUnreadable } from './document-errors.js';
import { firstHeading, type DocumentMetadata, type DocumentReading } from './reading.js';

/**
 * DOCX -> markdown: mammoth turns the document's paragraphs, by their styles, into plain HTML
 * (headings, lists, tables, emphasis, links), and turndown turns that into markdown. Images are
 * left out (a DOCX's images have no address to link to). The title and the other metadata come
 * from the package's core and app properties.
 */

export interface DocxReadOptions {
  /** The most bytes the package's parts may hold once inflated, by its own directory. */
  maxUnzippedBytes: number;
}

const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0];
/** Properties parts bigger than this are not properties: they are skipped. */
const PROPERTIES_MAX_BYTES = 1 << 20;

/** Styles Word documents use for titles, which mammoth's default map does not name. */
const STYLE_MAP = ["p[style-name='Title'] => h1:fresh", "p[style-name='Subtitle'] => h2:fresh"];

export async function readDocx(body: Uint8Array, options: DocxReadOptions): Promise<DocumentReading> {
  const properties = checkPackage(body, options.maxUnzippedBytes);
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(body.buffer, body.byteOffset, body.byteLength) },
      {
        styleMap: STYLE_MAP,
        ignoreEmptyParagraphs: true,
        externalFileAccess: false,
        convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
      },
    );
    html = result.value;
  } catch (error) {
    throw new DocumentUnreadable('docx', 'corrupt', `its parts could not be read (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  const markdown = htmlToMarkdown(html);
  return { markdown, title: properties.title || firstHeading(markdown), metadata: properties.metadata, truncated: false };
}

/**
 * Reads the package's directory (nothing inflated but the small properties parts): refuses a
 * file that is no DOCX, an encrypted one, and one whose parts inflate past the bound.
 */
function checkPackage(body: Uint8Array, maxUnzippedBytes: number): { title: string; metadata: DocumentMetadata } {
  if (OLE_MAGIC.every((byte, index) => body[index] === byte)) {
    throw new DocumentUnreadable('docx', 'encrypted', 'it is encrypted with a password (an Office file in a compound file, not a zip package)');
  }
  let inflated = 0;
  let hasDocument = false;
  let parts: Record<string, Uint8Array>;
  try {
    parts = unzipSync(body, {
      filter: (file) => {
        inflated += file.originalSize;
        if (file.name === 'word/document.xml') hasDocument = true;
        return (file.name === 'docProps/core.xml' || file.name === 'docProps/app.xml') && file.originalSize <= PROPERTIES_MAX_BYTES;
      },
    });
  } catch (error) {
    throw new DocumentUnreadable('docx', 'corrupt', 'it is not a readable zip package', { cause: error });
  }
  if (!hasDocument) throw new DocumentUnreadable('docx', 'not-docx', 'the package holds no word/document.xml (not a Word document)');
  if (inflated > maxUnzippedBytes) {
    throw new DocumentTooLarge('unzippedBytes', maxUnzippedBytes, `The DOCX document's parts inflate to ${inflated} bytes, over the bound of ${maxUnzippedBytes}`, inflated);
  }
  return readProperties(parts['docProps/core.xml'], parts['docProps/app.xml']);
}

function readProperties(core: Uint8Array | undefined, app: Uint8Array | undefined): { title: string; metadata: DocumentMetadata } {
  const coreXml = core ? strFromU8(core) : '';
  const appXml = app ? strFromU8(app) : '';
  const field = (xml: string, name: string) => xmlText(new RegExp(`<${name}(?:\\s[^>]*)?>([^<]*)</${name}>`).exec(xml)?.[1]);
  const application = [field(appXml, 'Application'), field(appXml, 'AppVersion')].filter(Boolean).join(' ');
  const metadata: DocumentMetadata = {
    author: field(coreXml, 'dc:creator'),
    subject: field(coreXml, 'dc:subject'),
    keywords: field(coreXml, 'cp:keywords'),
    creator: application,
    createdTime: isoDate(field(coreXml, 'dcterms:created')),
    modifiedTime: isoDate(field(coreXml, 'dcterms:modified')),
    language: field(coreXml, 'dc:language'),
  };
  return { title: field(coreXml, 'dc:title'), metadata: Object.fromEntries(Object.entries(metadata).filter(([, value]) => value)) as DocumentMetadata };
}

function xmlText(text: string | undefined): string {
  if (!text) return '';
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Math.min(Number(code), 0x10ffff)))
    .replace(/&amp;/g, '&')
    .trim()
    .slice(0, 2_000);
}

function isoDate(text: string): string {
  const date = new Date(text);
  return text && !Number.isNaN(date.getTime()) ? date.toISOString() : '';
}

/** Mammoth's HTML (a small vocabulary: headings, paragraphs, lists, tables, emphasis, links) as markdown. */
export function htmlToMarkdown(html: string): string {
  const turndown = new TurndownService({ headingStyle: 'atx', bulletListMarker: '-', codeBlockStyle: 'fenced', emDelimiter: '_' });
  turndown.remove('img');
  // One space after the marker, as the page extractor writes lists (turndown pads to four columns).
  turndown.addRule('listItem', {
    filter: 'li',
    replacement: (content, node) => {
      const list = node.parentNode as HTMLElement | null;
      const start = Number(list?.getAttribute('start') ?? 1);
      const prefix = list?.nodeName === 'OL' ? `${start + Array.prototype.indexOf.call(list.children, node)}. ` : '- ';
      const body = content.replace(/^\n+/, '').replace(/\n+$/, '\n').replace(/\n/g, `\n${' '.repeat(prefix.length)}`);
      return `${prefix}${body}${node.nextSibling && !body.endsWith('\n') ? '\n' : ''}`;
    },
  });
  turndown.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement: (content) => ` ${content.replace(/\s*\n+\s*/g, ' ').replace(/\|/g, '\\|').trim()} |`,
  });
  turndown.addRule('tableRow', {
    filter: 'tr',
    replacement: (content, node) => {
      const row = `|${content}\n`;
      const table = node.closest('table');
      if (!table || table.querySelector('tr') !== node) return row;
      return `${row}|${' --- |'.repeat(node.children.length)}\n`;
    },
  });
  turndown.addRule('table', {
    filter: 'table',
    replacement: (content) => `\n\n${content.trim()}\n\n`,
  });
  turndown.addRule('tableSection', { filter: ['thead', 'tbody', 'tfoot'], replacement: (content) => content });
  return turndown.turndown(html).trim();
}
