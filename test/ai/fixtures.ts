import { type RecordingServer, type RouteHandler, startRecordingServer } from '../helpers/recording-server.js';

const html =
  (body: string): RouteHandler =>
  (_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);

/** A sentence found only in the product page's main content, rendered by script. */
export const PRODUCT_SENTENCE = 'The Zephyr-9 kettle costs 42 euros and boils a litre in 95 seconds.';

const PRODUCT = `<!doctype html>
<html lang="en"><head><title>Zephyr-9 Kettle</title></head>
<body>
<nav><a href="/">Home</a> <a href="/shop">Shop</a></nav>
<main><article>
<h1>Zephyr-9 Kettle</h1>
<p id="facts"></p>
<p>It is made of brushed steel, holds 1.7 litres and switches itself off when the water boils or the jug is lifted.</p>
</article></main>
<script>document.getElementById('facts').textContent = ${JSON.stringify(PRODUCT_SENTENCE)};</script>
</body></html>`;

export const FIRST_MARKER = 'FIRST-PARAGRAPH-MARKER';
export const LAST_MARKER = 'LAST-PARAGRAPH-MARKER';

/** About 60 000 characters of article: well over the default 8 000-token input budget. */
function longArticle(): string {
  const paragraphs = Array.from(
    { length: 600 },
    (_, i) => `<p>Paragraph ${i + 1} of the long report explains one more detail of the water supply in plain words.</p>`,
  );
  paragraphs[0] = `<p>${FIRST_MARKER} opens the report about the water supply of the town.</p>`;
  paragraphs[paragraphs.length - 1] = `<p>${LAST_MARKER} closes the report about the water supply of the town.</p>`;
  return `<!doctype html><html lang="en"><head><title>Long Report</title></head><body><main><article><h1>Long Report</h1>${paragraphs.join('\n')}</article></main></body></html>`;
}

export async function startAiFixtureSite(): Promise<RecordingServer> {
  return startRecordingServer({ '/product': html(PRODUCT), '/long': html(longArticle()) });
}
