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

  it('starts a Q&A page\'s markdown when the question\'s title stands outside role=main', async () => {
    const head = '<title>Catering for the first time: how should I prepare? - Seasoned Advice</title>' +
      '<script type="application/ld+json">{"@type":"QAPage"}</script>';
    const body =
      '<div id="content"><div id="question-header"><h1><a href="/questions/1/catering">Catering for the first time: how should I prepare?</a></h1></div>' +
      `<div id="mainbar" role="main"><div class="question"><p>${PROSE}</p></div><div class="answer"><p>${PROSE}</p></div></div></div>`;
    const md = await markdownOf(body, { url: 'https://cooking.example.com/questions/1/catering' }, head);
    expect(md.split('\n')[0]).toMatch(/^# .*Catering for the first time: how should I prepare\?/);
  });

  it('is not a logo\'s h1 that the title does not name', async () => {
    const body = `<h1>Acme</h1><main><h2>Quarterly report</h2><p>${PROSE}</p><p>${PROSE}</p></main>`;
    const md = await markdownOf(body, { url: 'https://acme.example.com/report' }, '<title>Quarterly report for the third quarter</title>');
    expect(md).not.toContain('Acme');
    expect(md.startsWith('## Quarterly report')).toBe(true);
  });
});
