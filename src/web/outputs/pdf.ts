import type { Page } from 'playwright-core';
import { evaluateFunction } from '../../extract/page-script.js';
import type { PdfOptions } from '../output-options.js';
import type { PageOutputEntry } from './reading.js';

/** The PDF: the page printed, stored as a file. */
export const pdfOutput: PageOutputEntry<'pdf'> = {
  name: 'pdf',
  needs: ['painted page'],
  price: { onTop: 'pdf' },
  async read(options, { loaded, bounds }) {
    const maxPages = bounds.pdfMaxPages;
    const pdf = await renderPdf(loaded.page, options, maxPages);
    const capture = { bytes: pdf.bytes, contentType: 'application/pdf', extension: 'pdf', facts: { pages: pdf.pages } };
    if (!pdf.truncated) return { capture };
    const message = `The document was longer than this service's bound of ${maxPages} pages (PDF_MAX_PAGES); the PDF has its first ${maxPages}`;
    return { capture, warnings: [{ code: 'ANSWER_TRUNCATED', message }] };
  },
};

/** Paper heights in inches (Playwright's formats), for the estimate of how many pages a document makes. */
const PAPER_INCHES: Record<PdfOptions['format'], [number, number]> = {
  Letter: [8.5, 11],
  Legal: [8.5, 14],
  Tabloid: [11, 17],
  Ledger: [17, 11],
  A0: [33.1, 46.8],
  A1: [23.4, 33.1],
  A2: [16.54, 23.4],
  A3: [11.7, 16.54],
  A4: [8.27, 11.7],
  A5: [5.83, 8.27],
  A6: [4.13, 5.83],
};

export interface Pdf {
  bytes: Buffer;
  pages: number;
  /** Cut after `maxPages` pages. */
  truncated: boolean;
}

/**
 * Prints the page, never more than `maxPages` pages (Chromium quietly prints fewer when the
 * document is shorter), so an endless page cannot make a PDF of any size.
 */
export async function renderPdf(page: Page, options: PdfOptions, maxPages: number): Promise<Pdf> {
  const bytes = await page.pdf({
    format: options.format,
    landscape: options.landscape,
    printBackground: options.printBackground,
    scale: options.scale,
    margin: options.margin,
    pageRanges: `1-${maxPages}`,
  });
  const pages = countPages(bytes);
  // Exactly maxPages printed: cut, unless the document was that long. Its height says which.
  const truncated = pages >= maxPages && (await estimatedPages(page, options)) > maxPages;
  return { bytes, pages, truncated };
}

/** Page objects in a PDF as Chromium (Skia) writes them: one uncompressed `/Type /Page` each. */
function countPages(bytes: Buffer): number {
  return bytes.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
}

async function estimatedPages(page: Page, options: PdfOptions): Promise<number> {
  const height = await evaluateFunction(page, () => Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0), null);
  const [width, tall] = PAPER_INCHES[options.format];
  const paperPx = (options.landscape ? width : tall) * 96;
  return Math.ceil((height * options.scale) / paperPx);
}
