import { describe, expect, it } from 'vitest';
import { extractMarkdown } from '../../src/extract/extract.js';
import { chromiumForFile, PROSE } from './chromium.js';

/** The furniture of cards, widgets and comment forms that the later rounds of extraction work drop or keep. */

const PRODUCT_HEAD = '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"KALLAX shelf unit"}</script>';

const { browser, markdownOf } = chromiumForFile({ onlyMainContent: true });

describe('card furniture', () => {
  it("drops a button said in every card ('Read case study'), and keeps lines that differ from card to card", async () => {
    const sectors = ['Finance', 'Finance', 'Finance', 'Retail'];
    const card = (n: number) =>
      `<div class="card"><a class="card-link" href="/work/${n}"><h3>Rebuilding the billing platform of client ${n}</h3>` +
      `<p>How a team of four moved a decade of invoices to a new ledger in ${n + 2} months without downtime.</p>` +
      `<div class="sector">${sectors[n]}</div><div class="label">Read case study</div></a></div>`;
    const md = await markdownOf(`<main><h1>Case studies</h1><div class="grid">${[0, 1, 2, 3].map(card).join('')}</div></main>`, {
      url: 'https://example.com/case-studies/',
    });
    expect(md).toContain('Rebuilding the billing platform of client 3');
    expect(md).not.toContain('Read case study');
    // Three cards in four name the same sector: a line of each card's own, not a button.
    expect(md).toContain('Retail');
    expect(md.match(/Finance/g)).toHaveLength(3);
  });

  it('keeps a page of linked results rather than the short notice above them', async () => {
    const results = Array.from({ length: 24 }, (_, n) => `<li><a href="/listing/${n}"><h3>Handmade leather wallet, slim bifold number ${n}</h3><span>Workshop ${n}</span></a></li>`);
    const md = await markdownOf(
      `<main><div class="notice"><p>${PROSE}</p></div><div class="results"><ul>${results.join('')}</ul></div></main>`,
      { url: 'https://example.com/market/handmade_wallet' },
    );
    expect(md).toContain('Handmade leather wallet, slim bifold number 17');
    expect(md).toContain('Lorem ipsum');
  });

  it("keeps cards and an article whose class says a state ('subscription-eligible', 'ad-free'), and drops a box the word names", async () => {
    const card = (n: number) =>
      `<li class="grid__item"><div class="card-wrapper product-card-wrapper${n % 3 === 0 ? '' : ' subscription-eligible'}">` +
      `<h3 class="card__heading"><a href="/products/roast-${n}">Dark roast coffee number ${n}</a></h3><span class="price">$1${n}.99</span></div></li>`;
    const collection = await markdownOf(
      `<main><h1>Coffee</h1><ul class="product-grid">${[1, 2, 3, 4, 5, 6].map(card).join('')}</ul>` +
        `<div class="subscription-box"><p>Subscribe and save 30% on every bag.</p></div></main>`,
      { url: 'https://example.com/collections/coffee' },
    );
    expect(collection).toContain('Dark roast coffee number 1');
    expect(collection).toContain('Dark roast coffee number 5');
    expect(collection).not.toContain('Subscribe and save');

    // "ad-free" tells an ad script to insert nothing in that box (a figure, a table) of the text.
    const article = await markdownOf(
      `<main><h1>A quiet street</h1><p>${PROSE}</p><div class="figure ad-free"><p>The bench on the corner was painted in May.</p></div><p>${PROSE}</p></main>`,
    );
    expect(article).toContain('painted in May');
  });
});

/** Two paragraphs of an article, and readers' comments under it that outweigh it. */
const TRAILS =
  '<p>The first trail starts behind the old mill and climbs through beech woods for two hours before it opens onto a ridge with a view of the whole valley, the river and the three villages along it.</p>' +
  '<p>The second trail is flat and follows the canal towpath past eleven locks; it suits a family with small children, and there is a café at the ninth lock that opens at weekends from May.</p>';
const READERS_COMMENTS = `<section class="comments"><h3>Readers</h3>${[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `<div class="c"><b>Reader ${n}</b><p>${PROSE} ${n}</p></div>`).join('')}</section>`;

describe('ads and widgets', () => {
  it("drops the cards of other products marked 'Sponsored' on a product page, and a lone 'Advertisement' label elsewhere", async () => {
    const ad = (n: number) => `<div class="tile"><img src="/lamp-${n}.jpg" alt=""><p>Brass floor lamp ${n}</p><p>$${n}9.00</p><span>Sponsored</span></div>`;
    const product = await markdownOf(
      `<main><h1>KALLAX shelf unit</h1><p>${PROSE}</p><div class="row">${[1, 2, 3].map(ad).join('')}</div><p>Assembly takes about an hour with two people.</p></main>`,
      { url: 'https://example.com/p/kallax-shelf-unit-80275887/' },
      PRODUCT_HEAD,
    );
    expect(product).toContain('Assembly takes about an hour');
    expect(product).not.toContain('Sponsored');
    expect(product).not.toContain('Brass floor lamp');

    const article = await markdownOf(
      `<article><h1>A quiet street</h1><p>${PROSE}</p><div class="slot"><div>Advertisement</div></div><p>The sponsored bench on the corner was painted in May.</p><p>${PROSE}</p></article>`,
    );
    expect(article).not.toContain('Advertisement');
    expect(article).toContain('The sponsored bench on the corner');
  });

  it("keeps a sponsored article under its disclosure ('Sponsored content' above the headline, 'Sponsored by Acme' atop the body), with readers' comments outweighing it", async () => {
    const aboveHeadline = await markdownOf(`<main><article><p>Sponsored content</p><h1>Ten quiet trails for a long weekend</h1>${TRAILS}</article>${READERS_COMMENTS}</main>`, {
      url: 'https://example.com/2026/05/ten-quiet-trails',
    });
    expect(aboveHeadline).toContain('The first trail starts behind the old mill');
    expect(aboveHeadline).toContain('the ninth lock');

    const atopBody = await markdownOf(
      `<main><header><h1>Ten quiet trails for a long weekend</h1></header><div class="body"><div class="label">Sponsored by Acme Outdoor</div>${TRAILS}</div>${READERS_COMMENTS}</main>`,
      { url: 'https://example.com/2026/05/ten-quiet-trails' },
    );
    expect(atopBody).toContain('The first trail starts behind the old mill');
    expect(atopBody).toContain('the ninth lock');

    // No paragraphs to read as text: the headline under the label says it is the page.
    const recipe = await markdownOf(
      '<main><article><p>Sponsored content</p><h1>Ten-minute tomato soup</h1><ul><li>Two tins of tomatoes</li><li>One onion</li><li>A pinch of salt</li></ul>' +
        `<ol><li>Soften the onion.</li><li>Add the tomatoes and simmer for five minutes.</li><li>Blend and season.</li></ol></article>${READERS_COMMENTS}</main>`,
      { url: 'https://example.com/recipes/tomato-soup' },
    );
    expect(recipe).toContain('Two tins of tomatoes');
    expect(recipe).toContain('Blend and season.');
  });

  it('keeps an article shown in a box named as a modal (its headline and paragraphs), and drops a sign-up modal beside it', async () => {
    const md = await markdownOf(
      `<main><div class="article-modal"><h1>Ten quiet trails for a long weekend</h1>${TRAILS}</div>` +
        `<div class="newsletter-modal"><h2>Never miss a trail</h2><p>Get our weekly walks in your inbox.</p></div>${READERS_COMMENTS}</main>`,
      { url: 'https://example.com/2026/05/ten-quiet-trails' },
    );
    expect(md).toContain('The first trail starts behind the old mill');
    expect(md).toContain('the ninth lock');
    expect(md).not.toContain('Never miss a trail');
  });

  it("drops widgets headed 'More from', 'Accessories for' and 'Get the look' on a product page", async () => {
    const cards = (name: string) => `<div><p>${name} 2, a handy way to keep small things hidden away and the room tidy, in white or black, from $10.</p></div>`;
    const md = await markdownOf(
      `<main><h1>KALLAX shelf unit</h1><p>${PROSE}</p>` +
        `<section><h2>More from the KALLAX series</h2>${cards('KALLAX insert')}</section>` +
        `<section><h2>Accessories for KALLAX</h2>${cards('DRÖNA box')}</section>` +
        `<section><h2>Get the look</h2>${cards('Rug')}</section><h2>Care instructions</h2><p>Wipe clean with a damp cloth.</p></main>`,
      { url: 'https://example.com/p/kallax-shelf-unit-80275887/' },
      PRODUCT_HEAD,
    );
    expect(md).toContain('Wipe clean with a damp cloth.');
    expect(md).not.toContain('KALLAX insert');
    expect(md).not.toContain('DRÖNA box');
    expect(md).not.toContain('Rug 2');
  });

  it("drops other products under a heading that discloses an ad ('Sponsored by our brands') on a product page, and keeps a sentence that says the words", async () => {
    const tile = (n: number) => `<article class="tile"><a href="/p/${n}"><h3>Faux leather jacket ${n} - black</h3></a><p>€${n}9.95</p><p>Regular price: €${n}9.99 -30%</p></article>`;
    const md = await markdownOf(
      "<main><h1>Bershka faux leather jacket</h1><p>€39.99</p><ul><li>Collar: shirt collar</li><li>Fastening: zip</li></ul><p>The lining is sponsored by our brands' recycling fund.</p>" +
        // Zalando's: the heading deep in wrappers of its own, the tiles in the next box.
        '<div><div><div><h2><div>Sponsored by our brands</div> <div>Recommendations</div></h2><span><button aria-label="How recommendations work"></button></span></div></div>' +
        `<div class="grid">${[1, 2, 3, 4, 5, 6].map(tile).join('')}</div></div>` +
        '<h2>Material and care</h2><p>Outer fabric: 100% polyurethane. Do not tumble dry.</p></main>',
      { url: 'https://example.com/bershka-faux-leather-jacket-black.html' },
      PRODUCT_HEAD,
    );
    expect(md).toContain('Outer fabric: 100% polyurethane.');
    expect(md).toContain("sponsored by our brands' recycling fund");
    expect(md).not.toContain('Recommendations');
    expect(md).not.toContain('Faux leather jacket 3');
  });

  it("drops the content's own share menu ('post-share') inside a forum post, and keeps a long box so named", async () => {
    const post = (n: number, extra = '') =>
      `<article class="post"><div class="post-body"><p>Reply ${n}: ${PROSE}</p>${extra}</div>` +
      `<div class="post-share-menu"><h5>Link to post</h5><a href="/topic/1/?p=${n}">https://example.com/topic/1/?p=${n}</a>` +
      `<h5>Share on other sites</h5><ul><li><a href="https://x.example/share?p=${n}"><i class="icon-x"></i></a></li></ul></div></article>`;
    const longBox = `<div class="post-related"><p>${PROSE} ${PROSE}</p></div>`;
    const md = await markdownOf(`<main><h1>Editing PC build</h1>${post(1)}${post(2, longBox)}${post(3)}</main>`, {
      url: 'https://example.com/topic/1571202-editing-pc-build/',
    });
    expect(md).toContain('Reply 3');
    expect(md).not.toContain('Share on other sites');
    expect(md.match(/Lorem ipsum/g)).toHaveLength(5);
  });
});

describe('threads', () => {
  it("drops a post's vote count and a member's post count with its label, and keeps numbers in a post's table", async () => {
    const post = (votes: string, n: number) =>
      `<div class="post"><div class="votecell"><button>Up</button><div class="js-vote-count">${votes}</div><button>Down</button></div>` +
      `<dl class="user-stats"><dt>Messages</dt><dd>23,243</dd></dl><div class="post-body"><p>Answer ${n}: ${PROSE}</p></div></div>`;
    const md = await markdownOf(
      `<main><h1>What am I missing for a catering set-up?</h1>${post('11', 1)}${post('-3', 2)}` +
        '<div class="post"><div class="post-body"><table><tr><th>Guests</th><th>Trays</th></tr><tr><td>40</td><td>6</td></tr></table></div></div></main>',
      { url: 'https://cooking.example.com/questions/1234/what-am-i-missing' },
    );
    expect(md).toContain('Answer 2:');
    expect(md).not.toMatch(/^(?:11|-3|23,243)$/m);
    // The count's label goes with it.
    expect(md).not.toContain('Messages');
    expect(md).toMatch(/\| 40 \| 6 \|/);
  });

  it("drops a post's like count and its buttons written as text ('7 Likes', 'Quote'), and keeps them in a post's words", async () => {
    const post = (n: number) =>
      `<div class="topic-post"><div class="cooked"><p>Post ${n}: ${PROSE}</p></div>` +
      `<div class="post-menu"><div class="likes"><span>${n + 6} Likes</span></div><div><span>Quote</span></div><div><span>Reply</span></div></div></div>`;
    const md = await markdownOf(
      `<main><h1>Opting in to the MSRV-aware resolver</h1>${[1, 2, 3].map(post).join('')}` +
        '<div class="topic-post"><div class="cooked"><p>Quote</p><p>Reply to the thread above: we had 7 likes in an hour.</p></div></div></main>',
      { url: 'https://forum.example.com/t/opting-in-to-the-msrv-aware-resolver/1069' },
    );
    expect(md).toContain('Post 3:');
    expect(md).not.toMatch(/^(?:\d+ Likes|Reply)$/m);
    expect(md.match(/^Quote$/gm)).toHaveLength(1);
    expect(md).toContain('we had 7 likes in an hour');
  });

  it("drops a locked thread's status with its label, and keeps a post that says the words in a sentence", async () => {
    const md = await markdownOf(
      `<main><h1>Which NAS for a home lab?</h1><dl class="blockStatus"><dt>Status</dt><dd>Not open for further replies.</dd></dl>` +
        `<div class="post"><p>${PROSE}</p></div><div class="post"><p>Mods: this thread has been locked twice now, can we keep it civil? ${PROSE}</p></div></main>`,
      { url: 'https://forum.example.com/threads/which-nas-for-a-home-lab.4312/' },
    );
    expect(md).not.toMatch(/Status|further replies/);
    expect(md).toContain('this thread has been locked twice now');
  });
});

describe('ages and placeholders', () => {
  it("drops a card's or a post's age ('5 hours ago', 'Posted 2 days ago', '3h ago', 'vor 5 Stunden', '5 часов назад'), and keeps an age said in a sentence", async () => {
    const ages = ['5 hours ago', 'Posted 2 days ago', '3h ago', 'about a month ago', 'vor 5 Stunden', 'il y a 2 jours', '5 часов назад'];
    const card = (age: string, n: number) =>
      `<li class="post-card"><h3><a href="/2026/03/0${n + 1}/story-${n}/">Regulators open an inquiry into a merger of two carriers, number ${n}</a></h3>` +
      `<p>The two carriers say the deal would save their customers money; rivals say it would end price competition on ${n + 3} routes.</p>` +
      `<div class="byline"><a href="/author/a-${n}/">Reporter ${n}</a></div><time datetime="2026-03-0${n + 1}">${age}</time></li>`;
    const listing = await markdownOf(`<main><h1>Latest news</h1><ul class="river">${ages.map(card).join('')}</ul></main>`, { url: 'https://news.example.com/' });
    expect(listing).toContain('number 6');
    expect(listing).toContain('competition on 5 routes');
    expect(listing).not.toMatch(/\bago\b|vor 5|il y a|назад/);

    const article = await markdownOf(
      `<main><h1>The bridge at Kew</h1><p>${PROSE}</p><p>The bridge opened 5 years ago.</p><p>5 years ago</p><p>${PROSE}</p></main>`,
    );
    expect(article).toContain('The bridge opened 5 years ago.');
    expect(article.match(/5 years ago/g)).toHaveLength(1);
  });

  it("drops a widget's 'Loading…' left by a script that did not run, and keeps a docs section headed 'Loading'", async () => {
    const article = await markdownOf(
      `<main><h1>Ten years of the night bus</h1><p>${PROSE}</p><div class="widget-body">Loading…</div><p>The route still ends at the depot.</p><div id="poll">Memuat...</div></main>`,
    );
    expect(article).toContain('ends at the depot');
    expect(article).not.toMatch(/Loading|Memuat/);

    const docs = await markdownOf(
      `<main><h1>Data files</h1><p>${PROSE}</p><h2>Loading</h2><p>Call <code>load()</code> with the file's path; it returns a table.</p></main>`,
      { url: 'https://example.com/docs/data-files' },
    );
    expect(docs).toContain('## Loading');
  });
});

describe('member ranks', () => {
  it("drops a member's rank under their name in a thread, and keeps the name", async () => {
    const post = (name: string, rank: string, n: number) =>
      `<article class="message"><div class="message-user"><div class="message-avatar"><a href="/members/${name}.${n}/"><img src="/a/${n}.jpg" alt="${name}"></a></div>` +
      `<div class="message-userDetails"><h4 class="message-name"><a href="/members/${name}.${n}/">${name}</a></h4><h5 class="userTitle message-userTitle">${rank}</h5></div></div>` +
      `<div class="message-body"><p>Post ${n}: ${PROSE}</p></div></article>`;
    const md = await markdownOf(
      `<main><h1>Tips for a first Proxmox install</h1>${post('slow-poke', 'Ultra Member', 1)}${post('Aarknoid', 'Super User', 2)}${post('mickeyf', 'Hall of Famer', 3)}</main>`,
      { url: 'https://forum.example.com/threads/tips-for-a-first-proxmox-install.9981/' },
    );
    expect(md).toContain('Post 3:');
    expect(md).toContain('Aarknoid');
    expect(md).not.toMatch(/Ultra Member|Super User|Hall of Famer/);
  });
});

describe('reading time', () => {
  it("drops an article's reading-time estimate, and keeps a duration that is part of the text", async () => {
    const md = await markdownOf(
      `<article><h1>Top tech conferences of 2026</h1><div class="byline"><span>By Ana Ruiz</span></div><p>Reading Time: 8 minutes</p>` +
        `<div><span>9 min read</span></div><p>${PROSE}</p><p>Registration takes 5 minutes.</p><p>${PROSE}</p></article>`,
      { url: 'https://example.com/blog/top-tech-conferences-2026' },
    );
    expect(md).toContain('Registration takes 5 minutes.');
    expect(md).not.toMatch(/Reading Time|9 min read/);
  });
});

describe('affiliate disclosures', () => {
  it("drops a publisher's affiliate disclosure, and keeps a longer paragraph about affiliate links", async () => {
    const about =
      'Affiliate programs pay a blogger when a reader buys through a tracked link: the shop, not the reader, pays the fee, ' +
      'and the rate runs from one to ten percent by category. We look at how three programs compare, what they earn a writer ' +
      'in a typical month, and why most small sites earn a commission on fewer than one visit in a hundred.';
    const md = await markdownOf(
      '<article><h1>The best trail running shoes</h1>' +
        '<p><em><strong>Disclosure:</strong> This post contains affiliate links. If you use them to make a purchase, we may earn a small commission, at no extra cost to you.</em></p>' +
        `<p>${PROSE}</p><p>${about}</p></article>`,
      { url: 'https://example.com/blog/best-trail-running-shoes' },
    );
    expect(md).toContain('Lorem ipsum');
    expect(md).not.toContain('This post contains affiliate links');
    expect(md).toContain('Affiliate programs pay a blogger');
  });
});

describe('publishers\' widgets', () => {
  it("drops teasers headed 'Further reading', 'Most popular posts' and 'From our blog' beside a page's text", async () => {
    const md = await markdownOf(
      `<main><h1>How we priced our retainer</h1><p>${PROSE}</p><p>${PROSE}</p>` +
        `<div><h3>Further reading</h3><div class="box"><p>A longer look at what agencies charge by the hour, state by state.</p></div></div>` +
        `<div><h3>Most popular posts</h3><div class="box"><p>What other readers of this blog opened most this month and last.</p></div></div>` +
        `<div><h3>From our blog</h3><div class="box"><p>News from the team behind the studio, written by the people doing the work.</p></div></div>` +
        `<h2>What we charge now</h2><p>A flat monthly fee, reviewed every quarter.</p></main>`,
      { url: 'https://example.com/services/retainer/' },
    );
    expect(md).toContain('A flat monthly fee');
    expect(md).not.toContain('agencies charge by the hour');
    expect(md).not.toContain('other readers of this blog');
    expect(md).not.toContain('News from the team');
  });

  it("drops teasers headed 'Most read in world news', 'Recommended reading', 'Suggested topics', '🔥 Recommended posts' and 'Share this story' inside an article", async () => {
    const teaser = (heading: string, text: string) => `<div><h3>${heading}</h3><ul><li><a href="/n/${text.length}">${text}</a></li><li><p>${text}, and more.</p></li></ul></div>`;
    const md = await markdownOf(
      `<article><h1>Floods close the coast road</h1><p>${PROSE}</p>${teaser('Most read in world news', 'Prince parties in unearthed pictures')}<p>${PROSE}</p>` +
        `${teaser('Recommended reading', 'How to claim flood insurance')}${teaser('Suggested Topics', 'Road closures this winter')}` +
        `${teaser('🔥 Recommended Posts', 'The best coastal walks')}${teaser('Share This Story', 'Send it to a friend')}<p>The road reopens on Monday.</p></article>`,
      { url: 'https://example.com/news/2026/floods-close-coast-road' },
    );
    expect(md).toContain('The road reopens on Monday.');
    expect(md).not.toMatch(/Most read|unearthed|Recommended reading|flood insurance|Suggested Topics|Road closures|Recommended Posts|coastal walks|Share This Story|to a friend/);
  });

  it("drops teasers headed in other languages ('Das könnte Sie auch interessieren', 'À lire aussi', 'Читайте также'), and keeps a wiki's 'See also' in any", async () => {
    const teaser = (heading: string, text: string) => `<div><h3>${heading}</h3><ul><li><a href="/n/${text.length}">${text}</a></li><li><p>${text}, und mehr.</p></li></ul></div>`;
    const md = await markdownOf(
      `<article><h1>Hochwasser sperrt die Küstenstraße</h1><p>${PROSE}</p>${teaser('Das könnte Sie auch interessieren', 'Prinz feiert auf alten Bildern')}${teaser('Meistgelesen:', 'Wetter am Wochenende')}<p>${PROSE}</p>` +
        `${teaser('À lire aussi :', 'Comment déclarer une inondation')}${teaser('Читайте также', 'Дороги закрыты этой зимой')}<p>Die Straße ist ab Montag wieder offen.</p>` +
        `<h2>Siehe auch</h2><ul><li><a href="/wiki/Sturmflut">Sturmflut</a></li><li><a href="/wiki/Deich">Deich</a></li></ul></article>`,
      { url: 'https://example.com/news/2026/hochwasser-kuestenstrasse' },
    );
    expect(md).toContain('ab Montag wieder offen');
    expect(md).not.toMatch(/interessieren|alten Bildern|Meistgelesen|Wochenende|lire aussi|inondation|Читайте|закрыты/);
    expect(md).toContain('Siehe auch');
  });
});

describe('noscript', () => {
  it('drops a JavaScript notice longer than a line when scripts are off, and keeps a longer noscript fallback', async () => {
    const context = await browser().newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.route('**/*', (route) => route.abort());
      const notice =
        'Your browser does not seem to support JavaScript. As a result, your viewing experience will be diminished, and you have been placed in read-only mode. ' +
        'Please download a browser that supports JavaScript, or enable it if it is disabled (i.e. NoScript).';
      await page.setContent(
        `<!doctype html><html><body><main><noscript><div class="notice"><p>${notice}</p></div></noscript><h1>Thread</h1><p>${PROSE}</p>` +
          `<noscript><div class="fallback"><p>${PROSE} ${PROSE} ${PROSE} ${PROSE} ${PROSE} JavaScript</p></div></noscript></main></body></html>`,
      );
      const md = (await extractMarkdown(page, { url: 'https://example.com/topic/99/thread', onlyMainContent: true })).markdown;
      expect(md).toContain('Thread');
      expect(md).not.toContain('read-only mode');
      expect(md.match(/Lorem ipsum/g)?.length).toBeGreaterThan(1);
    } finally {
      await context.close();
    }
  });
});

describe('comment headings', () => {
  it('drops the comment section under an article (its heading, count line, moderation note and form)', async () => {
    const md = await markdownOf(
      `<main><article><h1>Advent of Code, week two</h1><p>${PROSE}</p><p>The eighth puzzle wanted a union-find over junction boxes.</p>` +
        '<h3>Comments</h3><p>3 comments</p>' +
        '<fieldset><h3>Leave a Reply</h3><blockquote>Note that I will only approve comments that relate to the post itself.</blockquote>' +
        '<form><label>Name <input name="n"></label><textarea></textarea><button>Post comment</button></form></fieldset></article></main>',
    );
    expect(md).toContain('union-find over junction boxes');
    expect(md).not.toMatch(/Comments|3 comments|Leave a Reply|only approve comments/);
  });

  it("keeps a forum's replies and drops the reply form (or the sign-in asked for in its place) and the list of who is reading", async () => {
    const reply = (n: number) => `<div class="post"><p>Reply ${n}: ${PROSE}</p></div>`;
    const md = await markdownOf(
      `<main><h1>If the forum comes to an end soon</h1><h2>12 replies</h2>${[1, 2, 3].map(reply).join('')}` +
        '<div class="composer"><h2>Join the conversation</h2><p>You can post now and register later.</p></div></main>',
      { url: 'https://forum.example.com/topic/225132-if-the-forum-comes-to-an-end/' },
    );
    expect(md).toContain('Reply 3:');
    expect(md).toContain('12 replies');
    expect(md).not.toMatch(/Join the conversation|register later/);
    const viewers = await markdownOf(
      `<div class="page-content"><h1>If the forum comes to an end soon</h1><div class="block block--messages">${[1, 2, 3].map(reply).join('')}</div>` +
        '<div class="block"><h3 class="block-minorHeader">Users who are viewing this thread</h3><ul><li>Total: 3 (members: 1, guests: 2)</li></ul></div></div>',
      { url: 'https://forum.example.com/threads/if-the-forum-comes-to-an-end.225132/' },
    );
    const answerForm = await markdownOf(
      `<div id="mainbar"><h1>Keyboard shortcut to focus the file list</h1><div class="question"><p>${PROSE}</p></div><div id="answers">${[1, 2].map(reply).join('')}` +
        '<h2 class="bottom-notice">You must <a href="/users/login">log in</a> to answer this question.</h2>' +
        '<div class="bottom-notice"><p>Start asking to get answers</p><p>Find the answer to your question by asking.</p><a href="/questions/ask">Ask question</a></div></div></div>',
      { url: 'https://superuser.com/questions/442960/keyboard-shortcut-to-focus-the-file-list' },
    );
    expect(answerForm).toContain('Reply 2:');
    expect(answerForm).not.toMatch(/log in|Start asking|Ask question/);
    expect(viewers).toContain('Reply 3:');
    expect(viewers).not.toMatch(/viewing this thread|guests: 2/);
  });

  it('drops comment sections headed in other languages, with their forms', async () => {
    const german = await markdownOf(
      `<main><article><h1>Die Woche in Berlin</h1><p>${PROSE}</p><p>Der Senat hat am Dienstag den Haushalt beschlossen.</p>` +
        '<h2>3 Kommentare</h2><p>Sehr gut geschrieben, danke!</p><p>Endlich sagt es mal jemand.</p>' +
        '<h3>Schreibe einen Kommentar</h3><p>Deine E-Mail-Adresse wird nicht veröffentlicht.</p><form><textarea></textarea></form></article></main>',
    );
    expect(german).toContain('den Haushalt beschlossen');
    expect(german).not.toMatch(/Kommentar|Sehr gut geschrieben|E-Mail-Adresse/);
  });

  it('drops long comments when the section holds the box to write one, and keeps testimonials headed alike without it', async () => {
    // As vse-diety.com writes its readers' "Отзывы" (reviews): a form, then comments set apart by rules.
    const comment = (name: string) => `<hr><b>${name}</b> <i>2018-02-24 10:15:59</i><br><p>${name}: ${PROSE}</p>`;
    const article = `<h1>Диета Аткинса</h1>${`<p>Первая фаза длится две недели. ${PROSE}</p>`.repeat(6)}`;
    const withForm = await markdownOf(
      `<div id="content">${article}<div id="otz"><h1>Отзывы</h1><div id="f_upr">Скрыть</div>` +
        `<div id="f_add"><form><p><input name="author"> Имя</p><p><textarea name="comment"></textarea></p></form></div>` +
        `${['Татьяна', 'Айла', 'Яна'].map(comment).join('')}</div></div>`,
      { url: 'https://example.com/dieta-atkinsa.html' },
    );
    expect(withForm).toContain('Первая фаза');
    expect(withForm).not.toMatch(/Отзывы|Татьяна|Яна:/);
    const testimonials = await markdownOf(
      `<main><h1>Ремонт квартир под ключ</h1><p>Мы работаем с 2009 года. ${PROSE}</p>` +
        `<h2>Отзывы</h2><blockquote><p>Анна: ${PROSE}</p></blockquote><blockquote><p>Олег: ${PROSE}</p></blockquote></main>`,
      { url: 'https://example.com/remont' },
    );
    expect(testimonials).toContain('## Отзывы');
    expect(testimonials).toContain('Олег:');
  });

  it("keeps a section about comments (a style guide's 'Comments')", async () => {
    const md = await markdownOf(
      `<main><h1>Python style guide</h1><h2>Naming</h2><p>${PROSE}</p><h2>Comments</h2>` +
        `<p>Comments that contradict the code are worse than no comments. ${PROSE}</p>` +
        `<h2>Imports</h2><p>${PROSE}</p></main>`,
      { url: 'https://example.com/docs/style-guide' },
    );
    expect(md).toContain('## Comments');
    expect(md).toContain('contradict the code');
  });

  it("keeps an opinion column under its kicker ('Kommentar', 'Commentaire'), above its headline or heading its body", async () => {
    const kicker = await markdownOf(
      `<main><article><div class="kicker"><span>Kommentar</span></div><h1>Die Stadt braucht mehr Nachtbusse</h1><p>${PROSE}</p><p>Wer nachts arbeitet, wartet heute eine Stunde auf den Bus.</p></article></main>`,
      { url: 'https://zeitung.example.de/meinung/nachtbusse-kommentar' },
    );
    expect(kicker).toContain('# Die Stadt braucht mehr Nachtbusse');
    expect(kicker).toContain('wartet heute eine Stunde');

    const heading = await markdownOf(
      `<main><h1>La ville et ses bus de nuit</h1><p>${PROSE}</p><p>${PROSE}</p><p>${PROSE}</p><section><h2>Commentaire</h2><p>Qui travaille la nuit attend aujourd'hui une heure. ${PROSE}</p></section></main>`,
      { url: 'https://journal.example.fr/opinion/bus-de-nuit' },
    );
    expect(heading).toContain('## Commentaire');
    expect(heading).toContain("attend aujourd'hui une heure");
  });
});

describe('documentation', () => {
  it('keeps a link list set between the text of a docs page, and drops the ones at its edges', async () => {
    const links = (words: string[]) => `<ul>${words.map((word) => `<li><a href="/docs/${word.replace(/ /g, '-')}">${word}</a></li>`).join('')}</ul>`;
    const section = (type: string) =>
      `<h2>${type}</h2><p>Redis ${type.toLowerCase()} hold sequences of values. ${PROSE}</p>` +
      links([`Overview of Redis ${type.toLowerCase()}`, `Redis ${type.toLowerCase()} command reference`]);
    const md = await markdownOf(
      `<main><div class="content">${links(['Get started', 'Install', 'Develop', 'Operate'])}<h1>Understand Redis data types</h1>` +
        `<p>Redis is a data structure server. ${PROSE}</p>${section('Strings')}${section('Lists')}<h2>Extensions</h2><p>Modules add more types.</p>` +
        `${links(['Edit this page', 'Create an issue', 'Contributing guide'])}</div></main>`,
      { url: 'https://example.com/docs/latest/develop/data-types/' },
    );
    expect(md).toContain('[Overview of Redis strings]');
    expect(md).toContain('[Redis lists command reference]');
    expect(md).toContain('Modules add more types.');
    expect(md).not.toMatch(/Get started|Operate|Edit this page|Contributing guide/);
  });

  it("keeps an API's signatures in headings named as a part's header (rustdoc's 'code-header'), whatever their links", async () => {
    const method = (name: string, returns: string) =>
      `<details class="toggle method-toggle" open><summary><section id="method.${name}" class="method"><a class="src" href="/src/result.rs.html">Source</a>` +
      `<h4 class="code-header">pub fn <a href="#method.${name}" class="fn">${name}</a>&lt;F&gt;(self, f: F) -&gt; <a href="/std/primitive.${returns}.html">${returns}</a> where F: <a href="/std/ops/trait.FnOnce.html">FnOnce</a>(T) -&gt; <a href="/std/primitive.bool.html">bool</a>,</h4></section></summary>` +
      `<div class="docblock"><p>Returns <code>true</code> if the result matches a predicate. ${PROSE}</p></div></details>`;
    const md = await markdownOf(
      `<main><section id="main-content" class="content"><h1>Enum Result</h1><p>Result is a type that represents either success or failure. ${PROSE}</p>` +
        `<h2>Implementations</h2>${method('is_ok_and', 'bool')}${method('is_err_and', 'bool')}</section></main>`,
      { url: 'https://doc.rust-lang.org/std/result/enum.Result.html' },
    );
    expect(md).toContain('pub fn is_ok_and');
    expect(md).toContain('pub fn is_err_and');
  });

  it("reads a page on a docs host as documentation, whatever its Open Graph type: an index's linked section headings stay", async () => {
    const topic = (title: string) => `<h2><a href="/en/actions/${title.replace(/ /g, '-')}">${title}</a></h2><p>How to go about ${title.toLowerCase()} in a repository.</p>`;
    const md = await markdownOf(
      `<main><h1>Writing workflows</h1><p>Learn how to write workflows. ${PROSE}</p>` +
        `${['Using workflow templates', 'Choosing when your workflow runs', 'Choosing where your workflow runs'].map(topic).join('')}</main>`,
      { url: 'https://docs.example.com/en/actions/how-tos/write-workflows' },
      '<meta property="og:type" content="article">',
    );
    expect(md).toContain('## [Choosing when your workflow runs]');
    expect(md).toContain('in a repository');
  });
});
