import { describe, expect, it } from 'vitest';
import { chromiumForFile, PROSE } from './chromium.js';

const { markdownOf } = chromiumForFile({ onlyMainContent: true, url: 'https://shop.example.com/products/wool-runner' });

const description = `The Wool Runner is the original wool sneaker that started it all. ${PROSE}`;
const head =
  '<title>Men\'s Wool Runner | Shop</title>' +
  `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Men's Wool Runner","description":${JSON.stringify(description)}}</script>`;

describe('a product page', () => {
  it('writes the product\'s name before the description taken from structured data, and a notice set twice once', async () => {
    const notice = '<div class="notice"><p>final sale*</p><p>Final Sale items cannot be returned, canceled, or exchanged</p></div>';
    const body =
      `<main><div class="product"><h1>Men's Wool Runner</h1><p>$110</p>${notice}${notice}` +
      '<div class="details"><h3>THE DETAILS</h3><p>A true original, our Wool Runner combines soft Merino wool with cloud-like comfort.</p></div></div></main>';
    const md = await markdownOf(body, {}, head);
    expect(md.startsWith("# Men's Wool Runner\n\nThe Wool Runner is the original wool sneaker")).toBe(true);
    expect(md.match(/Final Sale items cannot be returned/g)).toHaveLength(1);
    expect(md).toContain('A true original');
  });

  it('keeps one paragraph said twice in a row (only runs of blocks are copies)', async () => {
    const body = `<main><h1>Men's Wool Runner</h1><p>${PROSE}</p><p>Machine washable.</p><p>Machine washable.</p><p>${PROSE}</p></main>`;
    const md = await markdownOf(body, {}, '<title>Men\'s Wool Runner | Shop</title>');
    expect(md.match(/Machine washable\./g)).toHaveLength(2);
  });

  describe("keeps the product's name when the box around it looks like chrome", () => {
    const rest = `<div class="description"><h2>About this pack</h2><p>${PROSE}</p></div>`;
    const title = "<title>REI Co-op Trail 25 Pack | REI Co-op</title>";

    it('in a box named as a header, beside a pre-order notice', async () => {
      const body =
        '<main><div class="product-header product-page__product-header"><div class="preorder-banner">Pre-order <a href="/help">Learn more</a></div>' +
        '<h1 id="product-page-title"><a href="/b/rei-co-op">REI Co-op</a> Trail 25 Pack</h1>' +
        `<div class="ratings-and-id"><a href="#reviews">4.4 (159 Reviews)</a> Item #227955</div></div><p>$99.95</p>${rest}</main>`;
      const md = await markdownOf(body, {}, title);
      expect(md.startsWith('# [REI Co-op](https://shop.example.com/b/rei-co-op) Trail 25 Pack')).toBe(true);
      expect(md).toContain('About this pack');
    });

    it('in a box whose rating would otherwise take the name with it', async () => {
      const body =
        '<main><div class="product-title"><h1>REI Co-op Trail 25 Pack</h1>' +
        '<span class="sr-only">4.7 out of 5 stars from 10 customer ratings</span> <a href="#reviews">(10)</a></div>' +
        `<p>$99.95</p>${rest}</main>`;
      const md = await markdownOf(body, {}, title);
      expect(md.startsWith('# REI Co-op Trail 25 Pack')).toBe(true);
    });

    it('in a <header> with its subtitle', async () => {
      const body =
        '<main><header class="product-header"><h1>REI Co-op Trail 25 Pack</h1><p>Daypack with a U-shaped opening</p></header>' +
        `<p>$99.95</p>${rest}</main>`;
      const md = await markdownOf(body, {}, title);
      expect(md.startsWith('# REI Co-op Trail 25 Pack\n\nDaypack with a U-shaped opening')).toBe(true);
    });
  });
});
