import type { Billing } from '../accounts/billing.js';
import { type MeteredDeps, runMetered } from '../accounts/metered-operation.js';
import type { AiExtractor } from '../ai/ai-extract.service.js';
import type { Caller } from '../accounts/caller.js';
import { withAppErrors } from '../browser/errors.js';
import { deviceOf, type LoadedPage, type PageRunner, type PageWarning } from '../browser/types.js';
import { fingerprint } from '../cache/fingerprint.js';
import { cacheKey, type ResultCache } from '../cache/result-cache.js';
import type { Config } from '../config.js';
import { InvalidSelector } from '../extract/extract.js';
import type { FileService, FileType } from '../files/file.service.js';
import { AppError } from '../errors/app-error.js';
import { validationError } from '../errors/validation-error.js';
import type { ConcurrencyLimiter } from '../limits/concurrency-limiter.js';
import type { AddressPolicy } from '../net/address-policy.js';
import { collectImages, collectLinks } from './links.js';
import { costOf, isEmptyMarkdownAnswer, type OutputRequest, type PageOutputs, type PageResult, settleFor, type StoredCapture } from './outputs.js';
import { readPageMetadata } from './page-facts.js';
import { readCleanHtml, readHtml, truncatedAnswer } from './page-html.js';
import { markdownOfPage } from './page-markdown.js';
import { type PageRequest, toContextOptions, toLoadOptions, type Viewport } from './page-options.js';
import { renderPdf } from './pdf.js';
import { scrapeElements } from './scrape.js';
import { captureScreenshot, deviceMismatch, requestedAreaProblem, type ScreenshotOptions } from './screenshot.js';

export interface PageJob {
  caller: Caller;
  /** Names the cache entries and the ledger rows: a spec operation (`markdown`) or `page` for several outputs. */
  operation: string;
  page: PageRequest & { maxAge?: number };
  viewport?: Viewport;
  outputs: OutputRequest;
}

export interface PageRun {
  result: PageResult;
  /** The captures' bytes when they were just made; on a cache hit, read them with `captureBytes`. */
  bytes: Partial<Record<FileType, Uint8Array>>;
  cache: 'HIT' | 'MISS';
  creditsCost: number;
}

export interface PagePipelineDeps extends MeteredDeps {
  config: Config;
  policy: AddressPolicy;
  browser: PageRunner;
  billing: Billing;
  cache: ResultCache;
  concurrency: ConcurrencyLimiter;
  files: FileService;
  ai: AiExtractor;
}

type Produced = PageResult & { bytes: PageRun['bytes'] };

/**
 * The one path of every page operation: one page load, every output asked of it, then the work
 * that needs no page (the AI extraction, storing captures). It owns metering (an account's
 * concurrency slot, credits reserved and refunded, the account's cache keyed on everything that
 * shapes the answer) and turns the engine's and the policy's errors into API errors, once.
 * Routes, the Firecrawl adapter and jobs all come through here.
 */
export class PagePipeline {
  constructor(private readonly deps: PagePipelineDeps) {}

  async run(job: PageJob): Promise<PageRun> {
    const { config, policy, ai } = this.deps;
    const { outputs } = job;
    // Refusals known from the request alone need no slot, credits or browser.
    if (outputs.json) {
      ai.ensureConfigured();
      ai.ensureRoomForPage(outputs.json, job.page.url);
    }
    await withAppErrors(async () => policy.parse(job.page.url));
    if (outputs.screenshot) {
      const viewport = toContextOptions(job.page, job.viewport).viewport ?? { width: 1280, height: 800 };
      const problem = requestedAreaProblem(viewport, job.viewport?.deviceScaleFactor ?? 1, outputs.screenshot, config.web.screenshot);
      if (problem) throw validationError([{ code: 'too_big', path: problem.path, message: problem.message }]);
    }
    let bytes: PageRun['bytes'] = {};
    const metered = {
      principal: job.caller.principal,
      requestId: job.caller.requestId,
      log: job.caller.log,
      operation: `web:${job.operation}`,
      cost: costOf(outputs, config.web.creditCosts),
      cache: {
        key: cacheKey('v1', job.operation, jobFingerprint(job, outputs.json ? ai.variant : undefined)),
        // A session's state shapes the answer, and no cache key can name that state: neither read nor stored.
        maxAgeSeconds: job.page.session === undefined ? job.page.maxAge : 0,
        shouldStore: () => job.page.session === undefined,
        isUsable: (cached: PageResult) => this.capturesExist(cached),
      },
      isFree: (result: PageResult) => isEmptyMarkdownAnswer(outputs, result),
      // A page held until its timeout is paid for: otherwise holding pages with targets that never
      // answer would cost an account nothing while keeping them from everyone else.
      chargesFailure: isTargetTimeout,
      reservations: job.caller.reservations,
    };
    const { value, cache, creditsCost } = await runMetered(this.deps, metered, async () => {
      const produced = await withAppErrors(() => this.produce(job));
      bytes = produced.bytes;
      return { outputs: produced.outputs, metadata: produced.metadata, warnings: produced.warnings };
    });
    return { result: value, bytes: cache === 'HIT' ? {} : bytes, cache, creditsCost };
  }

  /** The bytes of a stored capture (after a cache hit, the answer holds only its record). */
  async captureBytes(capture: StoredCapture): Promise<Uint8Array> {
    const stored = await this.deps.files.read(capture.r2Key);
    if (!stored) throw new AppError('INTERNAL_ERROR', 'The stored file could not be read back');
    return stored.body;
  }

  private async produce(job: PageJob): Promise<Produced> {
    const { browser } = this.deps;
    const load = { ...toLoadOptions(job.page), settleFor: settleFor(job.outputs) };
    const claim = { account: job.caller.principal.userId, signal: job.caller.signal };
    const fromPage = await browser.withLoadedPage(toContextOptions(job.page, job.viewport), load, (loaded) => this.readPage(loaded, job), claim);
    // The page is back in the pool: what follows needs none.
    const { outputs, captures } = fromPage;
    if (job.outputs.json) {
      const { markdown, title } = fromPage.pageText;
      outputs.json = await this.deps.ai.extract(job.outputs.json, { url: fromPage.metadata.finalUrl, title, markdown }, job.caller.log, job.caller.signal);
    }
    const bytes: PageRun['bytes'] = {};
    for (const [type, capture] of Object.entries(captures) as Array<[FileType, CaptureMade]>) {
      outputs[type] = await this.store(job, type, capture, fromPage);
      bytes[type] = capture.bytes;
    }
    return { outputs, metadata: fromPage.metadata, warnings: fromPage.warnings, bytes };
  }

  /** Every output that needs the loaded page, in one visit. */
  private async readPage(loaded: LoadedPage, job: PageJob) {
    const { config } = this.deps;
    const maxChars = config.web.answerMaxChars;
    const asked = job.outputs;
    const { page, finalUrl } = loaded;
    const warnings: PageWarning[] = [...loaded.warnings];
    const cut = (truncated: boolean, what: string) => truncated && warnings.push(truncatedAnswer(what, maxChars));
    const limits = config.web.screenshot;
    if (asked.screenshot) {
      const mismatch = deviceMismatch(deviceOf(toContextOptions(job.page, job.viewport)), loaded.device);
      if (mismatch) throw mismatch;
    }
    const capture = (options: ScreenshotOptions) => captureScreenshot(page, options, loaded.device, limits);
    // A capture mostly waits for Chromium's next frames; the metadata is read meanwhile. Nothing
    // read afterwards changes what the page shows (the HTML is cleaned on a copy), except the
    // markdown's last wait for a page that showed nothing yet: with markdown asked, the capture
    // stays after it.
    const early = asked.screenshot && !asked.markdown && !asked.json ? capture(asked.screenshot) : undefined;
    const [facts, earlyShot] = await Promise.all([readPageMetadata(page), early]);
    const metadata = { url: job.page.url, finalUrl, statusCode: loaded.statusCode, contentType: loaded.contentType, timestamp: new Date().toISOString(), ...facts };
    const outputs: PageOutputs = {};
    const captures: Partial<Record<FileType, CaptureMade>> = {};
    let pageText = { title: facts.title, markdown: '' };

    if (asked.markdown || asked.json) {
      const selection = asked.markdown ?? { onlyMainContent: true, includeTags: [], excludeTags: [] };
      const extracted = await markdownOfPage(loaded, { url: finalUrl, ...selection, maxChars }, job.caller.log).catch((error: unknown) => {
        throw error instanceof InvalidSelector ? invalidSelector(error.selector, selection) : error;
      });
      const { markdown, wordCount, title, description, language } = extracted;
      pageText = { title, markdown };
      if (asked.markdown) {
        outputs.markdown = { markdown, wordCount, title, description, language };
        warnings.push(...extracted.warnings);
      }
    }
    if (asked.html) {
      const clean = await readCleanHtml(page, asked.html, maxChars);
      if ('invalidSelector' in clean) throw invalidSelector(clean.invalidSelector, asked.html);
      outputs.html = clean.html;
      cut(clean.truncated, 'The HTML');
    }
    if (asked.rawHtml) {
      const raw = await readHtml(page, maxChars);
      outputs.rawHtml = raw.html;
      cut(raw.truncated, 'The HTML');
    }
    if (asked.links) {
      const { links, truncated } = await collectLinks(page, maxChars);
      outputs.links = links;
      cut(truncated, 'The list of links');
    }
    if (asked.images) {
      const { images, truncated } = await collectImages(page, maxChars);
      outputs.images = images;
      cut(truncated, 'The list of images');
    }
    if (asked.scrape) {
      const { elements, elementsFound, truncated } = await scrapeElements(page, asked.scrape.elements, config.web.scrapeMaxResults, maxChars);
      outputs.scrape = { elements, elementsFound };
      cut(truncated, 'The text of the results');
    }
    if (asked.screenshot) {
      const shot = earlyShot ?? (await capture(asked.screenshot));
      captures.screenshot = {
        bytes: shot.bytes,
        contentType: shot.contentType,
        extension: asked.screenshot.type === 'jpeg' ? 'jpg' : asked.screenshot.type,
        facts: { width: shot.width, height: shot.height, truncated: shot.truncated },
      };
      if (shot.truncated) {
        warnings.push({
          code: 'ANSWER_TRUNCATED',
          message: `The area was larger than this service's screenshot bounds (${limits.maxWidth} wide, ${limits.maxHeight} high, ${limits.maxPixels} pixels in all, in device pixels); the image shows its top left part`,
        });
      }
    }
    if (asked.pdf) {
      const maxPages = config.web.pdfMaxPages;
      const pdf = await renderPdf(page, asked.pdf, maxPages);
      captures.pdf = { bytes: pdf.bytes, contentType: 'application/pdf', extension: 'pdf', facts: { pages: pdf.pages } };
      if (pdf.truncated) {
        warnings.push({
          code: 'ANSWER_TRUNCATED',
          message: `The document was longer than this service's bound of ${maxPages} pages (PDF_MAX_PAGES); the PDF has its first ${maxPages}`,
        });
      }
    }
    return { outputs, captures, metadata, warnings, pageText };
  }

  private async store(job: PageJob, type: FileType, capture: CaptureMade, page: { metadata: PageResult['metadata']; warnings: PageWarning[] }): Promise<StoredCapture> {
    const { principal } = job.caller;
    const { url, finalUrl, statusCode, timestamp } = page.metadata;
    const size = capture.bytes.byteLength;
    const facts = { url, finalUrl, statusCode, timestamp, size, contentType: capture.contentType, ...capture.facts };
    const file = await this.deps.files.store({
      userId: principal.userId,
      plan: principal.user.plan,
      type,
      url: job.page.url,
      body: capture.bytes,
      contentType: capture.contentType,
      extension: capture.extension,
      metadata: page.warnings.length > 0 ? { ...facts, warnings: page.warnings } : facts,
    });
    return { fileId: file.id, permanentUrl: file.public_url, r2Key: file.r2_key, contentType: capture.contentType, size, ...capture.facts };
  }

  /** A cached result whose stored file is gone (deleted, expired) can no longer be served. */
  private async capturesExist(result: PageResult): Promise<boolean> {
    for (const capture of [result.outputs.screenshot, result.outputs.pdf]) {
      if (capture && (await this.deps.files.read(capture.r2Key)) === undefined) return false;
    }
    return true;
  }
}

interface CaptureMade {
  bytes: Uint8Array;
  contentType: string;
  extension: string;
  facts: Partial<StoredCapture>;
}

function isTargetTimeout(error: unknown): boolean {
  return error instanceof AppError && error.code === 'TARGET_TIMEOUT';
}

/** An includeTags/excludeTags selector the browser cannot parse: a 422 naming where it is. */
function invalidSelector(selector: string, selection: { includeTags: string[]; excludeTags: string[] }): AppError {
  const inInclude = selection.includeTags.indexOf(selector);
  const path = inInclude >= 0 ? ['includeTags', inInclude] : ['excludeTags', selection.excludeTags.indexOf(selector)];
  return validationError([{ code: 'custom', path, message: `Invalid CSS selector: ${selector}` }]);
}

/** Everything that determines the result (maxAge left out: it only chooses among results). */
function jobFingerprint(job: PageJob, aiVariant: unknown): string {
  const { maxAge: _maxAge, ...page } = job.page;
  return fingerprint({ page, viewport: job.viewport ?? null, outputs: job.outputs, ai: aiVariant ?? null });
}
