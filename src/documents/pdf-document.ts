import { getHeapStatistics } from 'node:v8';
import { getDocument, PDFDateString, Util, type PDFDocumentProxy } from 'unpdf/pdfjs';
import { DocumentTooLarge, DocumentUnreadable, PageRangeOutsideDocument } from './document-errors.js';
import { linesToMarkdown } from './pdf-blocks.js';
import { pageLines, pageRows, withoutFurniture, type PageText, type TextPiece } from './pdf-layout.js';
import type { DocumentMetadata, DocumentReading } from './reading.js';

/**
 * PDF -> markdown with pdf.js (the serverless build unpdf ships, no canvas): the pages asked
 * for are read one at a time for their text layer, laid out (pdf-layout.ts) and written as
 * markdown (pdf-blocks.ts). Runs in the document worker, which bounds its time and heap; the
 * memory pdf.js keeps outside the heap (decoded streams) is checked between pages.
 */

export interface PdfReadOptions {
  /** 1-based, inclusive; the whole document by default. */
  pages?: { first?: number; last?: number };
  /** Read at most this many pages of the range. */
  maxPages?: number;
  /** Memory outside the JavaScript heap (decoded streams, fonts) the reading may hold. */
  maxExternalMemoryMb: number;
}

/** Metadata strings longer than this are cut: a title is not a book. */
const LABEL_MAX_CHARS = 2_000;

export async function readPdf(body: Uint8Array, options: PdfReadOptions): Promise<DocumentReading> {
  const document = await openPdf(body);
  try {
    const total = document.numPages;
    const first = options.pages?.first ?? 1;
    if (first > total) throw new PageRangeOutsideDocument(first, total);
    const asked = Math.max(first, Math.min(options.pages?.last ?? total, total));
    const last = options.maxPages !== undefined ? Math.min(asked, first + options.maxPages - 1) : asked;
    const info = await readInfo(document);
    const pages: PageText[] = [];
    for (let number = first; number <= last; number++) {
      pages.push(await pageText(document, number));
      checkExternalMemory(options.maxExternalMemoryMb);
    }
    const cut = last < asked;
    const metadata = { ...info.metadata, pageCount: total };
    const range = { first, last, total };
    if (pages.every((page) => page.pieces.length === 0)) {
      return { markdown: '', title: info.title, metadata, truncated: cut, ...(cut ? { truncatedBy: 'maxPages' as const } : {}), pages: range, noTextLayer: true };
    }
    const lines = withoutFurniture(pages.map((page) => ({ page, rows: pageRows(page) }))).flatMap(({ page, rows }) => pageLines(page, rows));
    const { markdown, firstHeading } = linesToMarkdown(lines);
    return { markdown, title: info.title || firstHeading, metadata, truncated: cut, ...(cut ? { truncatedBy: 'maxPages' as const } : {}), pages: range };
  } finally {
    await document.destroy().catch(() => undefined);
  }
}

async function openPdf(body: Uint8Array): Promise<PDFDocumentProxy> {
  try {
    // A copy: pdf.js takes the buffer it is given over.
    return await getDocument({
      data: new Uint8Array(body),
      isEvalSupported: false,
      useSystemFonts: false,
      disableFontFace: true,
      verbosity: 0,
    }).promise;
  } catch (error) {
    throw unreadable(error);
  }
}

function unreadable(error: unknown): DocumentUnreadable {
  const name = error instanceof Error ? error.name : '';
  if (name === 'PasswordException') return new DocumentUnreadable('pdf', 'encrypted', 'it is protected by a password', { cause: error });
  const detail = name === 'InvalidPDFException' ? 'its structure is damaged, or it is not a PDF' : `it is damaged (${error instanceof Error ? error.message : String(error)})`;
  return new DocumentUnreadable('pdf', 'corrupt', detail, { cause: error });
}

/** The text pieces of one page, in page space (y down from the top), left-to-right text only. */
async function pageText(document: PDFDocumentProxy, number: number): Promise<PageText> {
  try {
    const page = await document.getPage(number);
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    const pieces: TextPiece[] = [];
    for (const item of content.items) {
      if (!('str' in item) || item.str.trim() === '') continue;
      const [a, b, c, d, x, y] = Util.transform(viewport.transform, item.transform) as number[];
      // Rotated and vertical text (a margin's arXiv stamp, a table's turned header) is left out of the flow.
      if (a! <= 0 || Math.abs(b!) > 0.01 * a!) continue;
      const size = Math.hypot(c!, d!);
      if (!(size > 0)) continue;
      pieces.push({ text: item.str, x0: x!, x1: x! + item.width, y: y!, size });
    }
    page.cleanup();
    return { number, width: viewport.width, height: viewport.height, pieces };
  } catch (error) {
    throw unreadable(error);
  }
}

async function readInfo(document: PDFDocumentProxy): Promise<{ title: string; metadata: DocumentMetadata }> {
  const { info } = await document.getMetadata().catch(() => ({ info: {} as Record<string, unknown> }));
  const fields = info as Record<string, unknown>;
  const text = (name: string) => (typeof fields[name] === 'string' ? (fields[name] as string).replace(/\0/g, '').trim().slice(0, LABEL_MAX_CHARS) : '');
  const date = (name: string) => {
    const value = PDFDateString.toDateObject(text(name));
    return value && !Number.isNaN(value.getTime()) ? value.toISOString() : '';
  };
  const metadata: DocumentMetadata = {
    author: text('Author'),
    subject: text('Subject'),
    keywords: text('Keywords'),
    creator: text('Creator'),
    producer: text('Producer'),
    createdTime: date('CreationDate'),
    modifiedTime: date('ModDate'),
    language: text('Language'),
  };
  return { title: usefulTitle(text('Title')), metadata: Object.fromEntries(Object.entries(metadata).filter(([, value]) => value)) as DocumentMetadata };
}

/** A title that names the file rather than the document ("Microsoft Word - report.docx", "untitled") says nothing. */
function usefulTitle(title: string): string {
  if (/^(untitled|microsoft word - .*|.*\.(docx?|pdf|indd|tex|dvi|odt|rtf|pptx?|xlsx?))$/i.test(title)) return '';
  return title;
}

function checkExternalMemory(maxMb: number): void {
  const used = getHeapStatistics().external_memory / (1 << 20);
  if (used > maxMb) {
    throw new DocumentTooLarge('memoryMb', maxMb, `Reading the PDF document held ${Math.round(used)} MB of decoded data, over the bound of ${maxMb} MB`, Math.round(used));
  }
}
