import type { MeteredDeps } from '../accounts/metered-operation.js';
import { AiExtractor } from '../ai/ai-extract.service.js';
import type { BrowserEngine } from '../browser/browser-engine.js';
import { createDocumentReader, type DocumentReader } from '../documents/read-document.js';
import type { FileService } from '../files/file.service.js';
import { PageOperations } from './page-operations.js';
import { PagePipeline } from './page-pipeline.js';

/** The page operations and what they are made of besides the browser. */
export interface PageServices {
  /** The spec's page operations over the page pipeline (one load, every output asked of it). */
  pages: PageOperations;
  /** AI extraction over an OpenAI-compatible server (OPENAI_BASE_URL / OPENAI_API_KEY / AI_MODEL). */
  ai: AiExtractor;
  /** The document reader (PDF, DOCX, text) and its worker threads, closed with the service. */
  documents: DocumentReader;
}

export function createPageServices(metering: MeteredDeps, engine: BrowserEngine, files: FileService): PageServices {
  const ai = new AiExtractor(metering.config.ai);
  const documents = createDocumentReader();
  const pipeline = new PagePipeline({ ...metering, policy: engine.addressPolicy, browser: engine.browser, fetch: engine.guardedFetch.fetch, documents, files, ai });
  return { pages: new PageOperations(pipeline), ai, documents };
}
