import { describe, expect, it } from 'vitest';
import { chromiumForFile, PROSE } from './chromium.js';

const { markdownOf } = chromiumForFile({ onlyMainContent: true, url: 'https://docs.example.com/guide/fetch.html' });

const article = (body: string) => `<main><h1>Using the API</h1><p>${PROSE}</p>${body}<p>${PROSE}</p></main>`;

describe('code block languages', () => {
  it('reads the language from SyntaxHighlighter classes (brush: js)', async () => {
    const md = await markdownOf(
      article('<div class="code-example"><div class="example-header"><span class="language-name">js</span></div><pre class="brush: js notranslate"><code>const a = await fetch(url);</code></pre></div>'),
    );
    expect(md).toContain('```js\nconst a = await fetch(url);\n```');
  });

  it('keeps a short line before a block when it is not the block\'s language', async () => {
    const md = await markdownOf(article('<p>Output:</p><pre class="brush: js"><code>done</code></pre>'));
    expect(md).toContain('Output:\n\n```js\ndone\n```');
  });

  it('gives Sphinx\'s default highlighting no language', async () => {
    const md = await markdownOf(
      article('<div class="highlight-default notranslate"><div class="highlight"><pre><span></span>pip install pluck</pre></div></div>' +
        '<div class="highlight-python notranslate"><div class="highlight"><pre>print(1)</pre></div></div>'),
    );
    expect(md).toContain('```\npip install pluck\n```');
    expect(md).toContain('```python\nprint(1)\n```');
  });
});
