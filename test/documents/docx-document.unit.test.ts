import { readFileSync } from 'node:fs';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { DocumentTooLarge, DocumentUnreadable } from '../../src/documents/document-errors.js';
import { readDocx } from '../../src/documents/docx-document.js';
import { readDocument } from '../../src/documents/read-document.js';
import { listItem, paragraph, styled, writeDocx } from '../fixtures/documents/docx-writer.js';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../fixtures/documents/${name}`, import.meta.url)));
const BOUNDS = { maxUnzippedBytes: 10 * 1024 * 1024 };

describe('a DOCX document', () => {
  it('reads its headings, emphasis, link, lists and table as markdown, in the worker', async () => {
    const reading = await readDocument(fixture('garden.docx'), { kind: 'docx' });
    expect(reading.markdown).toBe(`# Annual Garden Review

# Planting

The beds were dug in March and planted in April, **before the last frost**, which was a risk that paid off. Read the [planting guide](https://example.com/guide) for the details.

- Tomatoes along the south wall
- Beans on the trellis
- Herbs by the kitchen door

## Harvest

1. Pick the beans every other day
2. Dry the herbs in bunches

| Crop | Planted | Yield (kg) |
| --- | --- | --- |
| Tomatoes | April | 42 |
| Beans | May | 18 |

The garden will rest over the winter.`);
    expect(reading.truncated).toBe(false);
  });

  it('takes its title and metadata from the package properties', async () => {
    const reading = await readDocx(fixture('garden.docx'), BOUNDS);
    expect(reading.title).toBe('Garden Review 2024');
    expect(reading.metadata).toEqual({
      author: 'Grace Gardener',
      subject: 'The kitchen garden',
      keywords: 'garden, harvest',
      creator: 'Hand-zipped OOXML',
      createdTime: '2024-10-01T09:00:00.000Z',
      modifiedTime: '2024-10-05T17:30:00.000Z',
      language: 'en-GB',
    });
  });

  it('is titled by its first heading when the properties name none', async () => {
    const untitled = writeDocx({ body: [paragraph('A note before the heading.'), styled('Heading1', 'Shed & Tools'), listItem(1, 'Spade')].join('') });
    const reading = await readDocx(untitled, BOUNDS);
    expect(reading.title).toBe('Shed & Tools');
    expect(reading.markdown).toBe('A note before the heading.\n\n# Shed & Tools\n\n- Spade');
  });

  it('cuts at maxChars and says so', async () => {
    const reading = await readDocument(fixture('garden.docx'), { kind: 'docx' }, { maxChars: 22 });
    expect(reading).toMatchObject({ markdown: '# Annual Garden Review', truncated: true, truncatedBy: 'maxChars' });
  });
});

describe('a DOCX that cannot be read', () => {
  const failure = (body: Uint8Array, bounds = BOUNDS) => readDocx(body, bounds).catch((error: unknown) => error);

  it('refuses a zip that holds no Word document, a damaged one, and an encrypted one, saying which', async () => {
    expect(await failure(zipSync({ 'xl/workbook.xml': strToU8('<workbook/>') }))).toMatchObject({ name: 'DocumentUnreadable', kind: 'docx', reason: 'not-docx' });
    expect(await failure(fixture('garden.docx').subarray(0, 600))).toMatchObject({ name: 'DocumentUnreadable', reason: 'corrupt' });
    // A password-protected Office file is a compound file around the encrypted package.
    const encrypted = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...new Uint8Array(504)]);
    const locked = await failure(encrypted);
    expect(locked).toBeInstanceOf(DocumentUnreadable);
    expect(locked).toMatchObject({ reason: 'encrypted' });
  });

  it('refuses a package whose parts inflate past the bound, before inflating them', async () => {
    const tooLarge = await failure(fixture('garden.docx'), { maxUnzippedBytes: 2_000 });
    expect(tooLarge).toBeInstanceOf(DocumentTooLarge);
    expect(tooLarge).toMatchObject({ bound: 'unzippedBytes', limit: 2_000 });
    expect((tooLarge as DocumentTooLarge).actual).toBeGreaterThan(2_000);
  });
});
