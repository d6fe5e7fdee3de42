import { z } from '@hono/zod-openapi';
import { aiAskFields } from '../ai/ask-schema.js';
import type { ExtractionAsk } from '../ai/extraction-prompt.js';
import { toSpecIssues, validationError, type ValidationIssue } from '../errors/validation-error.js';
import type { OutputRequest } from '../web/outputs.js';
import { actionListSchema } from '../web/actions/action-list.js';
import { pageFields, type PageRequest, targetUrl, textSelectionFields, type Viewport, viewportSchema } from '../web/page-options.js';
import type { ScreenshotOptions } from '../web/output-options.js';

/** Firecrawl's API version: v1 names a few formats and the JSON options differently. */
export type FirecrawlVersion = 'v1' | 'v2';

/** The longest wait Pluck gives a page after it is ready (its own `waitTime` bound). */
const MAX_WAIT_FOR_MS = 5000;
/** Pluck's own bound on a page load; a longer Firecrawl timeout is cut to it. */
const MAX_TIMEOUT_MS = 120_000;
const MAX_AGE_SECONDS = 7 * 24 * 3600;
/**
 * A phone's screen, for `mobile: true`: the 390x844 CSS pixels of the phones this size (iPhone
 * 12 to 15) at their 3 device pixels each, so a screenshot is what such a phone shows: 1170x2532.
 */
const MOBILE_VIEWPORT: Viewport = { width: 390, height: 844, deviceScaleFactor: 3, isMobile: true, hasTouch: true, isLandscape: false };

const TEXT_FORMATS = ['markdown', 'html', 'rawHtml', 'links', 'images'] as const;
/** Firecrawl formats this server does not make, named in the refusal so a caller knows it is not a typo. */
const UNSUPPORTED_FORMATS = new Set(['summary', 'changeTracking', 'branding', 'attributes', 'content', 'compare', 'audio']);
const SUPPORTED_FORMATS = 'markdown, html, rawHtml, links, images, screenshot, json';

const formatSchema = z
  .union([z.string().min(1).max(100), z.looseObject({ type: z.string().min(1).max(100) })])
  .openapi({
    description:
      'markdown, html, rawHtml, links, images, screenshot by name; {type: "screenshot", fullPage?, quality?, viewport?: {width, height}}; {type: "json", prompt?, schema?}. v1 also: "screenshot@fullPage", and "json" or "extract" with jsonOptions or extract',
  });

const aiOptions = z.object({ prompt: aiAskFields.prompt, schema: aiAskFields.schema, systemPrompt: aiAskFields.instructions });

/** The scrape options of Firecrawl's scrape and of its search's `scrapeOptions`. */
export function scrapeOptionFields(defaultFormats: string[]) {
  return {
    formats: z.array(formatSchema).max(20).default(defaultFormats),
    onlyMainContent: textSelectionFields.onlyMainContent,
    includeTags: textSelectionFields.includeTags,
    excludeTags: textSelectionFields.excludeTags,
    headers: z
      .record(z.string(), z.string())
      .optional()
      .openapi({ description: 'Request headers sent with every request of the page; a Cookie header becomes cookies of the page URL' }),
    waitFor: z
      .number()
      .int()
      .min(0)
      .max(MAX_WAIT_FOR_MS, `waitFor is at most ${MAX_WAIT_FOR_MS} ms on this server`)
      .default(0)
      .openapi({ description: 'Extra wait after the page is ready, ms' }),
    timeout: z
      .number()
      .int()
      .min(1000)
      .max(300_000)
      .optional()
      .openapi({ description: `Time for the page to load and settle, ms; cut to ${MAX_TIMEOUT_MS} (and NAVIGATION_TIMEOUT_MAX_MS)` }),
    mobile: z.boolean().default(false).openapi({ description: 'A phone: a touch, mobile viewport of 390x844 CSS pixels at deviceScaleFactor 3 (a screenshot is 1170x2532)' }),
    actions: actionListSchema.optional(),
    parsers: z
      .array(z.union([z.literal('pdf'), z.strictObject({ type: z.literal('pdf'), maxPages: z.number().int().min(1).max(10_000).optional() })]))
      .max(5)
      .optional()
      .openapi({
        description:
          "How documents are read. Unset or ['pdf'] (the default): a PDF's text is read as markdown; {type: 'pdf', maxPages} reads its first pages only; [] turns PDF reading off (a PDF URL is then refused with UNSUPPORTED_CONTENT_TYPE). DOCX and text files are read either way",
      }),
    maxAge: z
      .number()
      .int()
      .min(0)
      .optional()
      .openapi({ description: 'Accept a cached result up to this many milliseconds old (capped by CACHE_TTL_SECONDS); 0 bypasses the cache' }),
    jsonOptions: aiOptions.optional().openapi({ description: 'v1: the options of the json format' }),
    extract: aiOptions.optional().openapi({ description: 'v1: the options of the extract format' }),
  };
}

export const scrapeBodySchema = z.object({ url: targetUrl, ...scrapeOptionFields(['markdown']) }).openapi({
  description:
    'Firecrawl scrape options. Accepted and ignored: location, proxy, blockAds, skipTlsVerification, removeBase64Images, fastMode, storeInCache, zeroDataRetention, origin, integration',
});

export type ScrapeOptionsBody = Omit<z.infer<typeof scrapeBodySchema>, 'url'>;

/** A Firecrawl scrape as Pluck's page pipeline takes it, and where the answer puts the AI extraction. */
export interface PluckScrape {
  page: PageRequest & { maxAge?: number };
  viewport?: Viewport;
  outputs: OutputRequest;
  /** `json`, or `extract` for v1's older format of the same extraction. */
  extractionField: 'json' | 'extract';
}

/** Firecrawl scrape options as one page pipeline request; what Pluck cannot do is a 400 naming the field. */
export function toPluckScrape(url: string, body: ScrapeOptionsBody, version: FirecrawlVersion, at: (string | number)[] = []): PluckScrape {
  const issues: ValidationIssue[] = [];
  const selection = { onlyMainContent: body.onlyMainContent, includeTags: body.includeTags ?? [], excludeTags: body.excludeTags ?? [] };
  const outputs: OutputRequest = {};
  let viewport = body.mobile ? MOBILE_VIEWPORT : undefined;
  let extractionField: PluckScrape['extractionField'] = 'json';
  const ask = (options: z.infer<typeof aiOptions> | undefined, path: (string | number)[], name: string) => {
    const parsed = askOf(options, [...at, ...path], name, issues);
    if (parsed) outputs.json = parsed;
  };

  body.formats.forEach((format, index) => {
    const path = [...at, 'formats', index];
    const { type, ...options } = typeof format === 'string' ? { type: format } : format;
    if ((TEXT_FORMATS as readonly string[]).includes(type)) {
      const name = type as (typeof TEXT_FORMATS)[number];
      if (name === 'markdown' || name === 'html') outputs[name] = selection;
      else outputs[name] = true;
    } else if (type === 'screenshot' || type === 'screenshot@fullPage') {
      const shot = screenshotOf(options, path, issues);
      if (shot) {
        outputs.screenshot = { ...shot.options, fullPage: shot.options.fullPage || type === 'screenshot@fullPage' };
        if (shot.viewport) viewport = { ...(viewport ?? viewportSchema.parse(undefined)), ...shot.viewport };
      }
    } else if (type === 'json' && typeof format === 'object') {
      ask(options as z.infer<typeof aiOptions>, ['formats', index], 'The json format');
    } else if (type === 'json' && version === 'v1') {
      ask(body.jsonOptions, ['jsonOptions'], 'The json format');
    } else if (type === 'extract' && version === 'v1') {
      ask(body.extract, ['extract'], 'The extract format');
      extractionField = 'extract';
    } else if (type === 'json') {
      issues.push({ code: 'custom', path, message: "json must be an object: {type: 'json', prompt, schema}" });
    } else if (UNSUPPORTED_FORMATS.has(type)) {
      issues.push({ code: 'custom', path, message: `The ${type} format is not supported by this server; supported: ${SUPPORTED_FORMATS}` });
    } else {
      issues.push({ code: 'custom', path, message: `Unknown format ${JSON.stringify(type)}; supported: ${SUPPORTED_FORMATS}` });
    }
  });
  const { headers, cookies } = headersOf(body.headers, [...at, 'headers'], issues);
  if (issues.length > 0) throw validationError(issues);

  const page = {
    url,
    waitTime: body.waitFor,
    timeout: body.timeout === undefined ? undefined : Math.min(body.timeout, MAX_TIMEOUT_MS),
    headers,
    cookies,
    maxAge: body.maxAge === undefined ? undefined : Math.min(Math.floor(body.maxAge / 1000), MAX_AGE_SECONDS),
    actions: body.actions?.length ? body.actions : undefined,
    document: documentOptionsOf(body.parsers),
  };
  return { page, viewport, outputs, extractionField };
}

/** Firecrawl's `parsers` as the page pipeline's document options: the PDF parser on (with a page cap) or off. */
function documentOptionsOf(parsers: ScrapeOptionsBody['parsers']): PageRequest['document'] {
  if (parsers === undefined) return undefined;
  const pdf = parsers.find((parser) => parser === 'pdf' || parser.type === 'pdf');
  if (pdf === undefined) return { readPdf: false };
  return typeof pdf === 'object' && pdf.maxPages !== undefined ? { maxPages: pdf.maxPages } : undefined;
}

const screenshotFormat = z.object({
  fullPage: z.boolean().default(false),
  quality: z.number().int().min(0).max(100).optional().openapi({ description: 'A JPEG of this quality (a PNG without)' }),
  viewport: z.strictObject({ width: viewportSchema.unwrap().shape.width, height: viewportSchema.unwrap().shape.height }).optional(),
});

function screenshotOf(options: Record<string, unknown>, path: (string | number)[], issues: ValidationIssue[]) {
  const parsed = screenshotFormat.safeParse(options);
  if (!parsed.success) {
    issues.push(...prefixed(path, toSpecIssues(parsed.error, options)));
    return undefined;
  }
  const { fullPage, quality, viewport } = parsed.data;
  const captureOptions: ScreenshotOptions =
    quality === undefined ? { fullPage, type: 'png', omitBackground: false } : { fullPage, type: 'jpeg', quality, omitBackground: false };
  return { options: captureOptions, viewport };
}

function askOf(options: z.infer<typeof aiOptions> | undefined, path: (string | number)[], name: string, issues: ValidationIssue[]): ExtractionAsk | undefined {
  const parsed = aiOptions.safeParse(options ?? {});
  if (!parsed.success) {
    issues.push(...prefixed(path, toSpecIssues(parsed.error, options)));
    return undefined;
  }
  const { prompt, schema, systemPrompt } = parsed.data;
  if (!prompt && !schema) {
    issues.push({ code: 'custom', path, message: `${name} needs a prompt or a schema (or both)` });
    return undefined;
  }
  return { prompt, schema, instructions: systemPrompt, responseType: 'json' };
}

/**
 * Firecrawl callers send cookies as a Cookie header; Pluck sets them as cookies of the page URL
 * (its header field refuses Cookie, which would otherwise reach every host the page calls).
 */
function headersOf(given: Record<string, string> | undefined, path: (string | number)[], issues: ValidationIssue[]) {
  if (!given) return {};
  const cookieName = Object.keys(given).find((name) => name.toLowerCase() === 'cookie');
  const rest = Object.fromEntries(Object.entries(given).filter(([name]) => name !== cookieName));
  const headers = pageFields.headers.safeParse(rest);
  if (!headers.success) issues.push(...prefixed(path, toSpecIssues(headers.error, rest)));
  if (cookieName === undefined) return { headers: headers.data };
  const pairs = given[cookieName]!.split(';').map((pair) => pair.trim()).filter(Boolean);
  const cookieList = pairs.map((pair) => {
    const equals = pair.indexOf('=');
    return equals > 0 ? { name: pair.slice(0, equals).trim(), value: pair.slice(equals + 1).trim() } : { name: pair, value: '' };
  });
  const cookies = pageFields.cookies.safeParse(cookieList);
  if (!cookies.success) issues.push(...prefixed([...path, cookieName], toSpecIssues(cookies.error, cookieList)));
  return { headers: headers.data, cookies: cookies.data };
}

function prefixed(path: (string | number)[], issues: ValidationIssue[]): ValidationIssue[] {
  return issues.map((issue) => ({ ...issue, path: [...path, ...issue.path] }));
}
