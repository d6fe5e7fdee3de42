import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExtractOptions } from '../../src/extract/extract.js';
import { launchChromium, markdownOf as markdownWith } from './chromium.js';

/** The furniture of cards and widgets that the twelfth round of extraction work drops or keeps. */

const PROSE =
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. ' +
  'Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

function markdownOf(body: string, options: Partial<ExtractOptions> = {}, head = ''): Promise<string> {
  return markdownWith(browser, body, { onlyMainContent: true, ...options }, head);
}

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
});
