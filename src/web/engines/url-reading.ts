import type { Logger } from 'pino';
import type { ContextOptions, LoadedPage, LoadOptions, PageClaim, PageWarning } from '../../browser/types.js';
import type { FileType } from '../../files/file.service.js';
import type { ActionsMade } from '../actions/action-runner.js';
import type { CaptureMade, PageText } from '../outputs/reading.js';
import type { OutputRequest, PageMetadata, PageOutputs } from '../outputs.js';
import type { PageRequest } from '../page-options.js';

/** The contract between the URL reader (url-reader.ts), its engines and the page pipeline. */

/** What an engine read of a URL: every output asked of the page, before the work that needs none. */
export interface UrlReading {
  outputs: PageOutputs;
  captures: Partial<Record<FileType, CaptureMade>>;
  metadata: PageMetadata;
  warnings: PageWarning[];
  pageText?: PageText;
  /** What the caller's actions made on the page (src/web/actions), stored once the page is released. */
  actionsMade?: ActionsMade;
}

/** One request to read, as the page pipeline has it. */
export interface ReadRequest {
  page: PageRequest;
  outputs: OutputRequest;
  context: ContextOptions;
  load: LoadOptions;
  claim: PageClaim;
  log: Logger;
  signal?: AbortSignal;
  /** Every output asked, read of a loaded page (the page pipeline's reading, outputs/table.ts). */
  readPage(loaded: LoadedPage): Promise<UrlReading>;
}
