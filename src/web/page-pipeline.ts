import type { Billing } from '../accounts/billing.js';
import { type MeteredDeps, runMetered } from '../accounts/metered-operation.js';
import type { AiExtractor } from '../ai/ai-extract.service.js';
import type { Caller } from '../accounts/caller.js';
import { withAppErrors } from '../browser/errors.js';
import { deviceOf, type LoadedPage, type PageRunner, type PageWarning } from '../browser/types.js';
import { fingerprint } from '../cache/fingerprint.js';
import { cacheKey, type ResultCache } from '../cache/result-cache.js';
import type { Config } from '../config.js';
import type { FileService, FileType } from '../files/file.service.js';
import { AppError } from '../errors/app-error.js';
import { validationError } from '../errors/validation-error.js';
import type { ConcurrencyLimiter } from '../limits/concurrency-limiter.js';
import type { AddressPolicy } from '../net/address-policy.js';
import type { DocumentReader } from '../documents/read-document.js';
import type { GuardedFetch } from '../net/guarded-fetch.js';
import type { OutputRequest, PageOutputs, PageResult, StoredCapture } from './outputs.js';
import { isEmptyMarkdownAnswer } from './outputs/markdown.js';
import { readPageText } from './outputs/page-text.js';
import type { CaptureMade, PageReading } from './outputs/reading.js';
import { requestedAreaProblem } from './outputs/screenshot.js';
import { costOf, readingPlan, settleFor } from './outputs/table.js';
import { browserOnlyReason } from './engines/engine-table.js';
import { UrlReader, type UrlReading } from './engines/url-reader.js';
import { readPageMetadata } from './page-facts.js';
import { type PageRequest, toContextOptions, toLoadOptions, type Viewport } from './page-options.js';
import { actionsCost } from './actions/action-list.js';
import { PageActions, refuseOversizedActionScreenshots, storeActionCaptures } from './actions/page-actions.js';

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
  /** The guarded fetch: a target read without the browser is fetched through the same address policy. */
  fetch: GuardedFetch;
  documents: DocumentReader;
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
  private readonly reader: UrlReader;

  constructor(private readonly deps: PagePipelineDeps) {
    const { web } = deps.config;
    this.reader = new UrlReader({
      browser: deps.browser,
      fetch: deps.fetch,
      documents: deps.documents,
      bounds: { answerMaxChars: web.answerMaxChars, staticMaxBytes: web.staticMaxBytes, navigationTimeoutMaxMs: deps.config.browser.navigationTimeoutMaxMs, documents: web.documents },
    });
  }

  async run(job: PageJob): Promise<PageRun> {
    const { config, policy, ai } = this.deps;
    const { outputs } = job;
    // Refusals known from the request alone need no slot, credits or browser.
    if (outputs.json) {
      ai.ensureConfigured();
      ai.ensureRoomForPage(outputs.json, job.page.url);
    }
    await withAppErrors(async () => policy.parse(job.page.url));
    const browserOnly = job.page.engine === 'static' ? browserOnlyReason(job.page, outputs) : undefined;
    if (browserOnly) throw validationError([{ code: 'custom', path: ['engine'], message: `engine "static" runs no scripts, but ${browserOnly}` }]);
    const viewport = toContextOptions(job.page, job.viewport).viewport ?? { width: 1280, height: 800 };
    if (outputs.screenshot) {
      const problem = requestedAreaProblem(viewport, job.viewport?.deviceScaleFactor ?? 1, outputs.screenshot, config.web.screenshot);
      if (problem) throw validationError([{ code: 'too_big', path: problem.path, message: problem.message }]);
    }
    if (job.page.actions) refuseOversizedActionScreenshots(job.page.actions, viewport, job.viewport?.deviceScaleFactor ?? 1, config.web.screenshot);
    let bytes: PageRun['bytes'] = {};
    const metered = {
      principal: job.caller.principal,
      requestId: job.caller.requestId,
      log: job.caller.log,
      operation: `web:${job.operation}`,
      // Each screenshot and PDF an action takes is priced like the output on top (docs/page-operations.md).
      cost: costOf(outputs, config.web.creditCosts) + actionsCost(job.page.actions, config.web.creditCosts),
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
      chargesFailure: isHeldToItsTimeout,
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
    const { log, signal } = job.caller;
    const actions = job.page.actions?.length ? new PageActions(job.page.actions, this.deps.policy) : undefined;
    const fromPage = await this.reader.read({
      page: job.page,
      outputs: job.outputs,
      context: toContextOptions(job.page, job.viewport),
      load: { ...toLoadOptions(job.page), settleFor: settleFor(job.outputs) },
      claim: { account: job.caller.principal.userId, signal },
      log,
      signal,
      readPage: (loaded) => this.readPage(loaded, job, actions),
    });
    // The page is back in the pool: what follows needs none.
    const { outputs, captures, pageText } = fromPage;
    for (const { entry, options } of readingPlan(job.outputs).afterPage) {
      const value = await entry.readAfterPage(options, { text: pageText, finalUrl: fromPage.metadata.finalUrl, ai: this.deps.ai, log, signal });
      Object.assign(outputs, { [entry.name]: value });
    }
    const bytes: PageRun['bytes'] = {};
    for (const [type, capture] of Object.entries(captures) as Array<[FileType, CaptureMade]>) {
      outputs[type] = await this.store(job, type, capture, fromPage);
      bytes[type] = capture.bytes;
    }
    if (fromPage.actionsMade) outputs.actions = await storeActionCaptures(fromPage.actionsMade, (type, capture) => this.store(job, type, capture, fromPage));
    return { outputs, metadata: fromPage.metadata, warnings: fromPage.warnings, bytes };
  }

  /** Every output asked of the loaded page, in one visit, in the steps and order of the output table (outputs/table.ts). */
  private async readPage(asLoaded: LoadedPage, job: PageJob, actions: PageActions | undefined): Promise<UrlReading> {
    const plan = readingPlan(job.outputs);
    const askedDevice = deviceOf(toContextOptions(job.page, job.viewport));
    const reading: PageReading = { loaded: asLoaded, askedDevice, bounds: this.deps.config.web, log: job.caller.log };
    const warnings: PageWarning[] = [...asLoaded.warnings];
    for (const { entry, options } of plan.onPage) {
      const refusal = entry.refuse?.(options, reading);
      if (refusal) throw refusal;
    }
    // The caller's actions, before anything is read: the outputs read the page as they left it.
    const acted = actions && (await actions.run(reading));
    if (acted) warnings.push(...acted.made.warnings);
    const loaded = acted?.loaded ?? asLoaded;
    reading.loaded = loaded;
    const early = new Map(plan.early.map(({ entry, options }) => [entry.name, entry.read(options, reading)]));
    const [facts] = await Promise.all([readPageMetadata(loaded.page), ...early.values()]);
    const { finalUrl, statusCode, contentType } = loaded;
    const metadata = { url: job.page.url, finalUrl, statusCode, contentType, timestamp: new Date().toISOString(), ...facts };
    if (plan.readsText) reading.text = await readPageText(loaded, job.outputs, reading.bounds.answerMaxChars, job.caller.log);
    const outputs: PageOutputs = {};
    const captures: Partial<Record<FileType, CaptureMade>> = {};
    for (const { entry, options } of plan.onPage) {
      const part = await (early.get(entry.name) ?? entry.read(options, reading));
      // A capture's part is the file to store (an output answered as a file is named by its FileType); any other's is its value.
      if ('capture' in part) captures[entry.name as FileType] = part.capture;
      else Object.assign(outputs, { [entry.name]: part.value });
      warnings.push(...(part.warnings ?? []));
    }
    return { outputs, captures, metadata, warnings, pageText: reading.text, actionsMade: acted?.made };
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
    const { actions } = result.outputs;
    for (const capture of [result.outputs.screenshot, result.outputs.pdf, ...(actions?.screenshots ?? []), ...(actions?.pdfs ?? [])]) {
      if (capture && (await this.deps.files.read(capture.r2Key)) === undefined) return false;
    }
    return true;
  }
}

/** A page held until its timeout: the target's, or the deadline of the caller's actions. */
function isHeldToItsTimeout(error: unknown): boolean {
  return error instanceof AppError && (error.code === 'TARGET_TIMEOUT' || error.code === 'ACTION_TIMEOUT');
}

/** Everything that determines the result (maxAge left out: it only chooses among results). */
function jobFingerprint(job: PageJob, aiVariant: unknown): string {
  const { maxAge: _maxAge, ...page } = job.page;
  return fingerprint({ page, viewport: job.viewport ?? null, outputs: job.outputs, ai: aiVariant ?? null });
}
