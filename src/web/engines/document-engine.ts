import type { PageWarning } from '../../browser/types.js';
import type { DocumentKind } from '../../documents/classify.js';
import { documentAppError } from '../../documents/document-errors.js';
import type { DocumentReader } from '../../documents/read-document.js';
import { AppError } from '../../errors/app-error.js';
import { markdownText } from '../../extract/in-page/text.js';
import type { FetchedTarget } from '../../net/target-fetch.js';
import type { PageText } from '../outputs/reading.js';
import { readingPlan } from '../outputs/table.js';
import type { OutputRequest, PageOutputs } from '../outputs.js';
import type { ReadRequest, UrlReading } from './url-reading.js';

interface DocumentBounds {
  maxPages: number;
  parseTimeoutMs: number;
  answerMaxChars: number;
}

const KIND_NAMES: Record<DocumentKind['kind'], string> = { pdf: 'a PDF document', docx: 'a Word document', text: 'a text file' };

/**
 * The refusal of outputs a document cannot give (those without `readDocument`: HTML, elements,
 * images, a screenshot or a print of the page), naming the first; undefined when it gives them all.
 */
export function refusesDocument(outputs: OutputRequest, kind: DocumentKind): AppError | undefined {
  const plan = readingPlan(outputs);
  const unmet = plan.onPage.find(({ entry }) => entry.readDocument === undefined);
  if (!unmet) return undefined;
  return new AppError(
    'UNSUPPORTED_CONTENT_TYPE',
    `The URL serves ${KIND_NAMES[kind.kind]}, which has no ${unmet.entry.name} output; its text is read as markdown (and links, json)`,
    { details: { output: unmet.entry.name, document: kind.kind } },
  );
}

/** The document engine: the fetched document parsed (src/documents), each output asked made of its text. */
export async function readDocumentOutputs(
  reader: DocumentReader,
  request: ReadRequest,
  fetched: FetchedTarget,
  kind: DocumentKind,
  bounds: DocumentBounds,
): Promise<UrlReading> {
  const asked = request.page.document ?? {};
  if (kind.kind === 'pdf' && asked.readPdf === false) {
    throw new AppError('UNSUPPORTED_CONTENT_TYPE', `${fetched.url} serves a PDF document, and PDF reading is turned off for this request (parsers without pdf)`, {
      details: { document: 'pdf' },
    });
  }
  const read = await reader
    .read(fetched.body, kind, {
      contentType: fetched.headers['content-type'],
      pages: { first: asked.firstPage, last: asked.lastPage },
      maxPages: Math.min(asked.maxPages ?? bounds.maxPages, bounds.maxPages),
      timeoutMs: bounds.parseTimeoutMs,
      maxChars: bounds.answerMaxChars,
      signal: request.signal,
    })
    .catch((error: unknown) => {
      throw documentAppError(error, ['document', 'firstPage']);
    });
  const warnings: PageWarning[] = [];
  if (read.truncatedBy === 'maxPages' && read.pages) {
    warnings.push({
      code: 'ANSWER_TRUNCATED',
      message: `Pages ${read.pages.first}-${read.pages.last} of ${read.pages.total} were read (the page cap: document.maxPages or DOCUMENT_MAX_PAGES)`,
    });
  } else if (read.truncated) {
    warnings.push({ code: 'ANSWER_TRUNCATED', message: `The text was longer than this service's bound of ${bounds.answerMaxChars} characters (ANSWER_MAX_CHARS) and was cut there` });
  }
  const words = markdownText(read.markdown).match(/\S+/g)?.length ?? 0;
  if (words === 0) {
    warnings.push({
      code: 'NO_CONTENT',
      message: read.noTextLayer ? 'The document has no text layer (a scan): its text cannot be read without OCR' : 'The document holds no text',
    });
  }
  const text: PageText = { markdown: read.markdown, title: read.title, description: read.metadata.subject ?? '', language: read.metadata.language ?? '', wordCount: words, truncated: read.truncated, warnings };
  const outputs: PageOutputs = {};
  const plan = readingPlan(request.outputs);
  const reading = { text, finalUrl: fetched.url, bounds: { answerMaxChars: bounds.answerMaxChars } };
  const partWarnings: PageWarning[] = [];
  for (const { entry, options } of plan.onPage) {
    const part = await entry.readDocument!(options as never, reading);
    if ('value' in part) Object.assign(outputs, { [entry.name]: part.value });
    partWarnings.push(...(part.warnings ?? []));
  }
  const meta = read.metadata;
  return {
    outputs,
    captures: {},
    pageText: text,
    // A markdown output carries the text's warnings; other outputs still say what the reading found.
    warnings: request.outputs.markdown ? partWarnings : [...warnings, ...partWarnings],
    metadata: {
      url: request.page.url,
      finalUrl: fetched.url,
      statusCode: fetched.status,
      contentType: fetched.headers['content-type'] ?? '',
      timestamp: new Date().toISOString(),
      title: read.title,
      description: meta.subject ?? '',
      language: meta.language ?? '',
      canonicalUrl: '',
      siteName: '',
      author: meta.author ?? '',
      publishedTime: meta.createdTime ?? '',
      modifiedTime: meta.modifiedTime ?? '',
      favicon: '',
      image: '',
      keywords: meta.keywords ?? '',
      robots: '',
      openGraph: {},
      twitter: {},
      engine: 'document',
      document: { kind: kind.kind, ...(read.pages ? { pageCount: read.pages.total, pagesRead: { first: read.pages.first, last: read.pages.last } } : {}) },
    },
  };
}
