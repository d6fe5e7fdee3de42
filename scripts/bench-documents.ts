import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { readDocx } from '../src/documents/docx-document.js';
import { readPdf } from '../src/documents/pdf-document.js';
import { createDocumentReader, readDocument } from '../src/documents/read-document.js';
import { listItem, paragraph, styled, table, writeDocx } from '../test/fixtures/documents/docx-writer.js';
import { SENTENCES } from '../test/fixtures/documents/texts.js';
import { seededRandom } from '../test/helpers/seeded-random.js';

/**
 * How long reading a document takes: each document of test/fixtures/documents, a 50-page PDF
 * printed by Chromium, and two 5 MB DOCX (one all text, one mostly a picture), read through
 * `readDocument` (a worker thread started for each read: start, load pdf.js or mammoth, parse),
 * through a reader whose workers are started ahead (`createDocumentReader`, each read after a
 * pause, as a server's requests come), and through the
 * parse alone in this thread. Medians of RUNS reads, after one read to warm up.
 *
 *   npx tsx scripts/bench-documents.ts [RUNS] [NAME-PART]
 */

const RUNS = Number(process.argv[2] ?? 5);
const ONLY = process.argv[3] ?? '';
/** Idle time before each read of the warm reader. */
const PAUSE_MS = 500;
const FIXTURES = fileURLToPath(new URL('../test/fixtures/documents/', import.meta.url));
/** Fixtures that fail or never end by design. */
const SKIPPED = new Set(['endless.pdf', 'corrupt.pdf', 'encrypted.pdf']);

/** Median time of RUNS calls after a first one; a call answering a number measured itself. */
async function median(work: () => Promise<unknown>): Promise<number> {
  await work();
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const measured = await work();
    times.push(typeof measured === 'number' ? measured : performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

async function chromiumFiftyPages(): Promise<Uint8Array> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', chromiumSandbox: false });
  try {
    const page = await browser.newPage();
    const chapters = Array.from({ length: 50 }, (_, index) => {
      const paragraphs = Array.from({ length: 5 }, (_, row) => `<p>${[...SENTENCES.slice(row % 4), ...SENTENCES.slice(0, row % 4)].join(' ')}</p>`).join('');
      return `<section style="break-after: page"><h1>Chapter ${index + 1}</h1>${paragraphs}<ul><li>${SENTENCES[0]}</li><li>${SENTENCES[1]}</li></ul></section>`;
    });
    await page.setContent(`<!doctype html><html><head><title>Fifty chapters</title></head><body style="font: 12pt serif">${chapters.join('')}</body></html>`);
    return new Uint8Array(await page.pdf({ format: 'A4', margin: { top: '2cm', bottom: '2cm', left: '2cm', right: '2cm' } }));
  } finally {
    await browser.close();
  }
}

/**
 * About 5 MB of DOCX made of text: paragraphs of made-up words (so the package compresses as
 * prose does, not as one sentence repeated), under headings, with lists and tables.
 */
function textDocx(targetBytes = 5 * 1024 * 1024): Uint8Array {
  const random = seededRandom(51);
  const syllables = ['ta', 'ro', 'mi', 'ven', 'sul', 'ka', 'do', 'ber', 'li', 'nos', 'gra', 'pe', 'tu', 'qua', 'shi', 'an'];
  const word = () => Array.from({ length: random.int(1, 4) }, () => random.pick(syllables)).join('');
  const sentence = () => `${Array.from({ length: random.int(6, 18) }, word).join(' ')}.`;
  const parts: string[] = [];
  let size = 0;
  for (let index = 0; size < targetBytes * 3.2; index++) {
    const part = [
      styled('Heading1', `Section ${index} ${word()}`),
      ...Array.from({ length: 12 }, () => paragraph(Array.from({ length: random.int(2, 6) }, sentence).join(' '))),
      listItem(1, sentence()),
      listItem(1, sentence()),
      table([[word(), word(), word()], [sentence(), word(), String(index)]]),
    ].join('');
    parts.push(part);
    size += part.length;
  }
  return writeDocx({ body: parts.join('') });
}

/** About 5 MB of DOCX that is mostly one (random, so incompressible) picture, and a page of text. */
function pictureDocx(): Uint8Array {
  const picture = new Uint8Array(5 * 1024 * 1024);
  for (let index = 0; index < picture.length; index++) picture[index] = (index * 2654435761) >>> 24;
  return writeDocx({ body: [styled('Title', 'With a picture'), ...SENTENCES.map(paragraph)].join(''), extraParts: { 'word/media/image1.png': [picture, { level: 0 }] } });
}

const reader = createDocumentReader();
const rows: string[] = ['| document | bytes | readDocument (ms) | warm reader (ms) | parse alone (ms) |', '| --- | ---: | ---: | ---: | ---: |'];
const measure = async (name: string, body: () => Uint8Array | Promise<Uint8Array>) => {
  if (!name.includes(ONLY)) return;
  const bytes = await body();
  const kind = name.endsWith('.docx') ? ({ kind: 'docx' } as const) : ({ kind: 'pdf' } as const);
  const outcome = async (work: () => Promise<unknown>) => {
    try {
      return String(Math.round(await median(work)));
    } catch (error) {
      return `fails: ${error instanceof Error ? error.message : String(error)}`;
    }
  };
  const whole = await outcome(() => readDocument(bytes, kind));
  // A pause before each read, as between a server's requests: the reader starts its next worker after a read, in the pause.
  const warm = await outcome(async () => {
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    const started = performance.now();
    await reader.read(bytes, kind);
    return performance.now() - started;
  });
  const parse = await outcome(() => (kind.kind === 'pdf' ? readPdf(bytes, { maxExternalMemoryMb: 1024 }) : readDocx(bytes, { maxUnzippedBytes: 1 << 30 })));
  rows.push(`| ${name} | ${bytes.byteLength.toLocaleString('en')} | ${whole} | ${warm} | ${parse} |`);
  console.error(rows[rows.length - 1]);
};

for (const name of readdirSync(FIXTURES).filter((file) => /\.(pdf|docx)$/.test(file) && !SKIPPED.has(file)).sort()) {
  await measure(name, () => new Uint8Array(readFileSync(join(FIXTURES, name))));
}
await measure('chromium-50-pages.pdf', chromiumFiftyPages);
await measure('text-5mb.docx', () => textDocx());
await measure('picture-5mb.docx', pictureDocx);
await reader.close();
console.log(rows.join('\n'));
