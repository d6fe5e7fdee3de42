import type { ServerResponse } from 'node:http';
import { type RecordingServer, type RouteHandler, startRecordingServer } from '../helpers/recording-server.js';

const html = (body: string): RouteHandler => (_req, res) => send(res, 200, body);

function send(res: ServerResponse, status: number, body: string, type = 'text/html; charset=utf-8') {
  res.writeHead(status, { 'content-type': type }).end(body);
}

export const ARTICLE = `<!doctype html>
<html lang="en-GB"><head><title>Fixture Article</title>
<meta name="description" content="A page for the tests"></head>
<body>
<nav><a href="/home">Home</a> <a href="/about">About</a></nav>
<main><article>
<h1>Main Heading</h1>
<p>The first paragraph talks about <a href="/docs/intro#part">the introduction</a> at length, with enough words to be content.</p>
<h2>Lists</h2>
<ul><li>alpha<ul><li>nested beta</li></ul></li><li>gamma</li></ul>
<table><thead><tr><th>Name</th><th>Value</th></tr></thead><tbody><tr><td>one</td><td>1</td></tr></tbody></table>
<pre><code class="language-python">print("hello")</code></pre>
<p><img src="/img/cat.png" alt="A cat"></p>
<p id="late"></p>
</article></main>
<footer>Footer text with <a href="mailto:x@example.com">mail</a> and <a href="https://example.org/x#y">elsewhere</a> <a href="/about#team">team</a></footer>
<script>setTimeout(() => { document.getElementById('late').textContent = 'Rendered by script later'; }, 1500);</script>
</body></html>`;

export const TALL = `<!doctype html><title>Tall</title><body style="margin:0"><div style="height:5000px;background:linear-gradient(red,blue)">tall</div></body>`;

export const SCRIPTED = `<!doctype html><title>Scripted</title><body><div id="app"></div>
<script>document.getElementById('app').innerHTML = '<h1 class="title" data-id="7">Made by JavaScript</h1><a class="more" href="/next">next</a><a class="more" href="/next2">next 2</a>';</script></body>`;

/** The loopback site the page-operation tests load. */
export async function startFixtureSite(): Promise<RecordingServer> {
  return startRecordingServer({
    '/article': html(ARTICLE),
    '/tall': html(TALL),
    '/much-later': html(ARTICLE.replace('}, 1500);', '}, 30000);')),
    '/scripted': html(SCRIPTED),
    '/missing': (_req, res) => send(res, 404, '<!doctype html><title>Not here</title><h1>404 page</h1>'),
    '/echo': (req, res) =>
      send(
        res,
        200,
        `<!doctype html><title>echo</title><pre id="echo">${JSON.stringify({
          ua: req.headers['user-agent'],
          custom: req.headers['x-custom'],
          cookie: req.headers.cookie,
        }).replace(/</g, '&lt;')}</pre>`,
      ),
    '/slow': (_req, res) => {
      setTimeout(() => send(res, 200, '<!doctype html><title>slow</title>'), 5_000).unref();
    },
  });
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const view = Buffer.from(bytes);
  if (view.toString('latin1', 1, 4) !== 'PNG') throw new Error('not a PNG');
  return { width: view.readUInt32BE(16), height: view.readUInt32BE(20) };
}
