import { z } from '@hono/zod-openapi';
import type { PageMetadata } from '../web/outputs.js';
import { type PageAnswer, pageAnswer } from '../web/page-answer.js';
import type { PageRun } from '../web/page-pipeline.js';
import type { PluckScrape } from './scrape-request.js';

/** Firecrawl's `metadata`: its own names, the page's Open Graph tags as ogTitle, ogImage..., and the twitter:* tags by name. */
export const documentMetadataSchema = z
  .looseObject({
    title: z.string().optional(),
    description: z.string().optional(),
    language: z.string().optional(),
    keywords: z.string().optional(),
    robots: z.string().optional(),
    ogTitle: z.string().optional(),
    ogDescription: z.string().optional(),
    ogImage: z.string().optional(),
    ogSiteName: z.string().optional(),
    favicon: z.string().optional(),
    sourceURL: z.string().openapi({ description: 'The URL asked for' }),
    url: z.string().openapi({ description: 'The URL after redirects' }),
    statusCode: z.number(),
    contentType: z.string().optional(),
    numPages: z.number().optional().openapi({ description: "A PDF's page count" }),
    engine: z.enum(['document', 'static', 'browser']).optional().openapi({ description: "Pluck's: how the URL was read (a document parsed, HTML without its scripts, or the scripted browser)" }),
    scrapeId: z.string().optional(),
    cacheState: z.enum(['hit', 'miss']).optional(),
    creditsUsed: z.number().optional(),
    error: z.string().optional(),
  })
  .openapi('FirecrawlDocumentMetadata');

export const documentSchema = z
  .object({
    markdown: z.string().optional(),
    html: z.string().optional(),
    rawHtml: z.string().optional(),
    links: z.array(z.string()).optional(),
    images: z.array(z.string()).optional(),
    screenshot: z.string().optional().openapi({ description: "The stored image's URL (a Pluck file, kept as FILE_RETENTION says)" }),
    json: z.record(z.string(), z.unknown()).optional(),
    extract: z.record(z.string(), z.unknown()).optional().openapi({ description: 'v1, for the extract format' }),
    actions: z
      .object({
        screenshots: z.array(z.string()),
        scrapes: z.array(z.object({ url: z.string(), html: z.string() })),
        javascriptReturns: z.array(z.object({ type: z.string(), value: z.unknown() })),
        pdfs: z.array(z.string()),
      })
      .optional()
      .openapi({ description: "What the request's actions made: screenshots and PDFs as the URLs of stored files, in the order they ran" }),
    metadata: documentMetadataSchema,
    warning: z.string().optional(),
  })
  .openapi('FirecrawlDocument');

export type FirecrawlDocument = z.infer<typeof documentSchema>;

/** What Firecrawl's metadata says of the answer itself, besides the page's own: its price, and for a scrape its id and cache state. */
export interface DocumentFacts {
  scrapeId?: string;
  cacheState?: 'hit' | 'miss';
  creditsUsed: number;
}

/** A scrape's run as a Firecrawl document: the request's id as the scrape's, whether the cache answered, the price. */
export async function scrapeDocument(run: PageRun, scrape: Pick<PluckScrape, 'extractionField'>, scrapeId: string): Promise<FirecrawlDocument> {
  const facts = { scrapeId, cacheState: run.cache === 'HIT' ? ('hit' as const) : ('miss' as const), creditsUsed: run.creditsCost };
  return firecrawlDocument(await pageAnswer(run), [scrape.extractionField], facts);
}

/**
 * A page answer as a Firecrawl document: a scrape's, or a job's page as stored. A json
 * extraction goes in each of `extractionFields` (`json`, or v1's `extract`).
 */
export function firecrawlDocument(answer: PageAnswer, extractionFields: ReadonlyArray<'json' | 'extract'>, facts: DocumentFacts): FirecrawlDocument {
  const { metadata } = answer;
  const document: FirecrawlDocument = {
    markdown: answer.markdown,
    html: answer.html,
    rawHtml: answer.rawHtml,
    links: answer.links,
    images: answer.images,
    screenshot: answer.screenshot?.permanentUrl,
    actions: answer.actions && {
      screenshots: answer.actions.screenshots.map((capture) => capture.permanentUrl),
      scrapes: answer.actions.scrapes,
      javascriptReturns: answer.actions.javascriptReturns,
      pdfs: answer.actions.pdfs.map((capture) => capture.permanentUrl),
    },
    metadata: { ...firecrawlMetadata(metadata), ...facts },
  };
  if (answer.json) for (const field of extractionFields) document[field] = answer.json.extracted;
  if (metadata.warnings?.length) document.warning = metadata.warnings.map((warning) => warning.message).join(' ');
  return withoutUndefined(document);
}

/** What the page says of itself under Firecrawl's names; fields the page leaves empty are left out, as Firecrawl does. */
export function firecrawlMetadata(metadata: PageMetadata): z.infer<typeof documentMetadataSchema> {
  const openGraph = Object.fromEntries(Object.entries(metadata.openGraph).map(([property, value]) => [`og${camelCase(property)}`, value]));
  const twitter = Object.fromEntries(Object.entries(metadata.twitter).map(([property, value]) => [`twitter:${property}`, value]));
  const described = {
    title: metadata.title,
    description: metadata.description,
    language: metadata.language,
    keywords: metadata.keywords,
    robots: metadata.robots,
    author: metadata.author,
    publishedTime: metadata.publishedTime,
    modifiedTime: metadata.modifiedTime,
    canonicalUrl: metadata.canonicalUrl,
    favicon: metadata.favicon,
    ...openGraph,
    ...twitter,
    ogSiteName: metadata.openGraph.site_name ?? metadata.siteName,
    ogImage: metadata.image,
  };
  const present = Object.fromEntries(Object.entries(described).filter(([, value]) => typeof value === 'string' && value !== ''));
  const document = metadata.document?.pageCount === undefined ? {} : { numPages: metadata.document.pageCount };
  return { ...present, sourceURL: metadata.url, url: metadata.finalUrl, statusCode: metadata.statusCode, contentType: metadata.contentType, ...document, engine: metadata.engine };
}

/** `site_name` -> `SiteName`, `image:width` -> `ImageWidth`. */
function camelCase(property: string): string {
  return property
    .split(/[_:.-]/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}
