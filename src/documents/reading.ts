/**
 * What reading a document answers, and the markdown helpers every reader shares.
 */

/** What the document says about itself (a PDF's information dictionary, a DOCX's core properties). */
export interface DocumentMetadata {
  /** Pages in the whole document (PDF). */
  pageCount?: number;
  author?: string;
  subject?: string;
  keywords?: string;
  /** The application the document was written in. */
  creator?: string;
  /** The application that made the file (a PDF's producer, a DOCX's application). */
  producer?: string;
  /** ISO 8601. */
  createdTime?: string;
  /** ISO 8601. */
  modifiedTime?: string;
  /** BCP 47 (a PDF's /Lang, a DOCX's dc:language). */
  language?: string;
}

export interface DocumentReading {
  /** GitHub-flavoured markdown. Empty for a PDF without a text layer. */
  markdown: string;
  /** The document's own title, else its first heading, else ''. */
  title: string;
  metadata: DocumentMetadata;
  /** The markdown stops before the document does: see `truncatedBy`. */
  truncated: boolean;
  /** Which bound cut it: the page cap, or the character bound. */
  truncatedBy?: 'maxPages' | 'maxChars';
  /** The pages read (1-based, inclusive) and the document's page count (PDF). */
  pages?: { first: number; last: number; total: number };
  /** A PDF whose pages read hold no text at all: scanned images, most likely (no OCR is done). */
  noTextLayer?: true;
}

/** A fence longer than any run of backticks in `text`, so the text cannot close it. */
export function fenceFor(text: string): string {
  let longest = 0;
  for (const run of text.match(/`{3,}/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(3, longest + 1));
}

export function fenced(text: string, language: string): string {
  const fence = fenceFor(text);
  return `${fence}${language}\n${text}\n${fence}`;
}

/** The text of the first ATX heading of a markdown text, '' when it has none. */
export function firstHeading(markdown: string): string {
  return /^ {0,3}#{1,6}[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/m.exec(markdown)?.[1]?.trim() ?? '';
}

/**
 * `markdown` cut to at most `maxChars` characters; a code fence the cut leaves open is closed
 * (within the bound), so what follows a truncated answer is not read as code.
 */
export function cutMarkdown(markdown: string, maxChars: number | undefined): { markdown: string; truncated: boolean } {
  if (maxChars === undefined || markdown.length <= maxChars) return { markdown, truncated: false };
  let cut = sliceWhole(markdown, maxChars);
  const fence = openFence(cut);
  if (fence) cut = `${sliceWhole(markdown, Math.max(0, maxChars - fence.length - 1)).trimEnd()}\n${fence}`;
  return { markdown: cut, truncated: true };
}

/** The first `length` characters, without splitting a surrogate pair. */
function sliceWhole(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}

/** The fence a text leaves open at its end, if any. */
function openFence(text: string): string | null {
  let open: string | null = null;
  for (const line of text.split('\n')) {
    const fence = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (!fence) continue;
    if (open === null) open = fence;
    else if (fence[0] === open[0] && fence.length >= open.length && line.trim() === fence) open = null;
  }
  return open;
}
