import { z } from 'zod';
import { nonNegativeInt, positiveInt } from './env-values.js';

/** Page operations (src/web): their prices, the result cache and the bounds of what they answer. */
export const webSection = z
  .object({
    SCREENSHOT_CREDIT_COST: nonNegativeInt.default(1),
    PDF_CREDIT_COST: nonNegativeInt.default(1),
    CONTENT_CREDIT_COST: nonNegativeInt.default(1),
    MARKDOWN_CREDIT_COST: nonNegativeInt.default(1),
    SCRAPE_CREDIT_COST: nonNegativeInt.default(1),
    LINKS_CREDIT_COST: nonNegativeInt.default(1),
    AI_EXTRACT_CREDIT_COST: nonNegativeInt.default(5),
    /** Lifetime of cached results; 0 turns the result cache off. */
    CACHE_TTL_SECONDS: nonNegativeInt.default(3600),
    /**
     * The result cache's bounds, in bytes of stored JSON, so that the cache cannot grow with what
     * pages hold. A larger result is not cached.
     */
    CACHE_MAX_ENTRY_BYTES: positiveInt.default(8 * 1024 * 1024),
    /** One account's entries; its oldest go first (memory and Redis). */
    CACHE_MAX_USER_BYTES: positiveInt.default(64 * 1024 * 1024),
    /** Every entry of this instance's in-memory cache (Redis: bounded per account). */
    CACHE_MAX_BYTES: positiveInt.default(256 * 1024 * 1024),
    /** Text answers (HTML, markdown, scrape results, links) are cut at this many characters, in the page. */
    ANSWER_MAX_CHARS: positiveInt.min(10_000).max(100_000_000).default(5_000_000),
    /** Screenshot bounds in device pixels (CSS pixels times deviceScaleFactor), whatever asks for the area. */
    SCREENSHOT_MAX_WIDTH: positiveInt.max(65_000).default(16_384),
    SCREENSHOT_MAX_HEIGHT: positiveInt.max(65_000).default(16_384),
    SCREENSHOT_MAX_PIXELS: positiveInt.max(268_435_456).default(33_554_432),
    /** PDFs are cut after this many pages. */
    PDF_MAX_PAGES: positiveInt.max(10_000).default(100),
    SCRAPE_MAX_SELECTORS: positiveInt.max(1000).default(20),
    /** Matches returned per selector; `elementsFound` still counts them all. */
    SCRAPE_MAX_RESULTS: positiveInt.max(10_000).default(100),
    /**
     * Documents (PDF, DOCX, text) are read up to this many bytes; a larger one is refused
     * (DOCUMENT_TOO_LARGE), its download stopped at the bound.
     */
    DOCUMENT_MAX_BYTES: positiveInt.max(1024 * 1024 * 1024).default(50 * 1024 * 1024),
    /** Pages of a PDF read at most; a longer one is cut there and says so. */
    DOCUMENT_MAX_PAGES: positiveInt.max(10_000).default(500),
    /** The time a document's parse may take, off the event loop; a longer one is given up. */
    DOCUMENT_PARSE_TIMEOUT_MS: positiveInt.min(1000).max(600_000).default(60_000),
    /** HTML read over HTTP for the static engine up to this size; a larger page goes to the browser. */
    STATIC_MAX_BYTES: positiveInt.max(100 * 1024 * 1024).default(10 * 1024 * 1024),
  })
  .transform((e) => ({
    web: {
      creditCosts: {
        screenshot: e.SCREENSHOT_CREDIT_COST,
        pdf: e.PDF_CREDIT_COST,
        content: e.CONTENT_CREDIT_COST,
        markdown: e.MARKDOWN_CREDIT_COST,
        scrape: e.SCRAPE_CREDIT_COST,
        links: e.LINKS_CREDIT_COST,
        'ai-extract': e.AI_EXTRACT_CREDIT_COST,
      },
      cacheTtlSeconds: e.CACHE_TTL_SECONDS,
      cacheLimits: { maxEntryBytes: e.CACHE_MAX_ENTRY_BYTES, maxUserBytes: e.CACHE_MAX_USER_BYTES, maxBytes: e.CACHE_MAX_BYTES },
      answerMaxChars: e.ANSWER_MAX_CHARS,
      screenshot: { maxWidth: e.SCREENSHOT_MAX_WIDTH, maxHeight: e.SCREENSHOT_MAX_HEIGHT, maxPixels: e.SCREENSHOT_MAX_PIXELS },
      pdfMaxPages: e.PDF_MAX_PAGES,
      scrapeMaxSelectors: e.SCRAPE_MAX_SELECTORS,
      scrapeMaxResults: e.SCRAPE_MAX_RESULTS,
      documents: { maxBytes: e.DOCUMENT_MAX_BYTES, maxPages: e.DOCUMENT_MAX_PAGES, parseTimeoutMs: e.DOCUMENT_PARSE_TIMEOUT_MS },
      staticMaxBytes: e.STATIC_MAX_BYTES,
    },
  }));
