import type { ServerResponse } from 'node:http';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';

/**
 * Pages that only show everything to a reader who acts on them: a button that reveals a section,
 * a search box answered on Enter, an infinite list that grows as it is scrolled, and a plain
 * page for scripts. Shared by the native, job, MCP and Firecrawl tests of actions.
 */

export const REVEAL = `<!doctype html><html lang="en"><head><title>Reveal</title></head><body>
<main><h1>Catalogue</h1><p>Three items are shown; the rest wait behind the button.</p>
<button id="show-all" onclick="document.getElementById('rest').hidden = false; this.remove()">Show all</button>
<section id="rest" hidden><h2>Hidden section</h2><p>The fourth item is the secret orrery, shown only after the click.</p></section>
</main></body></html>`;

export const SEARCH = `<!doctype html><html lang="en"><head><title>Search</title></head><body>
<main><h1>Search the catalogue</h1><input id="q" type="search" autocomplete="off">
<div id="results"></div></main>
<script>
document.getElementById('q').addEventListener('keydown', (event) => {
  if (event.key !== 'Enter') return;
  const query = event.target.value;
  setTimeout(() => { document.getElementById('results').innerHTML = '<h2>Results for ' + query + '</h2><p>Found the ' + query + ' in the archive.</p>'; }, 100);
});
</script></body></html>`;

export const INFINITE = `<!doctype html><html lang="en"><head><title>Feed</title>
<style>li { height: 120px; }</style></head><body>
<main><h1>Feed</h1><ul id="feed"></ul></main>
<script>
let next = 1;
const feed = document.getElementById('feed');
const add = (count) => { for (let i = 0; i < count; i += 1) { const li = document.createElement('li'); li.textContent = 'Feed item ' + next++; feed.append(li); } };
add(10);
addEventListener('scroll', () => {
  if (innerHeight + scrollY >= document.body.scrollHeight - 200 && next <= 40) setTimeout(() => add(10), 50);
});
</script></body></html>`;

export const PLAIN = `<!doctype html><html lang="en"><head><title>Plain page</title></head><body><main><h1>Plain</h1><p>A page for scripts to run on.</p></main></body></html>`;

export async function startActionSite(): Promise<RecordingServer> {
  const send = (body: string) => (_req: unknown, res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  return startRecordingServer({ '/reveal': send(REVEAL), '/search': send(SEARCH), '/infinite': send(INFINITE), '/plain': send(PLAIN) });
}
