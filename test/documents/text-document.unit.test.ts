import { describe, expect, it } from 'vitest';
import { readDocument } from '../../src/documents/read-document.js';
import { decodeText } from '../../src/documents/text-document.js';
import { cutMarkdown } from '../../src/documents/reading.js';

const utf8 = (value: string) => new TextEncoder().encode(value);
const read = (body: Uint8Array | string, format: 'plain' | 'markdown' | 'json' | 'xml' | 'csv' | 'tsv', options: { charset?: string; maxChars?: number } = {}) =>
  readDocument(typeof body === 'string' ? utf8(body) : body, { kind: 'text', format, ...(options.charset ? { charset: options.charset } : {}) }, { maxChars: options.maxChars });

describe('text documents', () => {
  it('keeps plain text and markdown as they are, the markdown titled by its first heading', async () => {
    expect(await read('Line one\r\nLine two\r\n', 'plain')).toEqual({ markdown: 'Line one\nLine two', title: '', metadata: {}, truncated: false });
    const markdown = await read('Intro text\n\n## Install\n\nRun it.\n', 'markdown');
    expect(markdown.markdown).toBe('Intro text\n\n## Install\n\nRun it.');
    expect(markdown.title).toBe('Install');
  });

  it('pretty-prints JSON in a fence, and leaves invalid JSON as text', async () => {
    expect((await read('{"name":"pluck","tags":["a","b"]}', 'json')).markdown).toBe('```json\n{\n  "name": "pluck",\n  "tags": [\n    "a",\n    "b"\n  ]\n}\n```');
    expect((await read('{"name": "pluck",', 'json')).markdown).toBe('{"name": "pluck",');
  });

  it('fences a JSON text that holds a fence with a longer one', async () => {
    const { markdown } = await read(JSON.stringify({ readme: '```js\ncode\n```' }), 'json');
    expect(markdown.startsWith('````json\n')).toBe(true);
    expect(markdown.endsWith('\n````')).toBe(true);
  });

  it('fences XML and titles a feed by its first title', async () => {
    const feed = '<?xml version="1.0"?>\n<rss version="2.0"><channel><title>River &amp; Lake News</title><item><title>First</title></item></channel></rss>';
    const reading = await read(feed, 'xml');
    expect(reading.markdown).toBe(`\`\`\`xml\n${feed}\n\`\`\``);
    expect(reading.title).toBe('River & Lake News');
  });

  it('makes a small regular CSV a table, quotes and all', async () => {
    const csv = 'River,Length (km),Note\nRhine,1230,"flows north, then west"\nDanube,2850,"the ""blue"" one"\n';
    expect((await read(csv, 'csv')).markdown).toBe(
      ['| River | Length (km) | Note |', '| --- | --- | --- |', '| Rhine | 1230 | flows north, then west |', '| Danube | 2850 | the "blue" one |'].join('\n'),
    );
    expect((await read('a\tb\n1|2\t3\n', 'tsv')).markdown).toBe('| a | b |\n| --- | --- |\n| 1\\|2 | 3 |');
  });

  it('fences a CSV that is irregular or too long for a table', async () => {
    const ragged = 'a,b,c\n1,2\n3,4,5\n';
    expect((await read(ragged, 'csv')).markdown).toBe('```csv\na,b,c\n1,2\n3,4,5\n```');
    const long = ['n,square', ...Array.from({ length: 300 }, (_, n) => `${n},${n * n}`)].join('\n');
    const { markdown } = await read(long, 'csv');
    expect(markdown.startsWith('```csv\nn,square\n0,0\n')).toBe(true);
    expect(markdown.endsWith('299,89401\n```')).toBe(true);
  });

  it('decodes by the byte order mark, then the charset, then UTF-8', async () => {
    expect((await read(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), 'plain', { charset: 'iso-8859-1' })).markdown).toBe('café');
    expect((await read(new Uint8Array([0x93, 0x71, 0x94, 0x80, 0x9f]), 'plain', { charset: 'windows-1252' })).markdown).toBe('“q”€Ÿ');
    const utf16 = new Uint8Array([0xff, 0xfe, ...[...'hé'].flatMap((char) => [char.charCodeAt(0), 0])]);
    expect((await read(utf16, 'plain', { charset: 'iso-8859-1' })).markdown).toBe('hé');
    expect((await read(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('ça')]), 'plain')).markdown).toBe('ça');
    expect(decodeText(utf8('naïve'), 'no-such-charset')).toBe('naïve');
  });

  it('takes the charset from the content type when the kind names none', async () => {
    const reading = await readDocument(new Uint8Array([0x93, 0x71, 0x94]), { kind: 'text', format: 'plain' }, { contentType: 'text/plain; charset=windows-1252' });
    expect(reading.markdown).toBe('“q”');
  });

  it('cuts at maxChars and says so, closing a fence it cut open', async () => {
    const plain = await read('abcdefghij', 'plain', { maxChars: 4 });
    expect(plain).toMatchObject({ markdown: 'abcd', truncated: true, truncatedBy: 'maxChars' });
    const json = await read(JSON.stringify(Array.from({ length: 50 }, (_, n) => n)), 'json', { maxChars: 40 });
    expect(json.truncated).toBe(true);
    expect(json.markdown.length).toBeLessThanOrEqual(40);
    expect(json.markdown.startsWith('```json\n[\n  0,')).toBe(true);
    expect(json.markdown.endsWith('\n```')).toBe(true);
  });

  it('does not split a surrogate pair at the cut', () => {
    expect(cutMarkdown('ab😀cd', 3)).toEqual({ markdown: 'ab', truncated: true });
  });
});
