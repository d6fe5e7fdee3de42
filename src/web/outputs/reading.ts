import type { Logger } from 'pino';
import type { AiExtractor } from '../../ai/ai-extract.service.js';
import { InvalidPageOption, type LoadedPage, type PageDevice, type PageWarning } from '../../browser/types.js';
import type { WebOperation } from '../../config.js';
import type { ExtractResult } from '../../extract/extract.js';
import type { FileType } from '../../files/file.service.js';
import type { OutputRequest, PageOutputs, StoredCapture, TextSelection } from '../outputs.js';

/**
 * The contract of an output's entry in the output table (`table.ts`): what it needs from the
 * page, what it costs, and the reader that makes its part of the answer.
 */

export type OutputName = keyof OutputRequest;

/** The options an output is asked with (`true` for those without options). */
export type Asked<N extends OutputName> = NonNullable<OutputRequest[N]>;

/**
 * What an output reads from the loaded page. The engine that loads it must offer each: today's
 * one engine, the scripted browser page, offers all three; a document parser would offer the
 * page text alone, a page rendered without scripts the document and the page text.
 */
export type PageNeed =
  /** The rendered document, read by a script in the page (or a copy of it). */
  | 'document'
  /**
   * The page's main content as markdown (`page-text.ts`), read once for every output that needs
   * it. Reading it may render the document again without scripts and may wait for content that
   * comes late, which can change what the page shows.
   */
  | 'page text'
  /** The live page painted as the browser shows it, its images and fonts loaded, at the device it emulates. */
  | 'painted page';

/**
 * What an output costs, at the configured price of an operation. Outputs read from the page's
 * text and document share the page load: a request pays the dearest of them once. A capture or
 * the AI extraction is paid on top.
 */
export type OutputPrice = { sharesLoad: WebOperation } | { onTop: WebOperation };

/** Bounds on an image in device pixels: CSS pixels times the device scale factor. */
export interface ScreenshotLimits {
  maxWidth: number;
  maxHeight: number;
  maxPixels: number;
}

/** The service's bounds on what a reader sends back (config.web). */
export interface OutputBounds {
  /** ANSWER_MAX_CHARS: text answers are cut at this many characters, in the page. */
  answerMaxChars: number;
  scrapeMaxResults: number;
  screenshot: ScreenshotLimits;
  pdfMaxPages: number;
}

/** The page text as read (`page-text.ts`), with what its reading has to say. */
export interface PageText extends ExtractResult {
  warnings: PageWarning[];
}

/** What an output reader is given while the page is held. */
export interface PageReading {
  loaded: LoadedPage;
  /** The device the request asked for (a named session's page may emulate another). */
  askedDevice: PageDevice;
  /** Set before any output is read when one of those asked needs the page text. */
  text?: PageText;
  bounds: OutputBounds;
  log: Logger;
}

/** A screenshot or PDF as made: stored as a file once the page is back in the pool. */
export interface CaptureMade {
  bytes: Uint8Array;
  contentType: string;
  extension: string;
  facts: Partial<StoredCapture>;
}

/**
 * What a reader makes: the output's value in the answer, or for a screenshot or PDF the capture
 * to store as a file (its record is the value); and its warnings.
 */
export type OutputPart<N extends OutputName> = (N extends FileType ? { capture: CaptureMade } : { value: OutputValue<N> }) & { warnings?: PageWarning[] };

export type OutputValue<N extends OutputName> = NonNullable<PageOutputs[N]>;

interface EntryBasics<N extends OutputName> {
  readonly name: N;
  readonly needs: readonly PageNeed[];
  readonly price: OutputPrice;
}

/** An output read from the page while it is held. */
export interface PageOutputEntry<N extends OutputName> extends EntryBasics<N> {
  /** A refusal known once the page is there, before anything is read of it. */
  refuse?(asked: Asked<N>, reading: PageReading): Error | undefined;
  /** May be read beside the page's metadata, before the page text and the other outputs (`table.ts` says when). */
  readonly readsEarly?: boolean;
  read(asked: Asked<N>, reading: PageReading): Promise<OutputPart<N>>;
  /**
   * The output made of a document that is no web page (a PDF, a DOCX, a text file: src/documents),
   * read by the document engine (engines/engine-table.ts). An output without it cannot be made of
   * one: a PDF has no HTML, no elements to select, nothing to paint.
   */
  readDocument?(asked: Asked<N>, reading: DocumentReading): Promise<OutputPart<N>>;
}

/** What an output made of a document is given: its text, read as markdown. */
export interface DocumentReading {
  text: PageText;
  finalUrl: string;
  bounds: Pick<OutputBounds, 'answerMaxChars'>;
}

/** What an output made after the page is released is given: the page text, and the service that needs no page. */
export interface AfterPageReading {
  /** The page text read on the page, when the entry needs it. */
  text?: PageText;
  finalUrl: string;
  ai: AiExtractor;
  log: Logger;
  signal?: AbortSignal;
}

/** An output made from what was read of the page, once the page is back in the pool (the AI extraction). */
export interface AfterPageOutputEntry<N extends OutputName> extends EntryBasics<N> {
  readAfterPage(asked: Asked<N>, reading: AfterPageReading): Promise<OutputValue<N>>;
}

export type OutputEntry<N extends OutputName> = PageOutputEntry<N> | AfterPageOutputEntry<N>;

/** The page text, which the pipeline reads first for every output whose entry needs it. */
export function pageTextOf(reading: { text?: PageText }): PageText {
  if (!reading.text) throw new Error('The page text was not read: an output that reads it must name the need');
  return reading.text;
}

/** The warnings of an answer cut at the service's bound: none when it was not. */
export function truncationWarnings(truncated: boolean, what: string, maxChars: number): PageWarning[] {
  return truncated ? [truncatedAnswer(what, maxChars)] : [];
}

/** The warning an answer cut at the service's bound carries. */
export function truncatedAnswer(what: string, maxChars: number): PageWarning {
  return {
    code: 'ANSWER_TRUNCATED',
    message: `${what} was longer than this service's bound of ${maxChars} characters (ANSWER_MAX_CHARS) and was cut there`,
  };
}

/**
 * An includeTags/excludeTags selector the browser cannot parse: a 422 naming where it is
 * (`includeTags.0`), in the field form the engine's errors use (browser/errors.ts).
 */
export function invalidSelector(selector: string, selection: Pick<TextSelection, 'includeTags' | 'excludeTags'>): InvalidPageOption {
  const inInclude = selection.includeTags.indexOf(selector);
  const field = inInclude >= 0 ? `includeTags.${inInclude}` : `excludeTags.${selection.excludeTags.indexOf(selector)}`;
  return new InvalidPageOption(`Invalid CSS selector: ${selector}`, field);
}
