import type { PageWarning } from '../browser/types.js';
import type { FileType } from '../files/file.service.js';
import type { PageMetadata, PageOutputs, StoredCapture } from './outputs.js';
import { actionResults, type AnsweredActions, pageMetadata } from './page-operations.js';
import type { PageRun } from './page-pipeline.js';

/** A capture as answered: its stored file without the storage key, and its bytes when asked for. */
export type PageCapture = Omit<StoredCapture, 'r2Key'> & { base64?: string };

/**
 * One page's answer: what `POST /v1/web/page` answers, what a job stores for each of its pages
 * and reads back, and what Firecrawl's documents and MCP's scrape tool are made from. Each
 * output asked for, and the page's metadata.
 */
export interface PageAnswer {
  markdown?: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  images?: string[];
  scrape?: PageOutputs['scrape'];
  screenshot?: PageCapture;
  pdf?: PageCapture;
  json?: PageOutputs['json'];
  /** What the request's actions made: their screenshots and PDFs as stored files. */
  actions?: AnsweredActions;
  metadata: PageMetadata & { wordCount?: number; warnings?: PageWarning[] };
}

/** A run as a page answer; captures carry their bytes (base64) when `captureBytes` is given. */
export async function pageAnswer(run: PageRun, captureBytes?: (type: FileType) => Promise<Uint8Array>): Promise<PageAnswer> {
  const { outputs } = run.result;
  const capture = async (type: 'screenshot' | 'pdf', stored: StoredCapture | undefined): Promise<PageCapture | undefined> => {
    if (!stored) return undefined;
    const { r2Key: _key, ...shown } = stored;
    return captureBytes ? { ...shown, base64: Buffer.from(await captureBytes(type)).toString('base64') } : shown;
  };
  return {
    markdown: outputs.markdown?.markdown,
    html: outputs.html,
    rawHtml: outputs.rawHtml,
    links: outputs.links,
    images: outputs.images,
    scrape: outputs.scrape,
    screenshot: await capture('screenshot', outputs.screenshot),
    pdf: await capture('pdf', outputs.pdf),
    json: outputs.json,
    actions: actionResults(outputs.actions),
    metadata: pageMetadata(run.result, outputs.markdown ? { wordCount: outputs.markdown.wordCount } : {}),
  };
}

