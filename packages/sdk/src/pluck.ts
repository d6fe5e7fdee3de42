import { createClient, createConfig } from './generated/client/index.js';
import type { Client } from './generated/client/index.js';
import * as api from './generated/sdk.gen.js';
import type * as types from './generated/types.gen.js';
import { errorFromResponse, networkError, PluckError } from './errors.js';
import { type RetryOptions, retryingFetch } from './retry.js';

export interface PluckOptions extends RetryOptions {
  /** An API key (pk_...); PLUCK_API_KEY is the CLI's name for it. */
  apiKey: string;
  /** Where Pluck answers, e.g. http://localhost:3000 (no trailing /v1). */
  baseUrl: string;
  /** A fetch to send requests with (default: the global one). */
  fetch?: typeof fetch;
}

/** Per-call settings. */
export interface CallOptions {
  signal?: AbortSignal;
}

type BodyOf<T extends { body?: unknown }> = NonNullable<T['body']>;
type AnswerOf<T> = T extends { 200: infer Answer } ? Answer : never;

export type MarkdownRequest = BodyOf<types.PostV1WebMarkdownData>;
export type MarkdownAnswer = AnswerOf<types.PostV1WebMarkdownResponses>;
export type ContentRequest = BodyOf<types.PostV1WebContentData>;
export type ContentAnswer = AnswerOf<types.PostV1WebContentResponses>;
export type LinksRequest = BodyOf<types.PostV1WebLinksData>;
export type LinksAnswer = AnswerOf<types.PostV1WebLinksResponses>;
export type PageRequest = BodyOf<types.PostV1WebPageData>;
export type PageAnswer = AnswerOf<types.PostV1WebPageResponses>;
export type ScrapeRequest = BodyOf<types.PostV1WebScrapeData>;
export type ScrapeAnswer = AnswerOf<types.PostV1WebScrapeResponses>;
export type AiExtractRequest = BodyOf<types.PostV1WebAiExtractData>;
export type AiExtractAnswer = AnswerOf<types.PostV1WebAiExtractResponses>;
export type SearchRequest = BodyOf<types.PostV1WebSearchData>;
export type SearchAnswer = AnswerOf<types.PostV1WebSearchResponses>;
export type SearchV2Request = BodyOf<types.PostV2WebSearchData>;
export type SearchV2Answer = AnswerOf<types.PostV2WebSearchResponses>;
export type CaptionsRequest = BodyOf<types.PostV2WebYtCaptionsData>;
export type CaptionsAnswer = AnswerOf<types.PostV2WebYtCaptionsResponses>;
export type CreditsAnswer = AnswerOf<types.GetV1UserCreditsResponses>;
export type CrawlRequest = BodyOf<types.PostV1JobsCrawlData>;
export type BatchRequest = BodyOf<types.PostV1JobsBatchData>;
export type MapRequest = BodyOf<types.PostV1JobsMapData>;
export type JobAnswer = AnswerOf<types.PostV1JobsCrawlResponses extends { 201: infer Answer } ? { 200: Answer } : never>;
export type JobStatusAnswer = AnswerOf<types.GetV1JobsByIdResponses>;
/** Screenshot options; the bytes come back as a Capture, so `base64` is not among them. */
export type ScreenshotRequest = Omit<BodyOf<types.PostV1WebScreenshotData>, 'base64'>;
export type PdfRequest = Omit<BodyOf<types.PostV1WebPdfData>, 'base64'>;

/** A screenshot or PDF: its bytes, and what the answer's headers say about it. */
export interface Capture {
  bytes: Uint8Array;
  /** image/png, image/jpeg, application/pdf ... */
  contentType: string;
  /** The stored copy: `fileUrl` serves it without credentials until it expires. */
  fileId: string;
  fileUrl: string;
  creditsCost: number;
  requestId: string | undefined;
  /** HIT or MISS: whether the result came from Pluck's cache. */
  cache: string | undefined;
  /** Warning codes (see metadata.warnings in the API reference). */
  warnings: string[];
}

export interface Pluck {
  /** The generated client, configured with the key, base URL, retries and PluckError: pass it as `client` to any generated function. */
  readonly client: Client;
  markdown(body: MarkdownRequest, options?: CallOptions): Promise<MarkdownAnswer>;
  content(body: ContentRequest, options?: CallOptions): Promise<ContentAnswer>;
  links(body: LinksRequest, options?: CallOptions): Promise<LinksAnswer>;
  /** Several outputs of one page load (POST /v1/web/page). */
  page(body: PageRequest, options?: CallOptions): Promise<PageAnswer>;
  scrape(body: ScrapeRequest, options?: CallOptions): Promise<ScrapeAnswer>;
  aiExtract(body: AiExtractRequest, options?: CallOptions): Promise<AiExtractAnswer>;
  search(body: SearchRequest, options?: CallOptions): Promise<SearchAnswer>;
  searchV2(body: SearchV2Request, options?: CallOptions): Promise<SearchV2Answer>;
  captions(body: CaptionsRequest, options?: CallOptions): Promise<CaptionsAnswer>;
  credits(options?: CallOptions): Promise<CreditsAnswer>;
  screenshot(body: ScreenshotRequest, options?: CallOptions): Promise<Capture>;
  pdf(body: PdfRequest, options?: CallOptions): Promise<Capture>;
  /** Starts a crawl, a batch or a map job (answers the job; follow it with `job`). */
  crawl(body: CrawlRequest, options?: CallOptions): Promise<JobAnswer>;
  batch(body: BatchRequest, options?: CallOptions): Promise<JobAnswer>;
  map(body: MapRequest, options?: CallOptions): Promise<JobAnswer>;
  /** A job's status and a page of its results after `cursor` (the previous answer's `next`). */
  job(id: string, page?: { cursor?: string; limit?: number }, options?: CallOptions): Promise<JobStatusAnswer>;
  cancelJob(id: string, options?: CallOptions): Promise<JobAnswer>;
  /** A job's results in one file: JSON lines, or a zip of markdown files. */
  jobDownload(id: string, format: 'jsonl' | 'zip', options?: CallOptions): Promise<Uint8Array>;
  /** The bytes of a stored file from its permanentUrl (e.g. a screenshot asked of /v1/web/page). Sent without the API key: the URL is the credential. */
  fileBytes(url: string, options?: CallOptions): Promise<Uint8Array>;
}

function captureFrom(bytes: ArrayBuffer, response: Response): Capture {
  const header = (name: string) => response.headers.get(name) ?? undefined;
  return {
    bytes: new Uint8Array(bytes),
    contentType: header('content-type') ?? 'application/octet-stream',
    fileId: header('x-file-id') ?? '',
    fileUrl: header('x-file-url') ?? '',
    creditsCost: Number(header('x-credits-cost') ?? 0),
    requestId: header('x-request-id'),
    cache: header('x-cache'),
    warnings: (header('x-warnings') ?? '').split(',').filter(Boolean),
  };
}

/**
 * A Pluck client: typed requests and answers, PluckError for every failure, and retries on
 * 429 and 503 that honour Retry-After.
 *
 *   const pluck = createPluck({ apiKey: process.env.PLUCK_API_KEY!, baseUrl: 'http://localhost:3000' });
 *   const { data } = await pluck.markdown({ url: 'https://example.com' });
 */
export function createPluck(options: PluckOptions): Pluck {
  if (!options.apiKey) throw new TypeError('createPluck: apiKey is required');
  if (!options.baseUrl) throw new TypeError('createPluck: baseUrl is required');
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const send = retryingFetch(options.fetch ?? globalThis.fetch, options);
  const client = createClient(
    // The generated client calls fetch with one Request, which is all retryingFetch takes.
    createConfig({ baseUrl, auth: options.apiKey, fetch: send as typeof fetch, throwOnError: true }),
  );
  client.interceptors.error.use((error, response) => (response ? errorFromResponse(response, error) : networkError(error)));

  // The generated functions with this client: they throw PluckError and answer the 200 body.
  const requestOptions = (callOptions: CallOptions = {}) => ({ client, throwOnError: true as const, signal: callOptions.signal });

  const capture =
    (operation: typeof api.postV1WebScreenshot | typeof api.postV1WebPdf) =>
    async (body: ScreenshotRequest | PdfRequest, callOptions: CallOptions = {}): Promise<Capture> => {
      // parseAs turns the body into an ArrayBuffer; the generated type only knows the JSON variant.
      const { data, response } = await operation({ ...requestOptions(callOptions), body: { ...body, base64: false }, parseAs: 'arrayBuffer' });
      return captureFrom(data as unknown as ArrayBuffer, response);
    };

  return {
    client,
    markdown: async (body, call) => (await api.postV1WebMarkdown({ ...requestOptions(call), body })).data,
    content: async (body, call) => (await api.postV1WebContent({ ...requestOptions(call), body })).data,
    links: async (body, call) => (await api.postV1WebLinks({ ...requestOptions(call), body })).data,
    page: async (body, call) => (await api.postV1WebPage({ ...requestOptions(call), body })).data,
    scrape: async (body, call) => (await api.postV1WebScrape({ ...requestOptions(call), body })).data,
    aiExtract: async (body, call) => (await api.postV1WebAiExtract({ ...requestOptions(call), body })).data,
    search: async (body, call) => (await api.postV1WebSearch({ ...requestOptions(call), body })).data,
    searchV2: async (body, call) => (await api.postV2WebSearch({ ...requestOptions(call), body })).data,
    captions: async (body, call) => (await api.postV2WebYtCaptions({ ...requestOptions(call), body })).data,
    credits: async (call) => (await api.getV1UserCredits(requestOptions(call))).data,
    crawl: async (body, call) => (await api.postV1JobsCrawl({ ...requestOptions(call), body })).data,
    batch: async (body, call) => (await api.postV1JobsBatch({ ...requestOptions(call), body })).data,
    map: async (body, call) => (await api.postV1JobsMap({ ...requestOptions(call), body })).data,
    job: async (id, page = {}, call) => (await api.getV1JobsById({ ...requestOptions(call), path: { id }, query: { limit: page.limit ?? 20, cursor: page.cursor } })).data,
    cancelJob: async (id, call) => (await api.deleteV1JobsById({ ...requestOptions(call), path: { id } })).data,
    jobDownload: async (id, format, call) => {
      const { data } = await api.getV1JobsByIdDownload({ ...requestOptions(call), path: { id }, query: { format }, parseAs: 'arrayBuffer' });
      return new Uint8Array(data as unknown as ArrayBuffer);
    },
    screenshot: capture(api.postV1WebScreenshot),
    pdf: capture(api.postV1WebPdf),
    fileBytes: async (url, callOptions = {}) => {
      let response: Response;
      try {
        response = await send(new Request(new URL(url, `${baseUrl}/`), { signal: callOptions.signal }));
      } catch (error) {
        throw networkError(error);
      }
      if (!response.ok) throw errorFromResponse(response, await response.text());
      return new Uint8Array(await response.arrayBuffer());
    },
  };
}

export { PluckError };
