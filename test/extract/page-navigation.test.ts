import { describe, expect, it } from 'vitest';
import { chromiumForFile, PROSE } from './chromium.js';

const { markdownOf } = chromiumForFile({ onlyMainContent: true, url: 'https://docs.example.com/docs/18/sql-select.html' });

const head = '<title>Documentation: 18: SELECT</title>';
const pager = (where: string) =>
  `<div class="nav${where}"><table><tr><td><a href="select-into.html">Prev</a></td><td><a href="commands.html">Up</a></td>` +
  `<td>SQL Commands</td><td><a href="index.html">Home</a></td><td><a href="select-into.html">Next</a></td></tr></table></div>`;

describe('documentation site chrome', () => {
  it('drops the release banner, version links and Prev/Up/Home/Next tables around a docs page', async () => {
    const body =
      '<div class="shout-box">February 26, 2026: <a href="/about/news/release">PostgreSQL 18.3 Released!</a></div>' +
      '<div><a href="/docs/">Documentation</a> → <a href="/docs/18/">PostgreSQL 18</a></div>' +
      '<div>Supported Versions: <a href="/docs/current/">Current</a> (<a href="/docs/18/">18</a>) / <a href="/docs/17/">17</a> / <a href="/docs/16/">16</a></div>' +
      '<div>Development Versions: <a href="/docs/devel/">devel</a></div>' +
      pager('header') +
      `<div class="refentry"><h2>SELECT</h2><p>SELECT, TABLE, WITH — retrieve rows from a table or view</p><h2>Description</h2><p>${PROSE}</p><p>${PROSE}</p><p>${PROSE}</p></div>` +
      pager('footer');
    const md = await markdownOf(body, {}, head);
    expect(md.startsWith('## SELECT\n\nSELECT, TABLE, WITH')).toBe(true);
    for (const chrome of ['Released', 'Supported Versions', 'devel', 'Prev', 'Next', 'SQL Commands']) expect(md).not.toContain(chrome);
  });

  it('keeps a lead paragraph above the headline and links inside the text', async () => {
    const body =
      `<p>Read this first: the <a href="/docs/18/intro.html">introduction</a> explains how queries are planned and what the examples below assume about your tables.</p>` +
      `<h2>SELECT</h2><p>${PROSE} See <a href="/docs/18/with.html">WITH queries</a> and <a href="/docs/18/next.html">Next steps</a>.</p><p>${PROSE}</p>`;
    const md = await markdownOf(body, {}, head);
    expect(md).toContain('Read this first');
    expect(md).toContain('[Next steps](https://docs.example.com/docs/18/next.html)');
  });
});
