import { describe, expect, it } from 'vitest';
import { chromiumForFile, PROSE } from './chromium.js';

const { markdownOf } = chromiumForFile({ onlyMainContent: true });

const articleHead = '<title>Movers under investigation | Channel 7</title><script type="application/ld+json">{"@type":"NewsArticle"}</script>';

describe('the page\'s headline', () => {
  it('is left out of an article, whose body is its text (the title is in the metadata)', async () => {
    const body =
      '<header class="site"><h1 class="logo">Channel 7</h1><nav><a href="/">Home</a> <a href="/news">News</a></nav></header>' +
      '<div class="story"><div class="story-header"><h1>Movers under investigation</h1>' +
      '<div class="byline">By Nina Pineda, November 14, 2025</div></div>' +
      `<div class="story-body"><p>${PROSE}</p><p>${PROSE}</p><p>${PROSE}</p></div></div>`;
    const md = await markdownOf(body, { url: 'https://abc.example.com/post/movers/1' }, articleHead);
    expect(md).not.toContain('Movers under investigation');
    expect(md).not.toContain('Channel 7');
    expect(md).not.toContain('Nina Pineda');
  });

  it('is not a logo\'s h1 that the title does not name: links above the content\'s heading stay', async () => {
    const body =
      `<div><h1>Acme</h1><p>Part of <a href="/reports">our reports</a> and <a href="/archive">the archive</a></p></div>` +
      `<div><h2>Quarterly report</h2><p>${PROSE}</p><p>${PROSE}</p></div>`;
    const md = await markdownOf(body, { url: 'https://acme.example.com/report', onlyMainContent: false }, '<title>Quarterly report for the third quarter | Docs</title>');
    expect(md).toContain('Part of [our reports]');
  });

  it('is a shorter h1 wholly in the title: links above it go', async () => {
    const body =
      `<div><p>Part of <a href="/reports">our reports</a> and <a href="/archive">the archive</a></p></div>` +
      `<div><h1>Quarterly report</h1><p>${PROSE}</p><p>${PROSE}</p></div>`;
    const md = await markdownOf(body, { url: 'https://acme.example.com/report' }, '<title>Quarterly report | Docs</title>');
    expect(md).not.toContain('our reports');
    expect(md).toContain('# Quarterly report');
  });
});
