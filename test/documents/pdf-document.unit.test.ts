import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DocumentUnreadable, PageRangeOutsideDocument } from '../../src/documents/document-errors.js';
import { readPdf, type PdfReadOptions } from '../../src/documents/pdf-document.js';
import { readDocument } from '../../src/documents/read-document.js';
import { COLUMN_PARAGRAPHS, SENTENCES } from '../fixtures/documents/texts.js';

/**
 * The PDF reader on documents made by test/fixtures/documents/make-fixtures.ts. Layout is
 * checked through `readPdf`, the function the document worker runs (tens of milliseconds a
 * file); the worker around it, once here and in document-bounds.unit.test.ts.
 */

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../fixtures/documents/${name}`, import.meta.url)));
const read = (name: string, options: Partial<PdfReadOptions> = {}) => readPdf(fixture(name), { maxExternalMemoryMb: 512, ...options });

const REPORT = `# Field Notes on Rivers

Rivers carry water, sediment and dissolved minerals from the uplands to the sea, and along the way they shape valleys, build floodplains and feed the wetlands that line their lower reaches. This paragraph is long enough to wrap across several lines of the printed page.

## Measuring the flow

A hydrologist measures discharge by multiplying the cross-sectional area of the channel by the mean velocity of the water, usually at several verticals across the stream, and then sums the parts.

- Current meters on wading rods, lowered at each vertical to six tenths of the depth, where the velocity is closest to the mean of the whole column
- Acoustic Doppler profilers from a boat
- Dye dilution in small mountain streams

## Steps of a survey

1. Choose a straight reach
2. Stretch a tag line across the channel
3. Record depth and velocity at each vertical, and note the time, the weather and anything that may have disturbed the flow

| River | Length (km) | Mouth |
| --- | --- | --- |
| Rhine | 1230 | North Sea |
| Danube | 2850 | Black Sea |
| Loire | 1006 | Bay of Biscay |

The last paragraph closes the notes.`;

describe('a PDF printed by Chromium', () => {
  it('reads headings by size, whole paragraphs, both lists and the table', async () => {
    const reading = await read('report.pdf');
    expect(reading.markdown).toBe(REPORT);
    expect(reading.title).toBe('Field Notes on Rivers');
    expect(reading.pages).toEqual({ first: 1, last: 1, total: 1 });
    expect(reading.metadata.pageCount).toBe(1);
    expect(reading.metadata.producer).toMatch(/^Skia\/PDF/);
    expect(reading.metadata.createdTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
    expect(reading.truncated).toBe(false);
  });

  it('keeps a paragraph that runs over a page break in one piece', async () => {
    const crossing = `${[...SENTENCES, ...SENTENCES.slice(0, 2)].join(' ')} That closing sentence ends the paragraph that crossed the page.`;
    const whole = await read('two-pages.pdf');
    expect(whole.pages).toEqual({ first: 1, last: 2, total: 2 });
    expect(whole.markdown.split('\n\n')).toEqual(['# The Orchard Year', SENTENCES.slice(0, 2).join(' '), '## Through the seasons', crossing, '## After the harvest', 'The trees rest until the days lengthen again.']);
    // The paragraph does cross: the first page alone holds only its start.
    const firstPage = await read('two-pages.pdf', { pages: { last: 1 } });
    expect(firstPage.markdown).toContain(SENTENCES[3]);
    expect(firstPage.markdown).not.toContain('That closing sentence');
  });

  it('reads two columns one after the other, a paragraph running from one into the other whole', async () => {
    const { markdown } = await read('columns.pdf');
    expect(markdown.split('\n\n')).toEqual(['# Notes in Two Columns', ...COLUMN_PARAGRAPHS, 'The closing line runs across the whole page, below both columns.']);
  });
});

describe('an office-style PDF', () => {
  it('reads bullets written as glyphs, numbers set apart by a tab, right-aligned figures, a hyphenated word and a paragraph over the page break, without the running head and foot', async () => {
    const reading = await read('office.pdf');
    expect(reading.markdown).toBe(`# Quarterly Report

The committee met twice this quarter and agreed on the budget for the coming year after a long discussion of the costs, the staff and the offices. Every figure in this report is an estimate until the accounts are closed.

## Decisions

- Approve the new budget
- Hire two engineers
- Review the offices in May

## Next steps

1. Publish the budget
2. Open the positions

| Region | Revenue | Growth |
| --- | --- | --- |
| North | 1,200 | 4% |
| South | 980 | 12% |
| West | 15,430 | -2% |

The outlook for the next quarter depends on the markets, on the weather in the autumn, and on the decisions the board takes in its meeting at the end of the month, which will settle the prices for the whole of the coming season and the terms of the contracts we sign with our suppliers and the shops that sell our goods across the region.

A second paragraph starts the second page.`);
  });

  it('answers the information dictionary, dates in ISO 8601, and its title before the first heading', async () => {
    const reading = await read('office.pdf');
    expect(reading.title).toBe('Quarterly Report Q3');
    expect(reading.metadata).toEqual({
      pageCount: 2,
      author: 'Ada Example',
      subject: 'Budget and outlook',
      keywords: 'budget, outlook',
      creator: 'Hand-written test generator',
      producer: 'pdf-writer.ts',
      createdTime: '2024-01-02T02:04:05.000Z',
      modifiedTime: '2024-03-15T12:00:00.000Z',
    });
  });
});

describe('pages', () => {
  it('reads a page range, and the chapter headings at the top of each page', async () => {
    const reading = await read('fifty-pages.pdf', { pages: { first: 10, last: 12 } });
    expect(reading.pages).toEqual({ first: 10, last: 12, total: 50 });
    expect(reading.truncated).toBe(false);
    expect(reading.markdown.match(/^# Chapter \d+$/gm)).toEqual(['# Chapter 10', '# Chapter 11', '# Chapter 12']);
    expect(reading.markdown.match(/This is page \d+\./g)).toEqual(['This is page 10.', 'This is page 11.', 'This is page 12.']);
    // The page numbers in the foot are furniture.
    expect(reading.markdown).not.toMatch(/^1[0-2]$/m);
  });

  it('caps the pages read and says so', async () => {
    const capped = await read('fifty-pages.pdf', { maxPages: 3 });
    expect(capped).toMatchObject({ truncated: true, truncatedBy: 'maxPages', pages: { first: 1, last: 3, total: 50 } });
    expect(capped.markdown.match(/This is page \d+\./g)).toEqual(['This is page 1.', 'This is page 2.', 'This is page 3.']);
    const fits = await read('fifty-pages.pdf', { pages: { first: 48 }, maxPages: 5 });
    expect(fits).toMatchObject({ truncated: false, pages: { first: 48, last: 50, total: 50 } });
  });

  it('refuses a range that starts after the last page', async () => {
    const failure = await read('fifty-pages.pdf', { pages: { first: 51 } }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PageRangeOutsideDocument);
    expect(failure).toMatchObject({ first: 51, totalPages: 50 });
  });
});

describe('PDFs without a readable text', () => {
  it('says a page of pictures has no text layer', async () => {
    expect(await read('scanned.pdf')).toEqual({
      markdown: '',
      title: 'A scanned page',
      metadata: { pageCount: 1 },
      truncated: false,
      pages: { first: 1, last: 1, total: 1 },
      noTextLayer: true,
    });
  });

  it('refuses a damaged file and a locked one, saying which', async () => {
    const corrupt = await read('corrupt.pdf').catch((error: unknown) => error);
    expect(corrupt).toBeInstanceOf(DocumentUnreadable);
    expect(corrupt).toMatchObject({ kind: 'pdf', reason: 'corrupt' });
    const encrypted = await read('encrypted.pdf').catch((error: unknown) => error);
    expect(encrypted).toBeInstanceOf(DocumentUnreadable);
    expect(encrypted).toMatchObject({ kind: 'pdf', reason: 'encrypted', message: 'The PDF document cannot be read: it is protected by a password' });
  });
});

describe('readDocument on a PDF', () => {
  it('answers what the worker read, cut at maxChars', async () => {
    const reading = await readDocument(fixture('report.pdf'), { kind: 'pdf' }, { maxChars: 60 });
    expect(reading).toMatchObject({ markdown: REPORT.slice(0, 60), truncated: true, truncatedBy: 'maxChars', title: 'Field Notes on Rivers', pages: { first: 1, last: 1, total: 1 } });
  });

  it('answers the worker’s typed errors as the same classes', async () => {
    const failure = await readDocument(fixture('encrypted.pdf'), { kind: 'pdf' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DocumentUnreadable);
    expect(failure).toMatchObject({ reason: 'encrypted', message: 'The PDF document cannot be read: it is protected by a password' });
    const range = await readDocument(fixture('report.pdf'), { kind: 'pdf' }, { pages: { first: 2 } }).catch((error: unknown) => error);
    expect(range).toBeInstanceOf(PageRangeOutsideDocument);
  });
});
