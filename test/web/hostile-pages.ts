import type { ServerResponse } from 'node:http';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { type RecordingServer, type RouteHandler, startRecordingServer } from '../helpers/recording-server.js';

/**
 * Pages that broke the product path on real sites, each reduced to the one behaviour that did:
 * what the stored wcxb-dev pages showed (a forum whose scripts remove the document, Discourse
 * threads whose posts are in `<noscript>`) and what a hostile or careless page can do.
 */

const html = (body: string): RouteHandler => (_req, res) => send(res, body);

function send(res: ServerResponse, body: string) {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
}

/** Prose of `count` sentences, each naming its number, so a test can tell which arrived. */
export function prose(label: string, count = 12): string {
  return Array.from(
    { length: count },
    (_, i) => `${label} sentence ${i + 1} carries enough ordinary words, commas, and clauses to read as real prose for the extractor.`,
  ).join(' ');
}

const article = (label: string) => `<article><h1>${label} headline</h1><p>${prose(label)}</p><p>${prose(`${label} second`)}</p></article>`;

/** An avforums-like thread: a wall script removes the whole document. */
const REMOVES_DOCUMENT = `<!doctype html><html lang="en"><head><title>Removed thread</title></head><body>
<nav><a href="/">Home</a></nav><main>${article('Removed')}</main>
<script>document.addEventListener('DOMContentLoaded', () => document.documentElement.remove());</script></body></html>`;

/** A Discourse thread as served: the app's scripts build the page; the posts are in `<noscript>` for crawlers. */
const discourse = (scriptHost: string) => `<!doctype html><html lang="en"><head><title>Discourse thread</title>
<script defer src="http://${scriptHost}/assets/start-discourse.js"></script></head>
<body><section id="main"></section>
<noscript><div id="topic-title"><h1>Discourse thread title</h1></div>
<div class="post" itemprop="comment"><p>${prose('Discourse first post')}</p></div>
<div class="post" itemprop="comment"><p>${prose('Discourse reply')}</p></div></noscript></body></html>`;

/** Says "Loading..." until a timer fills it 1.5 s after `load`, with no network in between. */
const LATE_FILL = `<!doctype html><html lang="en"><head><title>Late</title></head><body><div id="app">Loading...</div>
<script>addEventListener('load', () => setTimeout(() => {
  document.getElementById('app').innerHTML = ${JSON.stringify(article('Late'))};
}, 1500));</script></body></html>`;

/** An article whose tracker script and pixel come from a host that accepts connections and never answers. */
const deadTracker = (trackerHost: string) => `<!doctype html><html lang="en"><head><title>Tracked</title>
<script async src="http://${trackerHost}/t.js"></script></head>
<body><main>${article('Tracked')}</main><img src="http://${trackerHost}/pixel.gif" alt=""></body></html>`;

/** Forty resources from one host whose DNS answers slowly (and then not at all). */
const slowDns = (host: string) => `<!doctype html><html lang="en"><head><title>Slow DNS</title>
${Array.from({ length: 40 }, (_, i) => `<script async src="https://${host}/s${i}.js"></script>`).join('\n')}</head>
<body><main>${article('Slow DNS')}</main></body></html>`;

/** 300,000 elements, built by script (a parser would build them as fast; this keeps the fixture small). */
const HUGE = `<!doctype html><html lang="en"><head><title>Huge</title></head><body><main id="root"><h1>Huge page</h1></main>
<script>
  const root = document.getElementById('root');
  const block = document.createElement('div');
  for (let i = 0; i < 100000; i++) {
    const row = document.createElement('div');
    const label = document.createElement('span');
    label.textContent = 'row ' + i + ' of the huge table';
    row.append(label, document.createElement('i'));
    block.append(row);
  }
  root.append(block);
</script></body></html>`;

/** Elements nested `depth` deep by script (the HTML parser stops nesting at 512), the treasure at the bottom. */
const deep = (tag: string, depth: number) => `<!doctype html><html lang="en"><head><title>Deep</title></head><body>
<main id="root"><h1>Deep page</h1><p>${prose('Deep static')}</p></main>
<script>
  let parent = document.getElementById('root');
  for (let i = 0; i < ${depth}; i++) {
    const child = document.createElement('${tag}');
    parent.append(child);
    parent = child;
  }
  parent.textContent = 'The deepest paragraph holds the treasure the reader came for.';
</script></body></html>`;

/** A page that breaks the DOM methods the extractor calls (its scripts share the page with ours). */
const HOSTILE_PROTOTYPES = `<!doctype html><html lang="en"><head><title>Hostile</title></head><body><main>${article('Hostile')}</main>
<script>Element.prototype.checkVisibility = function () { throw new TypeError('this page breaks checkVisibility'); };</script></body></html>`;

/** Keeps changing its DOM and polling, forever, and never fires `load` (its pixel's host never answers). */
const neverSettles = (trackerHost: string) => `<!doctype html><html lang="en"><head><title>Busy</title></head><body><main>${article('Busy')}</main><p id="tick"></p>
<img src="http://${trackerHost}/busy.gif" alt="">
<script>let n = 0; setInterval(() => { document.getElementById('tick').textContent = 'tick ' + n++; fetch('/poll?' + n).catch(() => {}); }, 100);</script></body></html>`;

/** Its script sends it on to `target`, which cannot be loaded (or is refused): once loaded, or as soon as it is parsed. */
const goesOn = (target: string, when: 'after load' | 'at once' = 'after load') => {
  const go = `location.href = ${JSON.stringify(target)};`;
  const script = when === 'at once' ? go : `addEventListener('load', () => setTimeout(() => { ${go} }, 100));`;
  return `<!doctype html><html lang="en"><head><title>Going on</title></head><body><main>${article('Going on')}</main><script>${script}</script></body></html>`;
};

/** An empty page: nothing to read, with or without scripts. */
const BLANK = '<!doctype html><html lang="en"><head><title>Blank</title></head><body></body></html>';

export interface HostilePageSite {
  site: RecordingServer;
  /** A loopback server that accepts connections and never writes a byte. */
  blackHole: { port: number; connections: number; close(): Promise<void> };
  close(): Promise<void>;
}

/**
 * The fixture site. `trackerHost` must resolve to the black hole; `deadScriptHost` and
 * `slowDnsHost` are names the test's resolver fails (slowly, for the latter); `internalHost`
 * one it resolves to a private address.
 */
export async function startHostilePageSite(names: {
  trackerHost: (port: number) => string;
  deadScriptHost: string;
  slowDnsHost: string;
  internalHost: string;
}): Promise<HostilePageSite> {
  const blackHole = await startBlackHole();
  const trackerHost = names.trackerHost(blackHole.port);
  const site = await startRecordingServer({
    '/removes-document': html(REMOVES_DOCUMENT),
    '/discourse': html(discourse(names.deadScriptHost)),
    '/late-fill': html(LATE_FILL),
    '/dead-tracker': html(deadTracker(trackerHost)),
    '/slow-dns': html(slowDns(names.slowDnsHost)),
    '/huge': html(HUGE),
    // Chromium lays out 5,000 nested inline elements; 10,000 nested blocks crash its renderer.
    '/deep-inline': html(deep('span', 5_000)),
    '/deep-blocks': html(deep('div', 10_000)),
    '/hostile-prototypes': html(HOSTILE_PROTOTYPES),
    '/never-settles': html(neverSettles(trackerHost)),
    '/blank': html(BLANK),
    '/goes-on-to-dead-https': html(goesOn(`https://${names.deadScriptHost}/next`)),
    '/goes-on-to-dead-http': html(goesOn(`http://${names.deadScriptHost}/next`)),
    '/goes-on-at-once': html(goesOn(`https://${names.deadScriptHost}/next`, 'at once')),
    '/goes-on-to-loopback': html(goesOn('https://127.0.0.1:1/next')),
    '/goes-on-to-internal': html(goesOn(`http://${names.internalHost}/next`)),
    '/poll': (_req, res) => res.writeHead(204).end(),
    // Half a document, then nothing more: the connection stays open.
    '/half-arrived': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.write(`<!doctype html><html lang="en"><head><title>Half</title></head><body><main>${article('Half')}</main>`);
    },
  });
  return {
    site,
    blackHole,
    close: async () => {
      await site.close();
      await blackHole.close();
    },
  };
}

async function startBlackHole(): Promise<HostilePageSite['blackHole']> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    hole.connections += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const hole = {
    port: (server.address() as AddressInfo).port,
    connections: 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return hole;
}
