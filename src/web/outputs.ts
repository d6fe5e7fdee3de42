import type { PageWarning } from '../browser/types.js';
import type { AiExtraction } from '../ai/ai-extract.service.js';
import type { ExtractionAsk } from '../ai/extraction-prompt.js';
import type { WebOperation } from '../config.js';
import type { PageMetadataFacts } from './page-facts.js';
import type { PdfOptions, ScrapeTarget, ScreenshotOptions } from './output-options.js';
import type { ScrapeOutcome } from './scrape.js';

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

export interface PageOutputs {
  markdown?: { markdown: string; wordCount: number; title: string; description: string; language: string };
  html?: string;
  rawHtml?: string;
  links?: string[];
  images?: string[];
  scrape?: Omit<ScrapeOutcome, 'truncated'>;
  screenshot?: StoredCapture;
  pdf?: StoredCapture;
  json?: AiExtraction;
}

/** What every page answer says about the page and its load. */
export interface PageMetadata extends PageMetadataFacts {
  url: string;
  finalUrl: string;
  statusCode: number;
  contentType: string;
  timestamp: string;
}

/** One page load's outputs: what is cached and answered (capture bytes apart). */
export interface PageResult {
  outputs: PageOutputs;
  metadata: PageMetadata;
  warnings: PageWarning[];
}

/** The operation whose configured credit cost each output carries. */
const TEXT_OUTPUT_COSTS: Array<[keyof OutputRequest, WebOperation]> = [
  ['markdown', 'markdown'],
  ['html', 'content'],
  ['rawHtml', 'content'],
  ['links', 'links'],
  ['images', 'links'],
  ['scrape', 'scrape'],
];

/**
 * The price of a request: one page load with every text output it asks for costs the dearest of
 * them (they share the load); each capture and the AI extraction cost their own on top. So each
 * spec endpoint, which asks for one output, costs exactly its configured price.
 */
export function costOf(outputs: OutputRequest, costs: Record<WebOperation, number>): number {
  const text = TEXT_OUTPUT_COSTS.filter(([output]) => outputs[output]).map(([, operation]) => costs[operation]);
  const extras = (outputs.screenshot ? costs.screenshot : 0) + (outputs.pdf ? costs.pdf : 0) + (outputs.json ? costs['ai-extract'] : 0);
  const asksNothingElse = text.length === 0 && extras === 0 && !outputs.screenshot && !outputs.pdf && !outputs.json;
  return (text.length > 0 ? Math.max(...text) : asksNothingElse ? costs.content : 0) + extras;
}

/** Images and fonts matter to captures only: text outputs do not wait for them (page-settle.ts). */
export function settleFor(outputs: OutputRequest): 'text' | 'render' {
  return outputs.screenshot || outputs.pdf ? 'render' : 'text';
}

/** A markdown-only answer with nothing in it is free and not cached: the page may have content next time. */
export function isEmptyMarkdownAnswer(outputs: OutputRequest, result: PageResult): boolean {
  const onlyMarkdown = Object.keys(outputs).every((output) => output === 'markdown');
  return onlyMarkdown && result.warnings.some((warning) => warning.code === 'NO_CONTENT');
}
