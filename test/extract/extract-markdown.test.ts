import { describe, expect, it } from 'vitest';
import { extractMarkdown, InvalidSelector } from '../../src/extract/extract.js';
import { chromiumForFile, PROSE, pageWith } from './chromium.js';

const URL_ = 'https://example.com/blog/post.html';

const { browser, markdownOf } = chromiumForFile();

describe('markdown structure', () => {
  it('writes ATX headings, paragraphs and inline emphasis', async () => {
    const md = await markdownOf('<h1>Title</h1><p>Some <strong>bold</strong> and <em>soft</em> text.</p><h3>Sub <i>part</i></h3>');
    expect(md).toBe('# Title\n\nSome **bold** and *soft* text.\n\n### Sub *part*');
  });

  it('writes emphasis nested in the same emphasis once, and bold inside italics as both', async () => {
    const md = await markdownOf('<p><b class="hide-caption"><b>hide caption</b></b> <em>an <i>inner</i> word</em> <i><b>both</b></i> <em><em>twice</em></em></p>');
    expect(md).toBe('**hide caption** *an inner word* ***both*** *twice*');
  });

  it('nests lists and keeps ordered numbering', async () => {
    const md = await markdownOf(
      '<ul><li>One<ul><li>One.a</li><li>One.b<ol start="3"><li>deep</li><li>deeper</li></ol></li></ul></li><li>Two</li></ul>',
    );
    expect(md).toBe('- One\n  - One.a\n  - One.b\n    3. deep\n    4. deeper\n- Two');
  });

  it('converts data tables to GFM pipe tables and layout tables to blocks', async () => {
    const md = await markdownOf(
      '<table><thead><tr><th>Name</th><th>Price</th></tr></thead><tbody><tr><td>Tea | green</td><td>$3</td></tr>' +
        '<tr><td colspan="2">Sold out</td></tr></tbody></table>' +
        '<table><tr><td><p>Only column</p></td></tr></table>',
    );
    expect(md).toBe('| Name | Price |\n| --- | --- |\n| Tea \\| green | $3 |\n| Sold out |  |\n\nOnly column');
  });

  it('fences code blocks with the language from language-/lang-/highlight- classes', async () => {
    const md = await markdownOf(
      '<pre><code class="language-ts">const a = 1;\nconst b = `x`;</code></pre>' +
        '<pre class="lang-python">print("hi")</pre>' +
        '<div class="highlight-rust"><pre>fn main() {}</pre></div>' +
        '<pre><code>```nested```</code></pre>' +
        '<p>Inline <code>x = 1</code> code.</p>',
    );
    expect(md).toContain('```ts\nconst a = 1;\nconst b = `x`;\n```');
    expect(md).toContain('```python\nprint("hi")\n```');
    expect(md).toContain('```rust\nfn main() {}\n```');
    expect(md).toContain('````\n```nested```\n````');
    expect(md).toContain('Inline `x = 1` code.');
  });

  it('writes block quotes, nested content included', async () => {
    const md = await markdownOf('<blockquote><p>First</p><p>Second <b>line</b></p><ul><li>item</li></ul></blockquote>');
    expect(md).toBe('> First\n>\n> Second **line**\n>\n> - item');
  });

  it('makes links and images absolute against the page URL and <base href>', async () => {
    const body =
      '<p><a href="../about">About us</a> and <a href="https://other.org/x?a=1">elsewhere</a></p>' +
      '<p><img src="/img/cat.png" alt="A [cat]"> <img data-src="lazy.jpg" src="data:image/gif;base64,R0lG" alt="lazy"></p>';
    const md = await markdownOf(body);
    expect(md).toContain('[About us](https://example.com/about)');
    expect(md).toContain('[elsewhere](https://other.org/x?a=1)');
    expect(md).toContain('![A cat](https://example.com/img/cat.png)');
    expect(md).toContain('![lazy](https://example.com/blog/lazy.jpg)');
    const based = await markdownOf(body, {}, '<base href="https://cdn.example.net/root/">');
    expect(based).toContain('[About us](https://cdn.example.net/about)');
    expect(based).toContain('![lazy](https://cdn.example.net/root/lazy.jpg)');
  });

  it('percent-encodes parentheses in every link target, card links included', async () => {
    const md = await markdownOf(
      '<p>See <a href="/wiki/Mercury_(planet)">Mercury</a>.</p>' +
        '<a href="/wiki/Venus_(planet)"><h3>Venus</h3><p>The second planet from the Sun.</p></a>' +
        '<p><img src="/img/earth (1).png" alt="Earth"></p>',
    );
    expect(md).toContain('[Mercury](https://example.com/wiki/Mercury_%28planet%29)');
    expect(md).toContain('### [Venus](https://example.com/wiki/Venus_%28planet%29)');
    expect(md).toContain('![Earth](https://example.com/img/earth%20%281%29.png)');
  });

  it('leaves out empty links, script-only links and invisible or non-content elements', async () => {
    const md = await markdownOf(
      '<p>Keep <a href="/x"></a><a href="/y"> </a><a href="javascript:void(0)">plain</a> <a href="#top">anchor</a></p>' +
        '<script>var leaked = 1;</script><style>.leak{}</style><template><p>template leak</p></template>' +
        '<noscript><p>noscript leak</p></noscript><p style="display:none">hidden leak</p><p hidden>attr leak</p>' +
        '<p><a href="/img"><img src="/i.png" alt="pic"></a></p>',
    );
    expect(md).toBe('Keep plain anchor\n\n[![pic](https://example.com/i.png)](https://example.com/img)');
  });

  it('keeps words apart where the page lays inline elements out as blocks', async () => {
    const md = await markdownOf(
      '<p><a href="/p/1"><span style="display:block">Black Diamond</span><span>Spot 400</span></a> ' +
        '<span>$54</span><span style="display:flex">In stock</span></p>',
    );
    expect(md).toBe('[Black Diamond Spot 400](https://example.com/p/1) $54 In stock');
    const dropCap = await markdownOf('<p><span style="float:left;font-size:3em">T</span>he story begins.</p>');
    expect(dropCap).toBe('The story begins.');
  });

  it('keeps apart sibling elements that meet at a case change no word has (a stylesheet not loaded)', async () => {
    const md = await markdownOf(
      '<p><a href="/p/1"><span class="brand">Merrell</span><span class="title">Moab 3 Mid</span></a></p>' +
        '<p><span class="name">Publisher</span><span class="value">Houghton</span></p>' +
        '<p><label>Accessories</label><span>1385</span></p>' +
        '<p><span class="brand">HOKA</span><span class="title">Kaha 3 GTX</span></p>' +
        '<p>H<sub>2</sub>O and <span>Java</span><span>script</span> and <b>i</b>Phone and <span>NA</span><span>SA</span></p>',
    );
    expect(md).toBe(
      '[Merrell Moab 3 Mid](https://example.com/p/1)\n\nPublisher Houghton\n\nAccessories 1385\n\nHOKA Kaha 3 GTX\n\nH2O and Javascript and **i**Phone and NASA',
    );
  });

  it('stays linear on emphasis and links padded with long runs of em spaces', async () => {
    const pad = '\u2003'.repeat(200_000);
    const md = await markdownOf(`<p>Start <em>soft${pad}words</em> and <a href="/x">go${pad}there</a> end.</p>`);
    expect(md.replace(/\u2003+/g, ' ')).toBe('Start *soft words* and [go there](https://example.com/x) end.');
  }, 10_000);

  it('escapes text that would otherwise read as markdown', async () => {
    const md = await markdownOf('<p>1. not a list *nor emphasis* and [no link] &lt;b&gt; snake_case _x_</p><p># not a heading</p>');
    expect(md).toBe('1\\. not a list \\*nor emphasis\\* and \\[no link\\] \\<b> snake_case \\_x\\_\n\n\\# not a heading');
  });
});

describe('main content', () => {
  const page = `
    <header class="site-header"><a href="/">Home</a><nav><a href="/a">Alpha</a> <a href="/b">Beta</a> <a href="/c">Gamma</a></nav></header>
    <div id="cookie-banner">We use cookies to improve your experience. <a href="/privacy">Privacy policy</a></div>
    <main><article class="post">
      <h1>The article</h1>
      <p>${PROSE}</p><p>${PROSE} Second paragraph, with commas, and more.</p>
      <div class="share-buttons"><a href="https://x.com/share">Share on X</a> <a href="https://fb.com/share">Facebook</a></div>
      <p>${PROSE} Third paragraph.</p>
    </article>
    <aside class="related"><h2>Related posts</h2><ul><li><a href="/r1">Related one</a></li><li><a href="/r2">Related two</a></li></ul></aside></main>
    <footer class="site-footer"><p>Copyright 2025 Example Inc. All rights reserved.</p><a href="/terms">Terms</a></footer>`;

  it('keeps the article and drops navigation, banners, sharing, related links and the footer', async () => {
    const md = await markdownOf(page, { onlyMainContent: true });
    expect(md).toContain('Second paragraph, with commas');
    expect(md).toContain('Third paragraph.');
    for (const boilerplate of ['Alpha', 'cookies', 'Share on X', 'Related one', 'Copyright', 'Terms']) {
      expect(md, md).not.toContain(boilerplate);
    }
  });

  it('keeps everything visible with onlyMainContent false', async () => {
    const md = await markdownOf(page, { onlyMainContent: false });
    for (const text of ['Alpha', 'Related one', 'Copyright', 'Third paragraph.']) expect(md).toContain(text);
  });

  it('honours includeTags and excludeTags', async () => {
    const only = await markdownOf(page, { includeTags: ['aside.related', 'footer'] });
    expect(only).toBe('## Related posts\n\n- [Related one](https://example.com/r1)\n- [Related two](https://example.com/r2)\n\nCopyright 2025 Example Inc. All rights reserved.\n\n[Terms](https://example.com/terms)');
    const without = await markdownOf(page, { onlyMainContent: false, excludeTags: ['nav', '.site-footer', 'p:nth-of-type(2)'] });
    expect(without).not.toContain('Alpha');
    expect(without).not.toContain('Copyright');
    expect(without).not.toContain('Second paragraph');
    expect(without).toContain('Third paragraph.');
  });

  it('keeps links and emphasis inside a sentence whatever their class says', async () => {
    const md = await markdownOf(
      `<main><article><p>${PROSE} See <a class="related-link" href="/paper">the related paper</a> and ` +
        `<em class="share-note">this note</em> for more.</p><p>${PROSE}</p></article></main>`,
      { onlyMainContent: true },
    );
    expect(md).toContain('See [the related paper](https://example.com/paper) and *this note* for more.');
  });

  it('drops a dateline but keeps a short sentence that mentions a year', async () => {
    const md = await markdownOf(
      `<article><h1>Headline</h1><div class="date">Posted Fri, November 12, 2018 at 6:45 pm</div><p>${PROSE}</p>` +
        `<p><strong>The chief executive steps down in May 2020.</strong></p><p>${PROSE}</p></article>`,
      { onlyMainContent: true },
      '<script type="application/ld+json">{"@type":"NewsArticle"}</script>',
    );
    expect(md).toContain('**The chief executive steps down in May 2020.**');
    expect(md).not.toContain('November 12');
  });

  it('drops a comment section that outgrows the article, but keeps comments on a forum', async () => {
    const comments = `<div id="comments-area">${'<div class="comment-body"><p>A reader writes at length about the article, agreeing with some points, disputing others, and adding more.</p></div>'.repeat(8)}</div>`;
    const body = `<main><article><h1>Story</h1><p>${PROSE}</p><p>${PROSE} Closing line.</p></article>${comments}</main>`;
    const article = await markdownOf(body, { onlyMainContent: true });
    expect(article).toContain('Closing line.');
    expect(article).not.toContain('A reader writes');
    const forum = await markdownOf(body, { onlyMainContent: true }, '<script type="application/ld+json">{"@type":"DiscussionForumPosting"}</script>');
    expect(forum).toContain('A reader writes');
  });

  it('keeps the question and answers of a Q&A page but not the remarks under each post', async () => {
    const remarks = (who: string) =>
      `<div class="comments"><ul><li>${who} remarks that this worked for them, thanks, and adds a detail of their own setup.</li>` +
      `<li>${who} asks whether it also works on an older version of the system.</li></ul></div>`;
    const post = (label: string) => `<div class="post"><div class="post-text"><p>${label} ${PROSE}</p><p>${PROSE}</p></div>${remarks(label)}</div>`;
    const body = `<main><h1>How do I back up the whole system?</h1>${post('Question:')}<div id="answers">${post('Answer one:')}${post('Answer two:')}</div></main>`;
    const md = await markdownOf(body, { onlyMainContent: true }, '<script type="application/ld+json">{"@type":"QAPage"}</script>');
    expect(md).toContain('Answer two:');
    expect(md).not.toContain('remarks that this worked');
  });

  it('takes the stacked article whose headline is the page title', async () => {
    const story = (title: string, words: string) =>
      `<article><h2>${title}</h2><p>${words} ${PROSE}</p><p>${words} ${PROSE}</p></article>`;
    const md = await markdownOf(
      `<section role="main">${story('Other news of the day elsewhere', 'Elsewhere:')}</section>` +
        `<section>${story('The early reviews are here and mixed', 'Reviews:')}${story('Yet another story below', 'Below:')}</section>`,
      { onlyMainContent: true },
      '<title>The early reviews are here - and mixed | Site</title>',
    );
    expect(md).toContain('Reviews:');
    expect(md).not.toContain('Elsewhere:');
    expect(md).not.toContain('Below:');
  });

  it('drops a second rendering of the same post but keeps a line the text repeats', async () => {
    const post =
      '<p>First line of the post, long enough to count as a line of text here.</p>' +
      '<p>Second line of the post, also long enough to count as one of them.</p>' +
      '<p>Third line of the post, which goes on with a few more words than that.</p>' +
      '<p>Fourth line of the post, which closes the post, as all posts end somewhere.</p>';
    const repeatedLine = '<p>Portion: one green, one red, one yellow and one teaspoon of oil, as on every day of the plan.</p>';
    const md = await markdownOf(
      `<main><div class="post">${post}</div><div class="post-preview">${post}</div><div>${repeatedLine}<p>${PROSE}</p>${repeatedLine}</div></main>`,
      { onlyMainContent: true },
    );
    expect(md.match(/Second line of the post/g), md).toHaveLength(1);
    expect(md.match(/Portion: one green/g)).toHaveLength(2);
  });

  it('leaves out text clipped to a pixel for screen readers, but not a visible element of the same name', async () => {
    const clip = 'position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)';
    const md = await markdownOf(
      `<main><article><h1>Trail shoe<span class="clipped" style="${clip}">Trail shoe, opens a new window</span></h1>` +
        `<p>${PROSE}</p><p class="a11y-note">Visible note for everyone.</p><p>${PROSE}</p></article></main>`,
      { onlyMainContent: true },
    );
    expect(md).not.toContain('opens a new window');
    expect(md).toContain('Visible note for everyone.');
  });

  it('reads content the page hides until its scripts run when nothing else is visible', async () => {
    const body =
      '<header><nav><a href="/">Home</a> <a href="/shop">Shop</a></nav></header>' +
      `<div id="app" style="display:none"><main><h1>Complete meal</h1><p>${PROSE}</p><p>${PROSE} Shake for twenty seconds.</p>` +
      '<div class="mega-menu" hidden><a href="/a">Alpha</a> <a href="/b">Beta</a></div></main></div>' +
      '<footer><p>Copyright 2025 Example Inc.</p></footer>';
    const md = await markdownOf(body, { onlyMainContent: true });
    expect(md).toContain('Shake for twenty seconds.');
    expect(md).not.toContain('Copyright');
    // A page with visible content keeps its hidden parts out.
    const visible = await markdownOf(`<main><p>${PROSE} Shown.</p><div style="display:none"><p>${PROSE} Hidden.</p></div></main>`, {
      onlyMainContent: true,
    });
    expect(visible).toContain('Shown.');
    expect(visible).not.toContain('Hidden.');
  });


  it('keeps the closed panels of a tab set (the same step in other languages), not other hidden parts', async () => {
    const tabs =
      '<div role="tablist"><button role="tab" aria-selected="true">Python</button><button role="tab">Node.js</button></div>' +
      '<div role="tabpanel"><pre><code class="language-python">pip install twilio</code></pre></div>' +
      '<div role="tabpanel" hidden><pre><code class="language-js">npm install twilio</code></pre></div>' +
      '<div role="tabpanel" style="display:none"><p>Install <strong>Go</strong> first.</p></div>';
    const md = await markdownOf(
      `<main><article><h1>Quickstart</h1><p>${PROSE}</p>${tabs}<p>${PROSE} Then send a message.</p>` +
        '<div class="promo" style="display:none"><p>Hidden promotion.</p></div></article></main>',
      { onlyMainContent: true },
    );
    expect(md).toContain('```python\npip install twilio\n```');
    expect(md).toContain('```js\nnpm install twilio\n```');
    expect(md).toContain('Install **Go** first.');
    expect(md).not.toContain('Hidden promotion.');
  });

  it('keeps the rest of a text collapsed behind "Read more", not a hidden menu or notice beside a toggle', async () => {
    const toggle = '<div><a href="#" role="button" aria-expanded="false">Read more</a></div>';
    const menu = ['Home', 'Books', 'Kindle', 'Audible', 'Gifts'].map((item) => `<li><a href="/${item}">${item} department</a></li>`).join('');
    const md = await markdownOf(
      `<main><h1>Small Habits</h1><div class="expander"><p>${PROSE}</p>` +
        `<div class="expander-content" style="display:none"><h3>Excerpt</h3><p>It is easy to overestimate one defining moment. ${PROSE}</p></div>${toggle}</div>` +
        `<div><button aria-expanded="false">Departments</button><ul style="display:none">${menu}</ul></div>` +
        `<div><button aria-expanded="false">Help</button><p style="display:none">Internet Explorer 11 is not supported.</p></div></main>`,
    );
    expect(md).toContain('### Excerpt');
    expect(md).toContain('It is easy to overestimate one defining moment.');
    expect(md).not.toContain('Kindle department');
    expect(md).not.toContain('Internet Explorer 11');
  });
  it('leaves a grid of teasers for other stories beside the article out, but keeps a list inside it', async () => {
    const teaser = (n: number) =>
      `<li><a href="/story-${n}">Another story number ${n} from the newsroom</a> CITY: An excerpt of story ${n}, ` +
      'long enough to read like the opening lines of a report that continues on its own page.</li>';
    const teasers = (label: string) => `<div class="${label}"><h3>${label}</h3><ul>${[1, 2, 3, 4, 5, 6].map(teaser).join('')}</ul></div>`;
    const tips = [1, 2, 3, 4, 5]
      .map((n) => `<li><strong>Tip ${n}.</strong> Keep your software updated, see <a href="/tip-${n}">the guide</a> for how it is done.</li>`)
      .join('');
    const md = await markdownOf(
      `<div class="content">${teasers('Breaking')}<div class="story"><h1>The story</h1><p>${PROSE}</p><ul>${tips}</ul>` +
        `<p>${PROSE} Last line of the story.</p></div></div><div class="bottom">${teasers('Latest')}</div>`,
      { onlyMainContent: true },
      '<script type="application/ld+json">{"@type":"NewsArticle"}</script>',
    );
    expect(md).toContain('Last line of the story.');
    expect(md).toContain('**Tip 3.**');
    expect(md).not.toContain('An excerpt of story');
  });

  it('keeps every text block of an article a page builder split into alike blocks', async () => {
    const textBlock = (text: string) =>
      `<div class="sqs-block html-block"><div class="sqs-block-content"><div class="sqs-text"><div class="sqs-html">${text}</div></div></div></div>`;
    const md = await markdownOf(
      `<div class="row"><div class="col">` +
        textBlock(`<h1>How to start</h1><p>${PROSE}</p><p>${PROSE}</p><p>${PROSE}</p><p>${PROSE}</p><p>${PROSE}</p>`) +
        '<div class="sqs-block image-block"><img src="/a.png" alt="A desk"></div>' +
        textBlock('<p>Then comes the second half, written after the picture, with its own plain sentences in it, and a last clause.</p>') +
        `</div><div class="col side"><p>Subscribe to the newsletter for more.</p></div></div>`,
      { onlyMainContent: true, url: 'https://example.com/blog/how-to-start' },
      '<meta property="og:type" content="article">',
    );
    expect(md).toContain(PROSE);
    expect(md).toContain('Then comes the second half, written after the picture');
    expect(md).not.toContain('Subscribe to the newsletter');
  });

  it('does not narrow to a part that holds well under most of the prose (an FAQ beside widget-built sections)', async () => {
    const section = (n: number) =>
      `<div class="e-con"><div class="e-con-inner"><div class="e-widget"><div class="e-widget-container">` +
      `<h2>Step ${n}</h2><p>Section ${n} of the service description explains in plain words what the firm does for you and why it matters to a new business owner today.</p>` +
      `</div></div></div></div>`;
    const answer = (n: number) =>
      `<div class="toggle-item"><div class="toggle-title">Question ${n}?</div><div class="toggle-content"><p>Answer ${n}: yes, we can, and we do, ` +
      'for LLCs, PLLCs, corporations, partnerships, sole proprietors, nonprofits, and more, in all five boroughs, quickly, clearly, and for a flat fee, ' +
      'with filings, licences, permits, tax numbers, operating agreements, bylaws, minutes, and annual reports, all of it, every year.</p></div></div>';
    const md = await markdownOf(
      `<main>${[1, 2, 3, 4, 5, 6].map(section).join('')}<div class="faq">${[1, 2, 3, 4].map(answer).join('')}</div></main>`,
      { onlyMainContent: true, url: 'https://example.com/business-formation/' },
      '<meta property="og:type" content="article">',
    );
    expect(md).toContain('Section 4 of the service description');
    expect(md).toContain('Answer 3: yes, we can');
  });

  it('keeps every link list of a reading-list page, short ones too, but drops them from a prose article', async () => {
    const item = (n: number) => `<li><a href="https://blog.example/tuning-${n}">Tuning the database, part ${n}</a> by Author ${n}</li>`;
    const section = (title: string, items: number[]) => `<h2>${title}</h2><ul>${items.map(item).join('')}</ul>`;
    const readingList = await markdownOf(
      `<div id="nav"><a href="/">Main page</a> <a href="/recent">Recent changes</a></div><div id="content"><h1>Performance optimization</h1>` +
        `<p>Collected articles on making the database fast, sorted by topic, with their authors.</p>` +
        section('General setup', [1, 2, 3, 4, 5, 6]) + section('Critical maintenance', [7]) + section('Hardware', [8, 9]) + '</div>',
      { onlyMainContent: true, url: 'https://wiki.example/wiki/Performance_Optimization' },
    );
    expect(readingList).toContain('Tuning the database, part 3');
    expect(readingList).toContain('[Tuning the database, part 7](https://blog.example/tuning-7) by Author 7');
    expect(readingList).toContain('Tuning the database, part 9');

    const article = await markdownOf(
      `<article><h1>Why the database was slow</h1><p>${PROSE}</p><p>${PROSE}</p><p>${PROSE} The index was missing.</p>` +
        `${section('Read next', [1, 2])}</article>`,
      { onlyMainContent: true, url: 'https://blog.example/why-slow' },
      '<meta property="og:type" content="article">',
    );
    expect(article).toContain('The index was missing.');
    expect(article).not.toContain('Tuning the database, part 2');
  });

  it('keeps a category description set after <main> on a listing page, but not the footer', async () => {
    const card = (n: number) =>
      `<li class="card"><a href="/boots/${n}">Trail boot model ${n}</a><span>$1${n}0. Waterproof leather, grippy sole.</span></li>`;
    const md = await markdownOf(
      `<main><h1>Hiking boots</h1><ul class="grid">${[1, 2, 3, 4, 5, 6, 7, 8].map(card).join('')}</ul></main>` +
        `<div class="category-bottom"><h2>How to choose hiking boots</h2><p>${PROSE} ${PROSE} Fit them in the afternoon.</p><p>${PROSE}</p></div>` +
        '<div class="site-footer"><p>Copyright 2025 Example Inc. All rights reserved.</p></div>',
      { onlyMainContent: true, url: 'https://example.com/category/hiking-boots' },
    );
    expect(md).toContain('Trail boot model 3');
    expect(md).toContain('Fit them in the afternoon.');
    expect(md).not.toContain('Copyright');
  });

  it('keeps the product grid of a page that calls itself a group of products (og:type product.group)', async () => {
    const card = (n: number) => `<li class="card"><a href="/hp/${n}">Studio headphone ${n}</a><ul><li>Closed-back</li></ul></li>`;
    const md = await markdownOf(
      `<main><h1>Studio headphones</h1><ul class="grid">${[1, 2, 3, 4, 5, 6, 7, 8].map(card).join('')}</ul>` +
        `<p>${PROSE} ${PROSE} ${PROSE} Closed headphones isolate best.</p></main>`,
      { onlyMainContent: true, url: 'https://example.com/gb/studio_headphones.html' },
      '<meta property="og:type" content="product.group">',
    );
    expect(md).toContain('Studio headphone 5');
    expect(md).toContain('Closed headphones isolate best.');
  });

  it('keeps the grid of a shop page tagged og:type product with no product data in it (a category page)', async () => {
    const card = (n: number) =>
      `<div class="thumb"><a href="/pot-${n}"><img src="/p.png" alt=""><span>Terracotta pot and saucer, number ${n} size</span></a>` +
      `<span class="sku">SKU: X5${n}</span><div class="prices"><span>$${n}9.00</span></div></div>`;
    const cards = [1, 2, 3, 4, 5, 6, 7, 8, 9].map(card).join('');
    const page = (head: string) =>
      markdownOf(
        `<section id="content"><h1>Indoor pots</h1><p>${PROSE} Pots for every room of the house.</p><div class="grid">${cards}</div></section>`,
        { onlyMainContent: true, url: 'https://example.com/indoor-pottery' },
        `<meta property="og:type" content="product">${head}`,
      );
    const category = await page('');
    expect(category).toContain('Terracotta pot and saucer, number 7 size');
    expect(category).toContain('SKU: X57');
    // With a Product in its structured data the page is that product, and the cards are other products.
    const product = await page('<script type="application/ld+json">{"@type":"Product","name":"Indoor pots"}</script>');
    expect(product).toContain('Pots for every room of the house.');
    expect(product).not.toContain('Terracotta pot and saucer, number 7');
  });

  it('drops widgets headed "Similar items" or "Customers also viewed", in the heading or after it', async () => {
    const card = (n: number) => `<div class="c1"><a href="/p/${n}">Other lamp ${n}</a><span>$${n}9.99</span><span>Free delivery</span></div>`;
    const cards = [1, 2, 3, 4].map(card).join('');
    const md = await markdownOf(
      `<main><h1>Desk lamp</h1><p>${PROSE} Made of brushed steel.</p>` +
        `<div class="x9"><div class="x8"><h2>Similar items</h2><a href="/all">See all</a></div><div class="x7">${cards}</div></div>` +
        `<div class="x6"><p>${PROSE} Care: wipe with a dry cloth.</p><h3>Customers also viewed</h3><div class="x5">${cards}</div></div></main>`,
      { onlyMainContent: true, url: 'https://example.com/p/desk-lamp' },
    );
    expect(md).toContain('Made of brushed steel.');
    expect(md).toContain('Care: wipe with a dry cloth.');
    expect(md).not.toContain('Similar items');
    expect(md).not.toContain('Customers also viewed');
    expect(md).not.toContain('Other lamp');
  });

  it("drops a carousel of other products after its heading's header, however it outweighs a short listing", async () => {
    const slide = (n: number) =>
      `<li class="s1"><img src="/i/${n}.jpg" alt=""><h3>Gold chain ${n}20 links for motorbikes</h3><span>New · Business</span>` +
      `<span>$${n}52.15</span><span>+ $81.31 delivery</span><span>Seller with 100% positive feedback</span></li>`;
    const carousel = `<div class="q7"><div class="carousel carousel--peek"><ul>${[1, 2, 3, 4, 5, 6].map(slide).join('')}</ul></div></div>`;
    const md = await markdownOf(
      '<main><h1>Gold chain 104 links</h1><p>EUR 163.12</p><p>Condition: not specified</p>' +
        `<div class="q9"><div class="q8"><h2>Similar items</h2><p>Sponsored picks chosen for you from sellers who ship to your country</p></div>${carousel}</div></main>`,
      { onlyMainContent: true, url: 'https://example.com/itm/296607459180' },
      '<script type="application/ld+json">{"@type":"Product","name":"Gold chain 104 links"}</script>',
    );
    expect(md).toContain('EUR 163.12');
    expect(md).toContain('Condition: not specified');
    expect(md).not.toContain('Similar items');
    expect(md).not.toContain('Gold chain 120 links');
    expect(md).not.toContain('positive feedback');
  });

  it("drops customers' reviews that outweigh a product's description, and keeps its editorial and press reviews", async () => {
    const review = (n: number) => `<li class="cr-item"><h4>${n}.0 out of 5 stars, a great read</h4><p>Reviewer ${n} says: ${PROSE}</p></li>`;
    const md = await markdownOf(
      '<div id="dp"><h1>Small Habits, a hardcover</h1><div id="productDescription"><p>A practical guide to habits that last.</p></div>' +
        `<div id="editorialReviews_feature_div"><h2>Editorial Reviews</h2><p>"A supremely practical book." Reviewer of a great paper</p></div>` +
        '<div id="area_reviews" class="area_description"><h2>Press</h2><p>"The champion of habit books." 5/5, Book Radar</p></div>' +
        `<div id="customerReviews"><h2>Top reviews</h2><ul>${[1, 2, 3, 4, 5, 6].map(review).join('')}</ul></div></div>`,
      { onlyMainContent: true, url: 'https://example.com/Small-Habits/dp/0735211299' },
      '<script type="application/ld+json">{"@type":"Product","name":"Small Habits"}</script>',
    );
    expect(md).toContain('A practical guide to habits that last.');
    expect(md).toContain('A supremely practical book.');
    expect(md).toContain('The champion of habit books.');
    expect(md).not.toContain('Top reviews');
    expect(md).not.toContain('Reviewer 3 says');
  });

  it("keeps a product's title box whose name speaks of its rating, and still drops the reviews", async () => {
    const md = await markdownOf(
      '<div class="main-wrapper"><div class="wrapper wrapper__pageTitle wrapper__pageTitle--rating"><section><h1>Ryzen 7 7800X3D processor</h1>' +
        '<p>4.9 stars, 1,203 ratings</p></section></div>' +
        `<div class="specs"><h2>Specifications</h2><p>Eight cores, sixteen threads and a stacked cache. ${PROSE}</p></div>` +
        `<div class="product-reviews"><h2>User reviews</h2><p>Great chip for games, says one buyer. ${PROSE}</p></div></div>`,
      { onlyMainContent: true, url: 'https://example.com/product/FLRzK8/amd-ryzen-7-7800x3d' },
      '<script type="application/ld+json">{"@type":"Product","name":"Ryzen 7 7800X3D processor"}</script>',
    );
    expect(md).toContain('# Ryzen 7 7800X3D processor');
    expect(md).toContain('Eight cores, sixteen threads');
    expect(md).not.toContain('Great chip for games');
  });

  it('drops a product\'s review widget by its heading, whatever its classes, but not an article\'s "Customer reviews" section', async () => {
    const reviews =
      '<div class="_6o3a"><div class="_1g9a"><h2>Customer Reviews</h2><p>Rated 4.4 out of 5 stars. 369 Reviews</p></div>' +
      `<div class="_14db"><p>Customers praise this lamp's warm light and easy assembly. ${PROSE}</p></div></div>`;
    const product = await markdownOf(
      `<main><h1>Beaded chandelier</h1><p>Sixteen rows of wooden beads around a single bulb.</p>${reviews}</main>`,
      { onlyMainContent: true, url: 'https://example.com/lighting/pdp/beaded-chandelier.html' },
      '<script type="application/ld+json">{"@type":"Product","name":"Beaded chandelier"}</script>',
    );
    expect(product).toContain('Sixteen rows of wooden beads');
    expect(product).not.toContain('Customer Reviews');
    expect(product).not.toContain('warm light and easy assembly');
    const article = await markdownOf(`<main><article><h1>Why reviews matter</h1><p>${PROSE}</p>${reviews}</article></main>`, { onlyMainContent: true });
    expect(article).toContain('warm light and easy assembly');
  });

  it('reads a review heading split over lines by its markup ("<span>8</span> Reviews")', async () => {
    const md = await markdownOf(
      `<main><h1>Player II Strat</h1><p>An alder body and a maple neck. ${PROSE}</p>` +
        '<div class="js-product-reviews-preview"><h3 class="fx-headline">\n  <span itemprop="reviewCount">8</span>\n\n      Reviews\n</h3>' +
        '<div><p>Great for blues, says a player from Leeds.</p></div></div></main>',
      { onlyMainContent: true, url: 'https://example.com/gb/fender_player_ii_strat.htm' },
      '<script type="application/ld+json">{"@type":"Product","name":"Player II Strat"}</script>',
    );
    expect(md).toContain('An alder body');
    expect(md).not.toContain('Reviews');
    expect(md).not.toContain('Great for blues');
  });

  it("drops each card's review score on a shop's listing and keeps the rest of the card", async () => {
    const card = (n: number) =>
      `<li class="tile"><a href="/p/boot-${n}"><img src="/i/${n}.jpg" alt=""><span>Trail boot ${n}</span></a><span>$1${n}9.00</span>` +
      `<div class="x7"><div class="star-rating">(${n}32) ${n}32 reviews with an average rating of 4.${n} out of 5 stars</div></div></li>`;
    const md = await markdownOf(
      `<main><h1>Hiking boots</h1><p>Boots for every trail, from day hikes to long treks.</p><ul class="grid">${[1, 2, 3, 4, 5, 6].map(card).join('')}</ul></main>`,
      { onlyMainContent: true, url: 'https://example.com/c/hiking-boots' },
      '<meta property="og:type" content="product.group">',
    );
    expect(md).toContain('Trail boot 3');
    expect(md).toContain('$139.00');
    expect(md).not.toContain('average rating');
  });

  it("drops a bar of the site's own links (help, careers, privacy) however it is marked, not a list of stories", async () => {
    const story = (n: number) => `<div class="x${n}"><h2><a href="/story-${n}">A story about scaling system number ${n}</a></h2><h3>By Author ${n}</h3></div>`;
    const footer = ['Help', 'Status', 'About', 'Careers', 'Press', 'Privacy', 'Terms', 'Text to speech']
      .map((label) => `<a href="/${label.toLowerCase()}"><p>${label}</p></a>`)
      .join('');
    const md = await markdownOf(`<div class="a"><h1>Tech Blog</h1>${[1, 2, 3, 4, 5].map(story).join('')}</div><div class="f"><div class="g">${footer}</div></div>`, {
      onlyMainContent: true,
      url: 'https://blog.example.com/',
    });
    expect(md).toContain('A story about scaling system number 3');
    expect(md).not.toContain('Careers');
    expect(md).not.toContain('Text to speech');
  });

  it('keeps a paragraph of prose in a box named as a header, and still drops the site header', async () => {
    const md = await markdownOf(
      '<div id="header-outer"><a href="/">Training</a><a href="/catalog">Catalog</a><p>Free shipping on every course this month only</p></div>' +
        `<div class="pdp-header-text"><p>This free course introduces developers to the key concepts of open source. ${PROSE}</p></div>` +
        `<div class="pdp-body"><h2>Course outline</h2><p>${PROSE}</p><p>${PROSE}</p><p>${PROSE}</p><p>${PROSE}</p></div>`,
      { onlyMainContent: true, url: 'https://example.com/training/open-source-guide/' },
      '<script type="application/ld+json">{"@type":"Product","name":"Open source guide"}</script>',
    );
    expect(md).toContain('This free course introduces developers');
    expect(md).toContain('Course outline');
    expect(md).not.toContain('Free shipping on every course');
  });

  it('drops a row of promoted items after a product page\'s "Similar Items" heading, however wordy each item is', async () => {
    const item = (n: number) =>
      `<div class="uV_m"><section class="TzR"><h3>Clutch kit ${n}00 for delivery vans</h3><span>$${n}79.05</span></section>` +
      `<div class="w1"><p>Why you are seeing this ad: the advertiser paid to promote this item to buyers like you. ${PROSE}</p></div></div>`;
    const md = await markdownOf(
      '<main><h1>Clutch kit 628318200</h1><p>EUR 355.58</p><p>Seller assumes all responsibility for this listing.</p>' +
        `<div class="uKy2"><div class="T6eO"><h2>Similar Items</h2><p>Sponsored: items chosen for you from sellers who pay to promote them</p></div><div class="MHN">${[1, 2, 3, 4].map(item).join('')}</div></div></main>`,
      { onlyMainContent: true, url: 'https://example.com/itm/404928375058' },
      '<script type="application/ld+json">{"@type":"Product","name":"Clutch kit 628318200"}</script>',
    );
    expect(md).toContain('EUR 355.58');
    expect(md).not.toContain('Similar Items');
    expect(md).not.toContain('Clutch kit 300');
    expect(md).not.toContain('Why you are seeing this ad');
  });

  it("keeps a product's details set in a drawer named for them, and drops other drawers", async () => {
    const md = await markdownOf(
      `<main><h1>KALLAX shelf unit</h1><p>Standing or lying, the series adapts to taste, space and budget.</p><div class="body">${PROSE} ${PROSE}</div>` +
        '<div class="pipf-product-details-modal"><h2>Product details</h2><p>The simple design with clean lines makes it flexible and easy to use at home.</p></div>' +
        '<div class="pipf-share-modal"><h2>Share this product</h2><p>Copy the link and send it to a friend today.</p></div></main>',
      { onlyMainContent: true, url: 'https://example.com/us/en/p/kallax-shelf-unit-80275887/' },
      '<script type="application/ld+json">{"@type":"Product","name":"KALLAX"}</script>',
    );
    expect(md).toContain('The simple design with clean lines');
    expect(md).not.toContain('Copy the link');
  });

  it("drops a layer over the whole viewport by Tailwind's classes (fixed inset-0), without its stylesheet", async () => {
    const md = await markdownOf(
      `<main><h1>Wool Runner</h1><p>${PROSE}</p><p>${PROSE}</p>` +
        '<div class="z-takeover fixed inset-0"><div class="flex"><h3>Notify me when back in stock</h3><p>Once limited colors sell out, they are gone for good.</p>' +
        "<h3>It's official</h3><p>We got your info, and we are rooting for you.</p></div></div>" +
        '<div class="fixed bottom-0"><p>Free shipping on orders over $75, every day of the year.</p></div></main>',
      { onlyMainContent: true, url: 'https://example.com/products/wool-runners' },
      '<script type="application/ld+json">{"@type":"Product","name":"Wool Runner"}</script>',
    );
    expect(md).toContain('# Wool Runner');
    expect(md).not.toContain('Notify me when back in stock');
    expect(md).not.toContain("It's official");
    // Fixed but not over the whole viewport: a bar, which this rule leaves alone.
    expect(md).toContain('Free shipping on orders over $75');
    // An app that scrolls its whole page in such a layer keeps it.
    const app = await markdownOf(`<div class="fixed inset-0 overflow-y-auto"><h2>Release notes</h2><p>${PROSE}</p><p>${PROSE} Second part.</p></div>`, {
      onlyMainContent: true,
    });
    expect(app).toContain('Second part.');
  });

  it('reads a short paragraph of the widget words as its label, not a sentence that starts with them', async () => {
    const card = (name: string) => `<div class="c"><a href="/p/${name}"><p>${name}</p></a><p>Sale price $19.95</p></div>`;
    const md = await markdownOf(
      `<article><h1>Pro Tech Toolkit</h1><p>${PROSE}</p><p>${PROSE}</p>` +
        `<div class="w"><p class="chakra-text">Frequently Bought Together</p><div class="g">${card('Magnetic Project Mat')}${card('Anti-Clamp')}</div></div>` +
        `<p>Frequently bought together with a driver kit, this toolkit covers most repairs. ${PROSE}</p></article>`,
      { onlyMainContent: true },
    );
    expect(md).not.toContain('Frequently Bought Together');
    expect(md).not.toContain('Magnetic Project Mat');
    expect(md).toContain('Frequently bought together with a driver kit');
  });

  it('drops "Related articles" and "Similar threads" widgets by their heading or a label in a div, whatever their classes', async () => {
    const teaser = (title: string) => `<div class="x1"><img src="/t.png" alt=""><h3>${title}</h3><p>Here, we list the best programs for students like you.</p></div>`;
    const md = await markdownOf(
      `<div class="a9"><h1>Online MBA programs</h1><p>${PROSE}</p><p>${PROSE}</p>` +
        `<div class="b2"><h2>Related articles that may interest you</h2>${teaser('Getting in with a low GPA')}${teaser('MBA or MS?')}</div>` +
        `<div class="b3"><h3>Similar threads</h3><ul><li><a href="/t/1">Is an MBA worth it?</a></li><li><a href="/t/2">GMAT prep</a></li></ul></div>` +
        `<div class="q-box"><div class="q-text">Related questions</div><div class="q-a">Which MBA pays most? The alumni of twelve schools answer, with their salaries.</div></div></div>`,
      { onlyMainContent: true },
    );
    expect(md).not.toContain('Related questions');
    expect(md).not.toContain('Which MBA pays most?');
    expect(md).toContain('Online MBA programs');
    expect(md).not.toContain('Getting in with a low GPA');
    expect(md).not.toContain('Similar threads');
  });

  it("takes the main landmark over a site footer of legal footnotes that outweighs its cards", async () => {
    const card = (n: number) => `<div class="card"><a href="/shop/buy-laptop-${n}"><h3>Laptop ${n}</h3></a><p>From $${n}99 or $${n}9.91/mo. for 12 mo.</p></div>`;
    const footnote = (n: number) => `<li><span>${n}. Financing is offered to qualified customers, subject to credit approval. ${PROSE}</span></li>`;
    const md = await markdownOf(
      '<header><nav><a href="/">Store</a><a href="/mac">Mac</a></nav></header>' +
        `<div class="step" role="main"><h2>All models. Take your pick.</h2>${[1, 2, 3, 4, 5].map(card).join('')}</div>` +
        `<footer><div class="footnotes"><ul>${[1, 2, 3, 4, 5, 6].map(footnote).join('')}</ul></div><p>Copyright © 2026 Example Inc.</p></footer>`,
      { onlyMainContent: true, url: 'https://example.com/shop/buy-laptop' },
    );
    expect(md).toContain('All models. Take your pick.');
    expect(md).toContain('From $399 or $39.91/mo.');
    expect(md).not.toContain('Financing is offered');
  });

  it('keeps the headlines, bylines and dates of a page that is a list of teasers', async () => {
    const teaser = (n: number) =>
      `<div class="post-block"><div class="post-block--title"><a href="/news/story-${n}">Story number ${n} about streaming prices</a></div>` +
      `<div class="post-block--author-area"><a href="/author/logan">By Logan Jones</a> Dec ${n}, 2025</div>` +
      `<p>Summary ${n}: we looked at what households pay for television each month and where the money goes.</p></div>`;
    const md = await markdownOf(
      '<header><nav><a href="/">Home</a><a href="/news">News</a></nav></header>' +
        `<div id="content"><div class="row"><div class="column"><h1>Latest news</h1><div class="posts">${[1, 2, 3, 4, 5, 6].map(teaser).join('')}</div></div></div></div>` +
        '<footer><p>Copyright 2026</p></footer>',
      { onlyMainContent: true, url: 'https://example.com/news' },
    );
    expect(md).toContain('Summary 3: we looked at');
    expect(md).toContain('[Story number 3 about streaming prices](https://example.com/news/story-3)');
    expect(md).toContain('Dec 3, 2025');
  });

  it('keeps the badge a tooltip opens from, but not the tooltip', async () => {
    const field = (name: string) =>
      `<li><h4><div><code>${name}</code></div><div><span><span class="tooltip-trigger">Expandable</span></span></div></h4>` +
      `<p>The ${name} of the charge. ${PROSE}</p><div class="tooltip">This field can be expanded into an object with the expand parameter.</div></li>`;
    const md = await markdownOf(`<main><h1>The Charge object</h1><p>${PROSE}</p><ul>${['customer', 'invoice', 'review'].map(field).join('')}</ul></main>`, {
      onlyMainContent: true,
      url: 'https://example.com/api/charges/object',
    });
    expect(md).toContain('The invoice of the charge.');
    expect(md).toMatch(/#### `invoice`\s+Expandable/);
    expect(md).not.toContain('can be expanded into an object');
  });

  it('keeps the header and footer of a card or section (by class or id), but not the page footer', async () => {
    const card = (n: number) =>
      `<div class="CustomerCard-sc-e2c04df0-6"><p>We moved our workloads and saved money, quote number ${n}.</p>` +
      `<div class="CustomerCardFooter-sc-e2c04df0-8"><span>Person ${n}</span><span>CTO, Company ${n}</span></div></div>`;
    const md = await markdownOf(
      `<div class="top-nav"><a href="/a">Products</a> <a href="/b">Pricing</a> <a href="/c">Docs</a></div>` +
        `<section><div class="section-header"><h2>Customers growing with us</h2><p>See how developers and startups scale.</p></div>` +
        `${[1, 2, 3].map(card).join('')}</section><section><h2>Why us</h2><p>${PROSE}</p></section>` +
        '<div id="gameHeaderCtn" class="game_header_ctn"><p>A survival game where everything wants you to die.</p></div>' +
        '<div class="site-footer"><p>Copyright 2025 Example Inc.</p><a href="/terms">Terms</a></div>',
      { onlyMainContent: true, url: 'https://example.com/' },
    );
    expect(md).toContain('Customers growing with us');
    // Named in its id too, and with a wrapper word after "header".
    expect(md).toContain('everything wants you to die');
    expect(md).toContain('See how developers and startups scale.');
    expect(md).toContain('CTO, Company 2');
    expect(md).not.toContain('Copyright');
  });

  it("keeps a docs page's header holding its title and lead, not a site header with a logo headline", async () => {
    const lead = 'The Fetch API provides a JavaScript interface for making HTTP requests and processing the responses, ';
    const md = await markdownOf(
      '<header class="site-header"><h1><a href="/">DevDocs</a></h1><nav><a href="/a">Guides</a> <a href="/b">Reference</a></nav>' +
        '<p>Resources for developers, by developers.</p></header>' +
        '<main><div class="layout__header"><h1>Using the Fetch API</h1>' +
        `<section><p>${lead.repeat(2)}</p><p>${lead}in service workers and pages alike.</p><p>Fetch is promise-based, unlike the callbacks of the old interface.</p></section></div>` +
        `<div class="layout__body"><h2>Making a request</h2><p>${PROSE}</p><p>${PROSE} Then read the body.</p><h2>Handling the response</h2>` +
        `<p>${PROSE} Check the status first.</p><p>${PROSE}</p><p>${PROSE} Streams end.</p><p>${PROSE}</p><p>${PROSE}</p></div></main>`,
      { onlyMainContent: true, url: 'https://example.com/docs/Web/API/Fetch_API/Using_Fetch' },
    );
    expect(md).toContain('# Using the Fetch API');
    expect(md).toContain('in service workers and pages alike.');
    expect(md).toContain('Check the status first.');
    expect(md).not.toContain('Resources for developers');
  });

  it("reads a section's id made from its heading as words of the text, not as a name", async () => {
    const md = await markdownOf(
      '<div class="body"><h1>Submitting patches</h1>' +
        `<section id="obtain-a-current-source-tree"><h2>Obtain a current source tree</h2><p>${PROSE} Clone the tree first.</p></section>` +
        `<section id="describe-your-changes"><h2>Describe your changes</h2><p>${PROSE}</p><p>${PROSE}</p><p>${PROSE}</p></section>` +
        `<section id="respond-to-review-comments"><span id="review"></span><h2>Respond to review comments</h2><p>${PROSE} Answer every reviewer.</p></section>` +
        `<div id="comments"><h3>Comments</h3><p>${PROSE} Great guide, thanks!</p></div></div>`,
      { onlyMainContent: true, url: 'https://example.com/doc/html/latest/process/submitting-patches.html' },
    );
    expect(md).toContain('Clone the tree first.');
    // Past an empty anchor Sphinx keeps for an old link.
    expect(md).toContain('Answer every reviewer.');
    // A one-word id is a name the page gave.
    expect(md).not.toContain('Great guide');
  });

  it('keeps a feature box inside the main area given the banner role, not the site banner', async () => {
    const md = await markdownOf(
      '<div role="banner"><a href="/">Nomad</a> <a href="/cases">Cases</a> <span>Free shipping over 75 EUR</span></div>' +
        `<main><h1>Modern Leather Case</h1><p>${PROSE}</p>` +
        '<section><div class="content" role="banner"><h2>Drop Protection</h2><p>Keeps your device safe from unexpected tumbles with a raised bumper.</p></div></section>' +
        `<p>${PROSE} Made in Portugal.</p></main>`,
      { onlyMainContent: true, url: 'https://example.com/products/modern-leather-case' },
      '<script type="application/ld+json">{"@type":"Product","name":"Modern Leather Case"}</script>',
    );
    expect(md).toContain('unexpected tumbles');
    expect(md).toContain('Made in Portugal.');
    expect(md).not.toContain('Free shipping over');
  });

  it('keeps quotes, code and tables in an article body whatever their class, not a byline', async () => {
    const md = await markdownOf(
      `<article><h1>Zero to QED</h1><p class="meta byline">By Stephen Diehl</p><p>${PROSE}</p>` +
        '<blockquote class="blockquote-tag blockquote-tag-tip"><p>Tip: run the checker after every step.</p></blockquote>' +
        `<p>${PROSE} Proofs are programs.</p><pre class="source"><code>theorem two_eq : 1 + 1 = 2 := rfl</code></pre>` +
        `<table class="meta"><tr><th>Tactic</th><th>Use</th></tr><tr><td>simp</td><td>rewrite with lemmas</td></tr></table><p>${PROSE}</p></article>`,
      { onlyMainContent: true },
    );
    expect(md).toContain('> Tip: run the checker after every step.');
    expect(md).toContain('theorem two_eq');
    expect(md).toContain('| simp | rewrite with lemmas |');
    expect(md).not.toContain('By Stephen Diehl');
  });

  it('keeps section headers with a lead and a buy box holding the h1, whatever chrome name they have', async () => {
    const md = await markdownOf(
      '<div class="sidebar-nav"><h2>Menu</h2><a href="/a">Issues</a> <a href="/b">Projects</a></div><main>' +
        '<section><div class="PageSection_header__3JdVh"><h2>Make product operations self-driving</h2>' +
        '<p>Turn conversations and customer feedback into actionable issues that are routed, labeled and prioritized.</p></div>' +
        `<div class="grid"><p>${PROSE} Triage is automatic.</p></div></section>` +
        '<section><div class="PageSection_header__3JdVh"><h2>Define the product direction</h2>' +
        '<p>Plan and navigate from idea to launch. Align your team with product initiatives and roadmaps, and keep them current./p></div>' +
        `<div class="grid"><p>${PROSE} Roadmaps show every project.</p></div></section></main>`,
      { onlyMainContent: true, url: 'https://example.com/' },
    );
    expect(md).toContain('routed, labeled and prioritized');
    expect(md).toContain('initiatives and roadmaps');
    expect(md).not.toContain('Projects');
    const product = await markdownOf(
      '<main><div class="gallery"><img src="/a.jpg" alt="Lantern"></div>' +
        '<div id="right_block" class="sidebar"><h1>Indoor and outdoor flame diffuser</h1><p>79,00 €</p>' +
        '<p>A compact lantern that diffuses essential oils, with a flame effect that is safe to leave on the terrace or in the living room.</p></div>' +
        `<div class="details"><h2>Details</h2><p>${PROSE}</p></div></main>`,
      { onlyMainContent: true, url: 'https://example.com/gifts/5134-diffuser.html' },
      '<meta property="og:type" content="product">',
    );
    expect(product).toContain('# Indoor and outdoor flame diffuser');
    expect(product).toContain('safe to leave on the terrace');
  });

  it("keeps a section's header whose heading links to the section's own page", async () => {
    const section = (slug: string, title: string, text: string) =>
      `<section class="api-section"><div class="ApiSectionHeader"><h1><a href="/api/charges/${slug}">${title}</a></h1><span>Deprecated</span></div>` +
      `<div class="ApiSection"><p>${text} ${PROSE}</p><p>${PROSE}</p></div></section>`;
    const md = await markdownOf(
      `<main>${section('object', 'The Charge object', 'A Charge is one attempt to move money.')}${section('create', 'Create a charge', 'Charges a payment source.')}</main>`,
      { onlyMainContent: true, url: 'https://example.com/api/charges' },
    );
    expect(md).toContain('# [The Charge object](https://example.com/api/charges/object)');
    expect(md).toContain('# [Create a charge](https://example.com/api/charges/create)');
    expect(md).toContain('Charges a payment source.');
  });

  it('reads ids as attributes: a form whose control is named "id" does not break the extraction', async () => {
    const md = await markdownOf(
      `<main><h1>Order lookup</h1><p>${PROSE}</p>` +
        '<form class="card-header" id="lookup"><input name="id" value="7"><a href="/a">Orders</a> <a href="/b">Returns</a></form>' +
        `<section id="how-to-find-your-order"><h2>How to find your order</h2><form><input name="id"></form><p>${PROSE} Check your email.</p></section></main>`,
      { onlyMainContent: true },
    );
    expect(md).toContain('Check your email.');
  });

  it('drops a consent dialog that outweighs a page of link cards', async () => {
    const card = (n: number) => `<li><a href="/recipes/${n}">Weeknight dinner recipe number ${n} with vegetables</a></li>`;
    const consent =
      '<div id="consent-sdk"><div role="dialog" aria-modal="true" aria-label="Your privacy"><h2>We care about your privacy</h2>' +
      `<p>We and our partners store and access information on your device. ${PROSE}</p><button>Accept</button></div></div>`;
    const md = await markdownOf(`<div><h1>Dinner recipes</h1><p>Quick ideas.</p><ul>${[1, 2, 3, 4, 5, 6, 7, 8].map(card).join('')}</ul></div>${consent}`, {
      onlyMainContent: true,
      url: 'https://example.com/recipes/dinner/',
    });
    expect(md).toContain('Weeknight dinner recipe number 4');
    expect(md).not.toContain('We care about your privacy');
  });

  it('drops a cookie notice and a sign-in prompt whatever they are named, not a paragraph about cookies', async () => {
    const md = await markdownOf(
      `<main><h1>Clearing your browser</h1><p>${PROSE}</p>` +
        '<p>We recommend that you clear your cookies in the browser settings before you accept the new terms.</p>' +
        '<div class="x1"><div class="x2">Sign in to add this item to your wishlist.</div></div>' +
        `<p>${PROSE} Restart the browser afterwards.</p>` +
        '<div class="b1"><div class="b2">Open in Desktop App</div><div class="b3"><b>You\'re not signed in!</b><br>Open this page in the app to follow it.</div></div>' +
        '<div class="q1" role="alert">This site uses cookies from Google to deliver its services. By using this site, you agree to its use of cookies. <a href="/ok">OK</a></div></main>',
      { onlyMainContent: true },
    );
    expect(md).toContain('clear your cookies in the browser settings');
    expect(md).toContain('Restart the browser afterwards.');
    expect(md).not.toContain('Sign in to add');
    // The prompt may follow a label in the same box.
    expect(md).not.toContain('not signed in');
    expect(md).not.toContain('This site uses cookies');
  });

  it('drops a sign-up box named as chrome even when the page holds little else', async () => {
    const md = await markdownOf(
      '<div class="collection"><h1>Down jackets</h1><p>No products found in this collection, try again soon.</p></div>' +
        `<div class="footer-block"><h2>Subscribe</h2><p>Trade-in offers, repair tips and stories. ${PROSE}</p><input type="email"></div>`,
      { onlyMainContent: true, url: 'https://example.com/collections/down-jackets' },
    );
    expect(md).toContain('No products found');
    expect(md).not.toContain('Trade-in offers');
  });

  it('reads a block set twice for desktop and mobile once, and keeps a mobile-marked block that has no twin', async () => {
    const slide = (text: string) => `<div class="slide-text"><h2>${text}</h2><p>Increasing attendance of a space museum in a small town.</p></div>`;
    const md = await markdownOf(
      `<main><section class="scroll-slide desktop">${slide('Universal Appeal')}</section><section class="scroll-slide mobile">${slide('Universal Appeal')}</section>` +
        `<div class="md:hidden"><p>Call us on the number below, from your phone.</p></div><p>${PROSE}</p></main>`,
    );
    expect(md.match(/Universal Appeal/g)).toHaveLength(1);
    expect(md.match(/space museum/g)).toHaveLength(1);
    expect(md).toContain('Call us on the number below');
  });

  it('writes a heading repeated right after itself once, and keeps repeated paragraphs', async () => {
    const md = await markdownOf(
      '<main><h1>Platform</h1><div class="card"><h3>Falcon Insight</h3><video src="/v.mp4"></video></div><div class="card"><h3>Falcon Insight</h3><p>Stops breaches on every endpoint.</p></div>' +
        '<table><tr><td><p>Included</p></td></tr><tr><td><p>Included</p></td></tr></table></main>',
    );
    expect(md.match(/### Falcon Insight/g)).toHaveLength(1);
    expect(md).toContain('Stops breaches on every endpoint.');
    expect(md.match(/Included/g)).toHaveLength(2);
  });

  it('takes a page stacked of sections whole rather than narrowing to its longest section', async () => {
    let n = 0;
    const section = (heading: string, body: string) => `<div class="wp-block-group is-style-${++n}"><div class="inner"><h2>${heading}</h2>${body}</div></div>`;
    const long = [1, 2, 3, 4, 5].map((n) => `<h3>Step ${n}</h3><p>${PROSE}</p>`).join('');
    const md = await markdownOf(
      '<header><nav><a href="/">Home</a> <a href="/about">About us and our team</a></nav></header><main><div class="layout"><div class="wrap">' +
        section('Turn raw data into dashboards in weeks', '<p>We are a data analytics agency that helps your team get more value out of its data, with strategies built for your business.</p>') +
        section('Meaningful data, insight-driven decisions', long) +
        section('Our process', '<ol><li>Review the requirements of the business and its goals.</li><li>Design the warehouse that supports the analytics needed.</li></ol>') +
        '</div></div></main>',
      { onlyMainContent: true, url: 'https://example.com/service/data-analytics-agency/' },
    );
    expect(md).toContain('Step 5');
    expect(md).toContain('Turn raw data into dashboards');
    expect(md).toContain('Design the warehouse');
  });

  it('drops a tree of links to other pages set in the content (a menu), and keeps a table of contents', async () => {
    const branch = (name: string) => `<li><a href="/services/${name}">${name}</a><ul>${[1, 2, 3, 4, 5].map((n) => `<li><a href="/services/${name}/${n}">${name} ${n}</a></li>`).join('')}</ul></li>`;
    const toc = `<ul>${[1, 2, 3, 4].map((n) => `<li><a href="#part-${n}">Part ${n}</a><ul>${[1, 2, 3, 4, 5].map((m) => `<li><a href="#part-${n}-${m}">Part ${n}.${m}</a></li>`).join('')}</ul></li>`).join('')}</ul>`;
    const md = await markdownOf(
      `<main><h1>HR consulting</h1><p>${PROSE}</p><div class="hero-select"><ul>${['audit', 'payroll', 'tax', 'hr'].map(branch).join('')}</ul></div>` +
        `<div class="toc">${toc}</div><p>${PROSE}</p></main>`,
      { onlyMainContent: true },
    );
    expect(md).toContain('HR consulting');
    expect(md).not.toContain('payroll 3');
    expect(md).toContain('Part 2.3');
  });

  it('keeps the emphasised words of a link inside a list item of an article body', async () => {
    const item = (name: string) => `<li><a href="/ml/${name}"><b><strong>${name} learning</strong></b></a><span>: trains a model on data of the ${name} kind.</span></li>`;
    const md = await markdownOf(
      `<article><h1>Machine learning</h1><p>${PROSE}</p><ul>${['Supervised', 'Unsupervised', 'Reinforcement'].map(item).join('')}</ul><p>${PROSE}</p></article>`,
      { onlyMainContent: true },
    );
    expect(md).toContain('- [**Supervised learning**](https://example.com/ml/Supervised): trains a model');
  });

  it("drops a shop's promo bar as chrome, and keeps a promotion's own section", async () => {
    const slides = ['$40', '65€', '480kr', '¥990']
      .map((price) => `<span class="promo-bar__text"><p>Free standard shipping on orders ${price} or more. For more information on rates and timelines, please visit our <a href="/pages/international">international page</a></p></span>`)
      .join('');
    const md = await markdownOf(
      `<div id="promoBar" class="promo-bar"><div class="promo-bar__carousel">${slides}</div></div>` +
        `<div class="page"><h1>Custom Skincare Sets Promo Terms</h1><p>${PROSE}</p>` +
        `<section class="promotion-details"><h2>Who can take part</h2><p>Customers in the EU who order a set before May.</p></section></div>`,
      { onlyMainContent: true },
    );
    expect(md).toContain('Custom Skincare Sets Promo Terms');
    expect(md).toContain('Who can take part');
    expect(md).not.toContain('Free standard shipping');
  });

  it('decodes HTML character references in a structured-data product description', async () => {
    const description = 'L&#039;outil idéal &amp; robuste : ' + 'une lame forgée qui coupe le bois sec comme le bois vert, '.repeat(5);
    const md = await markdownOf(
      '<main><h1>Hachette</h1><p>29,00 €</p></main>',
      { onlyMainContent: true, url: 'https://example.com/product/hachette/' },
      `<script type="application/ld+json">{"@type":"Product","name":"Hachette","description":"${description}"}</script>`,
    );
    expect(md).toContain("L'outil idéal & robuste");
    expect(md).not.toContain('&#039;');
    // A page that enforces Trusted Types refuses HTML strings in DOM sinks; decoding needs none.
    const trusted = await markdownOf(
      '<main><h1>Hachette</h1><p>29,00 €</p></main>',
      { onlyMainContent: true, url: 'https://example.com/product/hachette/' },
      `<meta http-equiv="Content-Security-Policy" content="require-trusted-types-for 'script'">` +
        `<script type="application/ld+json">{"@type":"Product","name":"Hachette","description":"${description} &#x1F332; &lt;b&gt;bold&lt;/b&gt;"}</script>`,
    );
    expect(trusted).toContain("L'outil idéal & robuste");
    expect(trusted).toContain('🌲');
    // Escaped markup is markup once decoded, and goes with the other tags.
    expect(trusted).not.toMatch(/&lt;|<b>/);
  });

  it('adds a structured-data product description of 40 words or more, not a shorter tagline', async () => {
    const productPage = (description: string) =>
      markdownOf(
        '<main><h1>Trail pack</h1><p>89,00 €</p></main>',
        { onlyMainContent: true, url: 'https://example.com/product/trail-pack/' },
        `<script type="application/ld+json">{"@type":"Product","name":"Trail pack","description":"${description}"}</script>`,
      );
    // Twelve words, well over 40 characters: a tagline, not a description the page failed to show.
    const tagline = await productPage('A light pack for long days on the trail, with room for lunch.');
    expect(tagline).not.toContain('long days on the trail');
    const full = await productPage('A light pack for long days on the trail. '.repeat(5));
    expect(full).toContain('A light pack for long days on the trail.');
  });

  it("takes a product group's description, not a variant's that repeats it behind the variant's name", async () => {
    const description = 'Keep your gear within easy reach in this light pack for long days on the trail. '.repeat(4).trim();
    const group = {
      '@type': 'ProductGroup',
      name: 'Trail 25 Pack',
      description,
      hasVariant: [{ '@type': 'Product', name: 'Trail 25 Pack - Golden Sulphur - XXL', description: `Trail 25 Pack - Golden Sulphur - XXL : ${description}` }],
    };
    const md = await markdownOf(
      `<main><h1>Trail 25 Pack</h1><p>$99.95</p></main>`,
      { onlyMainContent: true, url: 'https://example.com/product/trail-25-pack/' },
      `<script type="application/ld+json">${JSON.stringify(group)}</script>`,
    );
    expect(md).toContain('Keep your gear within easy reach');
    expect(md).not.toContain('Golden Sulphur');
  });

  it('rejects a selector the browser cannot parse with InvalidSelector', async () => {
    const error = await markdownOf(page, { excludeTags: ['p', 'div[[x'] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidSelector);
    expect((error as InvalidSelector).selector).toBe('div[[x');
  });
});

describe('metadata', () => {
  it('reads title, description, language and counts words', async () => {
    const html =
      '<!doctype html><html lang="en_us"><head><title> The  page </title>' +
      '<meta name="description" content="What it is about"></head><body><main><p>one two three, four-five</p></main></body></html>';
    const page = await pageWith(browser(), html);
    try {
      const result = await extractMarkdown(page, { url: URL_ });
      expect(result).toEqual({
        markdown: 'one two three, four-five',
        title: 'The page',
        description: 'What it is about',
        language: 'en-US',
        wordCount: 5,
      });
    } finally {
      await page.close();
    }
  });

  it('falls back to og: metadata and leaves an unknown language empty', async () => {
    const html =
      '<html><head><meta property="og:title" content="OG title"><meta property="og:description" content="OG text">' +
      '</head><body><p>x</p></body></html>';
    const page = await pageWith(browser(), html);
    try {
      const result = await extractMarkdown(page, { url: URL_ });
      expect([result.title, result.description, result.language]).toEqual(['OG title', 'OG text', '']);
    } finally {
      await page.close();
    }
  });
});
