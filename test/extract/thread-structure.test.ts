import { describe, expect, it } from 'vitest';
import { chromiumForFile, PROSE } from './chromium.js';

const { markdownOf } = chromiumForFile({ onlyMainContent: true, url: 'https://cooking.example.com/questions/1/catering' });

const head = '<title>Catering for the first time: how should I prepare? - Seasoned Advice</title>';

/** A Stack Exchange-like page: the title outside role=main, the question's item holding its answers. */
const qaPage = (between: string) =>
  '<div id="content"><div id="question-header"><h1><a href="/questions/1/catering">Catering for the first time: how should I prepare?</a></h1></div>' +
  '<div id="mainbar" role="main"><div itemprop="mainEntity" itemscope itemtype="https://schema.org/Question">' +
  `<div class="question"><div class="s-prose"><p>I am starting a catering service. ${PROSE}</p></div></div>` +
  `<div id="answers"><div class="answer" itemprop="acceptedAnswer" itemscope itemtype="https://schema.org/Answer"><div class="s-prose"><p>Check everything twice. ${PROSE}</p></div></div>` +
  `<div class="answer" itemprop="suggestedAnswer" itemscope itemtype="https://schema.org/Answer"><div class="s-prose"><p>Visit the place first. ${PROSE}</p></div></div>` +
  `${between}</div></div></div></div>`;

describe('a Q&A thread', () => {
  it('sets the question and each answer apart by a rule', async () => {
    const md = await markdownOf(qaPage(''), {}, head);
    const question = md.indexOf('I am starting');
    const first = md.indexOf('Check everything twice');
    const second = md.indexOf('Visit the place first');
    expect(question).toBeGreaterThanOrEqual(0);
    expect(md.slice(question, first)).toContain('\n---\n');
    expect(md.slice(first, second)).toContain('\n---\n');
    expect(md.trimEnd().endsWith('---')).toBe(false);
  });

  it('drops the site\'s call to ask below the answers, not a short post', async () => {
    const cta =
      '<div class="js-bottom-notice"><div class="d-flex"><p>Start asking to get answers</p><p>Find the answer to your question by asking.</p>' +
      '<a class="s-btn s-btn__outlined" href="/questions/ask">Ask question</a></div></div>';
    const md = await markdownOf(qaPage(cta), {}, head);
    expect(md).not.toContain('Start asking');
    expect(md).not.toContain('Find the answer to your question');
    expect(md).toContain('Visit the place first');
  });
});
