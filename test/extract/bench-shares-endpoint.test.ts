import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExtractionBench } from '../../scripts/bench-extraction.js';
import { apiClient } from '../helpers/client.js';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { launchChromium } from './chromium.js';

/**
 * The extraction bench must measure what `/v1/web/markdown` returns: the same page, served to the
 * endpoint over loopback and stored (gzipped) in a bench data folder, gives the same markdown
 * byte for byte. The page exercises every stage (main area, boilerplate, comments, repeated
 * copies, tables, code), so a second code path would show.
 */

const PROSE =
  'The committee met on Tuesday to weigh the proposal, and after a long debate, it agreed to fund the first phase. ' +
  'Members said the plan was sound, though costs, timing and staffing still need work before the second phase starts.';

const PAGE = `<!doctype html><html lang="en"><head><title>Council funds the first phase - Example News</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"Council funds the first phase"}</script>
</head><body>
<header><nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav></header>
<div class="cookie-notice">We use cookies. <a href="/privacy">Privacy</a></div>
<main><article>
<h1>Council funds the first phase</h1>
<p class="byline">By A. Writer, March 3, 2025</p>
<p>${PROSE}</p>
<h2>What it costs</h2>
<table><thead><tr><th>Phase</th><th>Cost</th></tr></thead><tbody><tr><td>First</td><td>$2m</td></tr><tr><td>Second</td><td>$3m</td></tr></tbody></table>
<p>${PROSE} A <a href="/report.pdf">full report</a> is online.</p>
<pre><code class="language-json">{"phase": 1}</code></pre>
<div class="share"><a href="https://x.com/share">Share</a> <a href="https://fb.com/share">Facebook</a></div>
</article>
<section id="comments"><h3>Comments</h3>${'<div class="comment"><p>I think this is great news for the town, and long overdue, frankly, given the state of things.</p></div>'.repeat(6)}</section>
</main>
<footer>Copyright 2025 Example News</footer></body></html>`;

describe('bench and endpoint share one code path', () => {
  let browser: Browser;
  let site: RecordingServer;
  let server: TestServer;
  let dataDir: string;

  beforeAll(async () => {
    browser = await launchChromium();
    site = await startRecordingServer({
      '/news/council': (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE),
    });
    server = await startTestServer('sqlite', { ALLOW_PRIVATE_HOSTS: site.hostPort });
    dataDir = await mkdtemp(join(tmpdir(), 'pluck-bench-'));
  });
  afterAll(async () => {
    await server?.close();
    await site?.close();
    await browser?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('writes the markdown the endpoint returns for the same page', async () => {
    const url = `${site.origin}/news/council`;
    const api = apiClient(server.baseUrl);
    const { key } = await api.signUpWithKey();
    const res = await api.post('/v1/web/markdown', { url }, key);
    expect(res.status, res.text).toBe(200);
    const endpoint = res.body.data.markdown as string;

    await writeFile(join(dataDir, 'page.html.gz'), gzipSync(PAGE));
    await writeFile(join(dataDir, 'ground-truth.json'), JSON.stringify({ page: { url, articleBody: '' } }));
    const outDir = join(dataDir, 'out');
    const timings = await runExtractionBench(browser, { dataDir, outDir });
    expect(timings.map((timing) => timing.name)).toEqual(['page']);
    const bench = await readFile(join(outDir, 'page.md'), 'utf8');

    expect(bench).toBe(endpoint);
    // And it is the main content, not the page: these fail if either side skips a stage.
    expect(bench).toContain('| Phase | Cost |');
    expect(bench).toContain('```json\n{"phase": 1}\n```');
    expect(bench).toContain(`[full report](${site.origin}/report.pdf)`);
    for (const boilerplate of ['Sport', 'cookies', 'Share', 'great news for the town', 'Copyright', 'By A. Writer']) {
      expect(bench).not.toContain(boilerplate);
    }
  });
});
