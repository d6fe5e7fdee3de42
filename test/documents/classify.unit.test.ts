import { readFileSync } from 'node:fs';
import { zipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { classifyBody, classifyZip, dispositionFileName, parseContentType, type BodyFacts } from '../../src/documents/classify.js';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../fixtures/documents/${name}`, import.meta.url)));
const text = (value: string) => new TextEncoder().encode(value);
const classify = (facts: BodyFacts) => classifyBody({ head: new Uint8Array(), ...facts });

const PDF_HEAD = fixture('report.pdf').subarray(0, 1024);
const DOCX = fixture('garden.docx');
const PNG_HEAD = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

describe('classifyBody by the declared type', () => {
  it.each([
    ['text/html; charset=utf-8', '<!doctype html><p>hi', { kind: 'html' }],
    ['application/xhtml+xml', '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml">', { kind: 'html' }],
    ['text/plain', 'just words', { kind: 'text', format: 'plain' }],
    ['text/plain; charset=ISO-8859-1', 'caf\xe9', { kind: 'text', format: 'plain', charset: 'iso-8859-1' }],
    ['text/markdown', '# Title', { kind: 'text', format: 'markdown' }],
    ['application/json', '{"a":1}', { kind: 'text', format: 'json' }],
    ['application/ld+json', '{"@context":"x"}', { kind: 'text', format: 'json' }],
    ['text/csv', 'a,b\n1,2', { kind: 'text', format: 'csv' }],
    ['text/tab-separated-values', 'a\tb', { kind: 'text', format: 'tsv' }],
    ['application/rss+xml', '<?xml version="1.0"?><rss version="2.0"><channel>', { kind: 'text', format: 'xml' }],
    ['application/atom+xml', '<feed xmlns="http://www.w3.org/2005/Atom">', { kind: 'text', format: 'xml' }],
    ['text/xml', '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', { kind: 'text', format: 'xml' }],
    ['text/css', 'body { color: red }', { kind: 'text', format: 'plain' }],
  ])('%s', (contentType, body, expected) => {
    expect(classify({ contentType, head: text(body) })).toEqual(expected);
  });

  it('reads PDF and DOCX types, whatever the URL says', () => {
    expect(classify({ contentType: 'application/pdf', head: PDF_HEAD, url: 'https://example.com/download?id=3' })).toEqual({ kind: 'pdf' });
    expect(classify({ contentType: 'application/x-pdf', head: PDF_HEAD })).toEqual({ kind: 'pdf' });
    expect(classify({ contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', head: DOCX.subarray(0, 1024) })).toEqual({ kind: 'docx' });
  });

  it('takes XHTML served as XML to the browser, and an SVG for an image', () => {
    expect(classify({ contentType: 'application/xml', head: text('<?xml version="1.0"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml"><head>') })).toEqual({ kind: 'html' });
    expect(classify({ contentType: 'image/svg+xml', head: text('<svg xmlns="http://www.w3.org/2000/svg">') })).toEqual({ kind: 'unsupported', mediaType: 'image/svg+xml', family: 'image' });
    expect(classify({ contentType: 'text/xml', head: text('<?xml version="1.0"?><!-- drawn --><svg xmlns="http://www.w3.org/2000/svg">') })).toEqual({
      kind: 'unsupported',
      mediaType: 'image/svg+xml',
      family: 'image',
    });
  });

  it('refines text/plain by the extension (raw file hosts send everything as text/plain)', () => {
    expect(classify({ contentType: 'text/plain; charset=utf-8', url: 'https://raw.example.com/o/r/main/README.md', head: text('# Read me') })).toEqual({
      kind: 'text',
      format: 'markdown',
      charset: 'utf-8',
    });
    expect(classify({ contentType: 'text/plain', url: 'https://raw.example.com/data.csv', head: text('a,b') })).toEqual({ kind: 'text', format: 'csv' });
  });

  it('answers what nothing reads by its family', () => {
    expect(classify({ contentType: 'image/png', head: PNG_HEAD })).toEqual({ kind: 'unsupported', mediaType: 'image/png', family: 'image' });
    expect(classify({ contentType: 'video/mp4' })).toEqual({ kind: 'unsupported', mediaType: 'video/mp4', family: 'video' });
    expect(classify({ contentType: 'audio/mpeg' })).toEqual({ kind: 'unsupported', mediaType: 'audio/mpeg', family: 'audio' });
    expect(classify({ contentType: 'font/woff2' })).toEqual({ kind: 'unsupported', mediaType: 'font/woff2', family: 'font' });
    expect(classify({ contentType: 'application/gzip', head: new Uint8Array([0x1f, 0x8b, 8, 0]) })).toEqual({ kind: 'unsupported', mediaType: 'application/gzip', family: 'archive' });
    expect(classify({ contentType: 'application/vnd.ms-excel' })).toEqual({ kind: 'unsupported', mediaType: 'application/vnd.ms-excel', family: 'document' });
    expect(classify({ contentType: 'application/x-shockwave-flash', head: new Uint8Array([0x46, 0x57, 0x53, 9, 0, 0, 1]) })).toEqual({
      kind: 'unsupported',
      mediaType: 'application/octet-stream',
      family: 'binary',
    });
  });

  it('believes the bytes over a type that cannot be right', () => {
    // A PDF labelled as text or as a page.
    expect(classify({ contentType: 'text/plain', head: PDF_HEAD })).toEqual({ kind: 'pdf' });
    expect(classify({ contentType: 'text/html', head: PDF_HEAD })).toEqual({ kind: 'pdf' });
    // A sign-in page answering a document's URL, still labelled as the document.
    expect(classify({ contentType: 'application/pdf', head: text('<!DOCTYPE html><html><title>Sign in</title>') })).toEqual({ kind: 'html' });
    // A DOCX sent as the older Word type.
    expect(classify({ contentType: 'application/msword', head: DOCX.subarray(0, 1024), url: 'https://example.com/files/review.docx' })).toEqual({ kind: 'docx' });
    expect(classify({ contentType: 'application/msword', head: DOCX.subarray(0, 1024) })).toEqual({ kind: 'zip' });
  });
});

describe('classifyBody when the type says nothing', () => {
  it.each(['application/octet-stream', 'binary/octet-stream', '', null, 'application/force-download'])('sniffs the bytes under %j', (contentType) => {
    expect(classify({ contentType, head: PDF_HEAD })).toEqual({ kind: 'pdf' });
    expect(classify({ contentType, head: text('  <!DOCTYPE html><html><body>') })).toEqual({ kind: 'html' });
    expect(classify({ contentType, head: text('<p>a paragraph first') })).toEqual({ kind: 'html' });
    expect(classify({ contentType, head: PNG_HEAD })).toEqual({ kind: 'unsupported', mediaType: 'image/png', family: 'image' });
    expect(classify({ contentType, head: text('<?xml version="1.0"?><rss version="2.0">') })).toEqual({ kind: 'text', format: 'xml' });
  });

  it('finds a PDF header after some junk within the first kilobyte', () => {
    const head = new Uint8Array([...text('\r\n\r\n'), ...PDF_HEAD.subarray(0, 100)]);
    expect(classify({ contentType: 'application/octet-stream', head })).toEqual({ kind: 'pdf' });
  });

  it('asks for the whole zip when neither the head nor a name says DOCX', () => {
    expect(classify({ contentType: 'application/octet-stream', head: DOCX.subarray(0, 1024) })).toEqual({ kind: 'zip' });
    expect(classify({ contentType: 'application/octet-stream', head: DOCX.subarray(0, 1024), url: 'https://example.com/review.docx' })).toEqual({ kind: 'docx' });
    expect(classify({ head: DOCX.subarray(0, 1024), contentDisposition: 'attachment; filename="Review 2024.docx"' })).toEqual({ kind: 'docx' });
    expect(classify({ head: DOCX.subarray(0, 1024), url: 'https://example.com/sheet.xlsx' })).toEqual({
      kind: 'unsupported',
      mediaType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      family: 'document',
    });
  });

  it('falls back on the extension, then on whether the bytes read as text', () => {
    expect(classify({ contentType: 'application/octet-stream', url: 'https://example.com/notes.md', head: text('Some notes') })).toEqual({ kind: 'text', format: 'markdown' });
    expect(classify({ contentType: 'application/octet-stream', url: 'https://example.com/data', head: text('plain words, nothing else') })).toEqual({ kind: 'text', format: 'plain' });
    expect(classify({ contentType: 'application/octet-stream', url: 'https://example.com/data', head: text('  {"key": [1, 2]}') })).toEqual({ kind: 'text', format: 'json' });
    expect(classify({ contentType: 'application/octet-stream', url: 'https://example.com/blob', head: new Uint8Array([1, 2, 3, 0, 0, 4]) })).toEqual({
      kind: 'unsupported',
      mediaType: 'application/octet-stream',
      family: 'binary',
    });
    // Two letters a text may start with are no bitmap, no program.
    expect(classify({ contentType: 'application/octet-stream', head: text('BMW sold more cars') })).toEqual({ kind: 'text', format: 'plain' });
    expect(classify({ contentType: 'application/octet-stream', head: text('MZ is a postcode') })).toEqual({ kind: 'text', format: 'plain' });
  });

  it('sniffs an attachment whatever its type, and names it by its file name', () => {
    expect(classify({ contentType: 'text/html', contentDisposition: 'attachment; filename=report.pdf', head: PDF_HEAD })).toEqual({ kind: 'pdf' });
    expect(classify({ contentType: 'application/octet-stream', contentDisposition: "attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.txt", head: text('Curriculum') })).toEqual({
      kind: 'text',
      format: 'plain',
    });
  });
});

describe('classifyBody given the whole body', () => {
  it('tells a zip apart at once', () => {
    expect(classifyBody({ contentType: 'application/octet-stream', body: DOCX })).toEqual({ kind: 'docx' });
    const photos = zipSync({ 'a.jpg': new Uint8Array([0xff, 0xd8, 0xff, 0]) });
    expect(classifyBody({ contentType: 'application/octet-stream', body: photos })).toEqual({ kind: 'unsupported', mediaType: 'application/zip', family: 'archive' });
  });

  it('sniffs the start of it', () => {
    expect(classifyBody({ contentType: 'application/octet-stream', body: fixture('report.pdf') })).toEqual({ kind: 'pdf' });
  });
});

describe('classifyZip', () => {
  const zip = (names: string[]) => zipSync(Object.fromEntries(names.map((name) => [name, strToU8('<x/>')])));

  it('tells DOCX from the other zip formats by their entries', () => {
    expect(classifyZip(DOCX)).toEqual({ kind: 'docx' });
    expect(classifyZip(zip(['[Content_Types].xml', 'xl/workbook.xml']))).toMatchObject({ kind: 'unsupported', family: 'document' });
    expect(classifyZip(zip(['[Content_Types].xml', 'ppt/presentation.xml']))).toMatchObject({ kind: 'unsupported', family: 'document' });
    expect(classifyZip(zip(['mimetype', 'META-INF/container.xml']))).toEqual({ kind: 'unsupported', mediaType: 'application/epub+zip', family: 'document' });
    expect(classifyZip(zip(['photos/a.jpg', 'readme.txt']))).toEqual({ kind: 'unsupported', mediaType: 'application/zip', family: 'archive' });
  });

  it('answers a damaged zip as an archive', () => {
    expect(classifyZip(DOCX.subarray(0, 200))).toEqual({ kind: 'unsupported', mediaType: 'application/zip', family: 'archive' });
  });
});

describe('header parsing', () => {
  it('reads the content type essence and charset', () => {
    expect(parseContentType('Text/HTML; Charset="UTF-8"')).toEqual({ mediaType: 'text/html', charset: 'utf-8' });
    expect(parseContentType(undefined)).toEqual({ mediaType: '' });
  });

  it('reads the disposition file name, the extended form first', () => {
    expect(dispositionFileName('attachment; filename="plain.pdf"; filename*=UTF-8\'\'%E2%82%AC%20rates.pdf')).toBe('€ rates.pdf');
    expect(dispositionFileName('inline; filename=report.docx')).toBe('report.docx');
    expect(dispositionFileName('attachment')).toBeNull();
  });
});
