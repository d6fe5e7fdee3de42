/** Old path of the scrape options (now in output-options.ts), kept while other branches still import from it. */
export { scrapeTargetsSchema, type ScrapeTarget } from './output-options.js';
