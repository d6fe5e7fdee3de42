import { z } from '@hono/zod-openapi';
import type { ContextOptions, LoadOptions } from '../browser/types.js';
import { maxAgeField } from '../cache/max-age.js';
import { type Action, actionListDeadlineMs, actionListSchema } from './actions/action-list.js';

/** Headers a caller may not set: they belong to the connection, the proxy or our own cookies field. */
const FORBIDDEN_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'keep-alive',
  'expect',
  'cookie',
  'proxy-authorization',
  'proxy-connection',
]);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]{0,4096}$/;
/** Text that ends up in a request line or header: control characters (CR, LF, NUL, DEL...) split or break it. */
const NO_CONTROL_CHARACTERS = /^[^\x00-\x08\x0a-\x1f\x7f]*$/;

/** A string bound for a header or cookie: refused with 422 when it holds control characters. */
const headerText = (min: number, max: number) =>
  z.string().min(min).max(max).regex(NO_CONTROL_CHARACTERS, 'Control characters (CR, LF, NUL, DEL...) are not allowed');

const headersSchema = z
  .record(z.string(), z.string())
  .refine((headers) => Object.keys(headers).length <= 50, 'At most 50 headers')
  .refine(
    (headers) => Object.entries(headers).every(([name, value]) => HEADER_NAME.test(name) && HEADER_VALUE.test(value)),
    'Header names must be HTTP tokens and values printable text',
  )
  .refine(
    (headers) => Object.keys(headers).every((name) => !FORBIDDEN_HEADERS.has(name.toLowerCase()) && !name.toLowerCase().startsWith('proxy-')),
    'Connection, proxy and cookie headers cannot be set (use `cookies` for cookies)',
  )
  .openapi({ description: 'Extra request headers sent with every request of the page' });

const cookieSchema = z.strictObject({
  name: headerText(1, 256),
  value: headerText(0, 4096),
  domain: headerText(1, 253).optional(),
  path: headerText(1, 1024).optional(),
});

/** The target URL: syntax here (422); scheme and address in the egress policy (400). */
export const targetUrl = z
  .string()
  .min(1)
  .max(8192)
  .refine((value) => URL.canParse(value), 'Invalid URL')
  .openapi({ example: 'https://example.com/' });

/** Fields every page operation accepts. */
export const pageFields = {
  url: targetUrl,
  waitTime: z.number().int().min(0).max(5000).default(0).openapi({ description: 'Extra wait after the page is ready, ms' }),
  waitUntil: z.enum(['load', 'domcontentloaded', 'networkidle']).optional().openapi({
    description:
      'Unset (the default): wait until the document is parsed and the page has settled (no network or DOM change for 500 ms, or `load` with nothing in flight; at most 10 s), and give a page still showing nothing one more chance to fill itself (up to 5 s). Set: exactly that browser event, as in Playwright',
  }),
  waitForSelector: z.string().min(1).max(1000).optional(),
  timeout: z
    .number()
    .int()
    .min(1000)
    .max(120_000)
    .optional()
    .openapi({ description: 'Time for the page to load and settle, ms (default 30000, capped by NAVIGATION_TIMEOUT_MAX_MS)' }),
  headers: headersSchema.optional(),
  cookies: z.array(cookieSchema).max(50).optional(),
  userAgent: headerText(1, 512).optional(),
  session: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'A session name is 1-64 letters, digits, _ or -')
    .optional()
    .openapi({
      description:
        "Keep browser state (cookies, localStorage, IndexedDB, Cache Storage) between this account's requests that name the same session; without it nothing is carried over. A session keeps the device settings (userAgent, viewport scale, mobile) of the request that opened it (a screenshot asking for another deviceScaleFactor or isMobile is refused with 422), lives in the browser's memory, and closes after 10 minutes unused (BROWSER_SESSION_IDLE_MS); answers in a session are never served from the cache",
      example: 'checkout-flow',
    }),
  maxAge: maxAgeField,
  engine: z.enum(['auto', 'static', 'browser']).optional().openapi({
    description:
      "How the URL is read. `auto` (the default): a document (PDF, DOCX, text) is parsed; HTML that shows its text without scripts is rendered without them (much cheaper), and loaded by the browser with its scripts when it needs them (an app's empty shell, too little text) or when an option does (screenshot, pdf, waitForSelector, waitUntil, waitTime, session). `static`: never run the page's scripts. `browser`: always load the page with its scripts. `metadata.engine` says which way was taken",
  }),
  document: z
    .strictObject({
      firstPage: z.number().int().min(1).max(100_000).optional(),
      lastPage: z.number().int().min(1).max(100_000).optional(),
      maxPages: z.number().int().min(1).max(10_000).optional().openapi({ description: 'Read at most this many pages (capped by DOCUMENT_MAX_PAGES)' }),
    })
    .refine((value) => value.firstPage === undefined || value.lastPage === undefined || value.firstPage <= value.lastPage, {
      message: 'firstPage must not be after lastPage',
      path: ['lastPage'],
    })
    .optional()
    .openapi({ description: 'For a PDF: the pages to read (1-based, inclusive). Ignored for other targets' }),
  actions: actionListSchema.optional(),
};

const selectorList = z.array(z.string().min(1).max(1000)).max(50);

/** What part of the page a text output reads: the markdown operation's fields, and the page operation's for markdown and html. */
export const textSelectionFields = {
  onlyMainContent: z.boolean().default(true).openapi({ description: 'Only the main content (navigation, footers, banners dropped); false: the whole page' }),
  includeTags: selectorList.optional().openapi({ description: 'CSS selectors: only these elements' }),
  excludeTags: selectorList.optional().openapi({ description: 'CSS selectors removed first' }),
};

/** `metadata.warnings` of a page operation: present only when something is worth knowing. */
export const warningsField = z
  .array(z.object({ code: z.string(), message: z.string() }))
  .optional()
  .openapi({
    description:
      'What the answer could not do as usual: PAGE_INCOMPLETE, PAGE_NOT_SETTLED, LOADING_PLACEHOLDER, RENDERED_WITHOUT_SCRIPTS, SIMPLIFIED_EXTRACTION, NO_CONTENT, ANSWER_TRUNCATED. Absent when there is nothing to say',
  });

/** What every page answer's `metadata` says: the load, and what the page says about itself. */
export const pageMetadataFields = {
  url: z.string().openapi({ description: 'As asked' }),
  finalUrl: z.string().openapi({ description: 'After redirects' }),
  statusCode: z.number().openapi({ description: "The target's HTTP status (a 404 page still answers, with 404)" }),
  contentType: z.string(),
  timestamp: z.string(),
  title: z.string(),
  description: z.string(),
  language: z.string().openapi({ description: 'BCP 47, from the document or its metadata; empty when unknown' }),
  canonicalUrl: z.string().openapi({ description: '<link rel="canonical">, absolute; empty when absent' }),
  siteName: z.string(),
  author: z.string(),
  publishedTime: z.string().openapi({ description: 'As the page states it (article:published_time, JSON-LD datePublished...)' }),
  modifiedTime: z.string(),
  favicon: z.string().openapi({ description: 'Absolute; /favicon.ico when the page names none' }),
  image: z.string().openapi({ description: 'og:image or twitter:image, absolute' }),
  keywords: z.string(),
  robots: z.string(),
  openGraph: z.record(z.string(), z.string()).openapi({ description: 'Every og:* property, without the prefix' }),
  twitter: z.record(z.string(), z.string()).openapi({ description: 'Every twitter:* property, without the prefix' }),
  engine: z.enum(['document', 'static', 'browser']).optional().openapi({
    description: 'How the URL was read: `document` (a PDF, DOCX or text file parsed), `static` (HTML rendered without its scripts) or `browser` (loaded with its scripts)',
  }),
  document: z
    .object({
      kind: z.enum(['pdf', 'docx', 'text']),
      pageCount: z.number().optional(),
      pagesRead: z.object({ first: z.number(), last: z.number() }).optional(),
    })
    .optional()
    .openapi({ description: 'Present when the URL served a document: its kind, its pages and those read' }),
  warnings: warningsField,
};

export const viewportSchema = z
  .strictObject({
    width: z.number().int().min(100).max(3840).default(1280),
    height: z.number().int().min(100).max(3840).default(800),
    deviceScaleFactor: z
      .number()
      .min(0.5)
      .max(3)
      .default(1)
      .openapi({ description: 'Device pixels per CSS pixel: a screenshot is this many times its CSS size (400x300 at 2 is 800x600)' }),
    isMobile: z.boolean().default(false).openapi({ description: "A phone: the page's meta viewport is honoured, and a page without one is laid out 980 pixels wide and zoomed out" }),
    hasTouch: z.boolean().default(false),
    isLandscape: z.boolean().default(false),
  })
  .default({ width: 1280, height: 800, deviceScaleFactor: 1, isMobile: false, hasTouch: false, isLandscape: false });

export type Viewport = z.infer<typeof viewportSchema>;

export interface PageRequest {
  url: string;
  waitTime: number;
  waitUntil?: LoadOptions['waitUntil'];
  waitForSelector?: string;
  timeout?: number;
  headers?: Record<string, string>;
  cookies?: Array<{ name: string; value: string; domain?: string; path?: string }>;
  userAgent?: string;
  session?: string;
  /** engines/engine-table.ts; `auto` when unset. */
  engine?: 'auto' | 'static' | 'browser';
  /** `readPdf: false` (Firecrawl's `parsers: []`): a PDF is refused rather than read. */
  document?: { firstPage?: number; lastPage?: number; maxPages?: number; readPdf?: boolean };
  /** Run on the page once it has loaded, before its outputs are read (actions/action-runner.ts). */
  actions?: Action[];
}

export function toLoadOptions(request: PageRequest): LoadOptions {
  return {
    url: request.url,
    waitUntil: request.waitUntil,
    timeoutMs: request.timeout,
    waitForSelector: request.waitForSelector,
    waitTimeMs: request.waitTime,
    extraWorkMs: request.actions?.length ? actionListDeadlineMs(request.actions) : undefined,
  };
}

/** Browser context settings for a request; cookies without a domain belong to the target URL. */
export function toContextOptions(request: PageRequest, viewport?: Viewport): ContextOptions {
  const landscape = viewport?.isLandscape && viewport.height > viewport.width;
  return {
    viewport: viewport && {
      width: landscape ? viewport.height : viewport.width,
      height: landscape ? viewport.width : viewport.height,
    },
    deviceScaleFactor: viewport?.deviceScaleFactor,
    isMobile: viewport?.isMobile,
    hasTouch: viewport?.hasTouch,
    userAgent: request.userAgent,
    session: request.session,
    extraHeaders: request.headers,
    cookies: request.cookies?.map((cookie) =>
      cookie.domain ? { ...cookie, path: cookie.path ?? '/' } : { name: cookie.name, value: cookie.value, url: request.url },
    ),
  };
}
