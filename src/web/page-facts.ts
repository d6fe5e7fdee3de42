import type { Page } from 'playwright-core';
import { bundlePageFunction, runPageFunction, siblingModule } from '../extract/page-script.js';
import type { PageMetadataFacts } from './in-page/page-metadata.js';

export type { PageMetadataFacts };

/** Titles, descriptions and every other metadata value are cut at this length: they are labels, and a page may make them any size. */
const FACT_MAX_CHARS = 2_000;

const ENTRY = siblingModule(import.meta.url, './in-page/page-metadata');

/** What the loaded page says about itself (in-page/page-metadata.ts), read in a world of our own. */
export async function readPageMetadata(page: Page): Promise<PageMetadataFacts> {
  const script = await bundlePageFunction(ENTRY, 'readPageMetadata');
  return runPageFunction<PageMetadataFacts>(page, script, FACT_MAX_CHARS);
}
