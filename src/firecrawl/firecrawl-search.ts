import { z } from '@hono/zod-openapi';
import type { Caller } from '../accounts/caller.js';
import { AppError } from '../errors/app-error.js';
import { MAX_QUERY_LENGTH, MAX_SEARCH_LIMIT } from '../search/search.service.js';
import type { SearchHit } from '../search/search-provider.js';
import { type FirecrawlDocument, scrapeDocument } from './document.js';
import { type FirecrawlVersion, type PluckScrape, scrapeOptionFields, toPluckScrape } from './scrape-request.js';
import type { PageServices } from '../web/page-services.js';
import type { SearchService } from '../search/search.service.js';

/** Each scraped result is a page load after the search, one after another in the account's slot: a bound on the wait. */
export const MAX_SCRAPED_RESULTS = 10;

const onlyWeb = (what: string) => `${what}: only web results are available on this server`;

const sourceSchema = z.union([z.literal('web'), z.strictObject({ type: z.literal('web') })]);

export const searchBodySchema = z
  .object({
    query: z.string().trim().min(1, 'Query must not be empty').max(MAX_QUERY_LENGTH),
    limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).default(5),
    sources: z
      .array(z.unknown())
      .max(3)
      .optional()
      .superRefine((sources, refinement) => {
        sources?.forEach((source, index) => {
          if (!sourceSchema.safeParse(source).success) refinement.addIssue({ code: 'custom', path: [index], message: onlyWeb('news and images') });
        });
      })
      .openapi({ description: 'Only "web"' }),
    categories: z.array(z.unknown()).max(0, 'categories (github, research) are not supported by this server').optional(),
    tbs: z
      .unknown()
      .refine((tbs) => tbs === undefined, 'tbs (time-based search) is not supported by this server')
      .optional()
      .openapi({ description: 'Not supported' }),
    scrapeOptions: z.object(scrapeOptionFields([])).optional().openapi({ description: `Scrape each result (at most ${MAX_SCRAPED_RESULTS}) with these options; formats [] scrapes nothing` }),
  })
  .superRefine((body, refinement) => {
    if ((body.scrapeOptions?.formats.length ?? 0) > 0 && body.limit > MAX_SCRAPED_RESULTS) {
      refinement.addIssue({ code: 'custom', path: ['limit'], message: `At most ${MAX_SCRAPED_RESULTS} results are scraped in one search` });
    }
  })
  .openapi({ description: 'Firecrawl search. Accepted and ignored: location, lang, country, timeout, ignoreInvalidURLs, origin, integration' });

export type SearchBody = z.infer<typeof searchBodySchema>;

/** A search result with its scraped page, if asked for: Firecrawl puts the document's fields beside url, title and description. */
export type SearchResultDocument = { url: string; title: string; description: string; position: number } & Partial<FirecrawlDocument>;

/** What these functions use of the running service. */
type Services = Pick<PageServices, 'pages'> & { search: SearchService };

/**
 * Pluck's search (its metering, cache and providers), then, when `scrapeOptions` asks for
 * formats, each result through the page pipeline (each load metered as a scrape). A result
 * whose page fails keeps its place with the reason in `metadata.error`, as Firecrawl does.
 */
export async function firecrawlSearch(ctx: Services, caller: Caller, body: SearchBody, version: FirecrawlVersion) {
  const options = body.scrapeOptions;
  // Options the pipeline cannot take are refused before the search is paid for.
  const scrape = options && options.formats.length > 0 ? toPluckScrape('https://example.com/', options, version, ['scrapeOptions']) : undefined;
  const searched = await ctx.search.run(caller, version, { query: body.query, limit: body.limit });
  const hits = searched.value.results;
  const results: SearchResultDocument[] = [];
  let creditsCost = searched.creditsCost;
  for (const [index, hit] of hits.entries()) {
    const result = { url: hit.url, title: hit.title, description: hit.snippet, position: index + 1 };
    if (!scrape) {
      results.push(result);
      continue;
    }
    const scraped = await scrapeHit(ctx, caller, hit, scrape);
    creditsCost += scraped.metadata.creditsUsed ?? 0;
    results.push({ ...scraped, ...result });
  }
  return { results, creditsCost, cache: searched.cache };
}

async function scrapeHit(ctx: Services, caller: Caller, hit: SearchHit, scrape: PluckScrape) {
  try {
    const run = await ctx.pages.page(caller, { ...scrape.page, url: hit.url }, scrape.outputs, scrape.viewport);
    return await scrapeDocument(run, scrape, caller.requestId);
  } catch (error) {
    // The request itself is wrong, or its caller left: no use trying the next results.
    if (!(error instanceof AppError) || error.code === 'VALIDATION_ERROR' || error.code === 'CLIENT_CLOSED_REQUEST') throw error;
    // A page held until its timeout is charged all the same (metered-operation.ts says so in this header).
    const creditsUsed = error.creditsCharged;
    return { metadata: { sourceURL: hit.url, url: hit.url, statusCode: 0, creditsUsed, error: `${error.code}: ${error.message}` } } satisfies FirecrawlDocument;
  }
}
