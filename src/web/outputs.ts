import type { PageWarning } from '../browser/types.js';
import type { AiExtraction } from '../ai/ai-extract.service.js';
import type { ExtractionAsk } from '../ai/extraction-prompt.js';
import type { ActionResults } from './actions/action-list.js';
import type { PdfOptions, ScrapeTarget, ScreenshotOptions } from './output-options.js';
import type { PageMetadataFacts } from './page-facts.js';

/**
 * What a page request asks for and what it answers: the shapes routes, jobs, the Firecrawl
 * adapter and MCP share. How each output is read, priced and ordered is its entry in the output
 * table (`outputs/table.ts`).
 */

/** Which part of the page a text output reads (the markdown and cleaned HTML outputs). */
export interface TextSelection {
  onlyMainContent: boolean;
  includeTags: string[];
  excludeTags: string[];
}

/** The outputs one request asks of one page load; `metadata` always comes with them. */
export interface OutputRequest {
  markdown?: TextSelection;
  /** The rendered page cleaned of scripts, styles and (with onlyMainContent) chrome. */
  html?: TextSelection;
  /** The rendered page's HTML as it is. */
  rawHtml?: boolean;
  links?: boolean;
  images?: boolean;
  scrape?: { elements: ScrapeTarget[] };
  screenshot?: ScreenshotOptions;
  pdf?: PdfOptions;
  /** Structured data (or an answer) from the page's markdown, by the AI extraction. */
  json?: ExtractionAsk;
}

/** A screenshot or PDF, stored as a file; its bytes travel beside the result, never in the cache. */
export interface StoredCapture {
  fileId: string;
  permanentUrl: string;
  r2Key: string;
  contentType: string;
  size: number;
  /** Screenshots: the image's own pixels, and whether the area was cut to the bounds. */
  width?: number;
  height?: number;
  truncated?: boolean;
  /** PDFs: pages printed. */
  pages?: number;
}

export interface ScrapedElement {
  text: string;
  html: string;
  attributes: Record<string, string | null>;
  top: number;
  left: number;
  width: number;
  height: number;
}

/** A scrape's answer: each selector's results, and how many elements matched in all. */
export interface ScrapedElements {
  elements: Array<{ selector: string; data: { results: ScrapedElement[] } }>;
  elementsFound: number;
}

export interface PageOutputs {
  markdown?: { markdown: string; wordCount: number; title: string; description: string; language: string };
  html?: string;
  rawHtml?: string;
  links?: string[];
  images?: string[];
  scrape?: ScrapedElements;
  screenshot?: StoredCapture;
  pdf?: StoredCapture;
  json?: AiExtraction;
  /** What the caller's actions made (`actions` of the request, not an output asked for). */
  actions?: ActionResults<StoredCapture>;
}

/** What every page answer says about the page and its load. */
export interface PageMetadata extends PageMetadataFacts {
  url: string;
  finalUrl: string;
  statusCode: number;
  contentType: string;
  timestamp: string;
  /**
   * The way the URL was read (engines/engine-table.ts): `document` parsed, `static` rendered
   * without scripts, `browser` loaded with them. Absent only from results cached before engines.
   */
  engine?: 'document' | 'static' | 'browser';
  /** A document's facts: what it is, its pages and those read. */
  document?: { kind: 'pdf' | 'docx' | 'text'; pageCount?: number; pagesRead?: { first: number; last: number } };
}

/** One page load's outputs: what is cached and answered (capture bytes apart). */
export interface PageResult {
  outputs: PageOutputs;
  metadata: PageMetadata;
  warnings: PageWarning[];
}
