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
});
