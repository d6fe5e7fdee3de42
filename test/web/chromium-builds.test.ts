import { readlinkSync } from 'node:fs';
import { basename } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FULL_CHROMIUM_PATH, HEADLESS_SHELL_PATH } from '../../src/config/browser.js';
import { apiClient } from '../helpers/client.js';
import { colouredPixels, decodePng } from '../helpers/png-pixels.js';
import { htmlPage, type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/**
 * Pluck runs Debian's headless shell by default, and the rest of the suite runs on it; the full
 * build (`chromium`, new headless) stays supported. The page operations people use most, on each
 * build named explicitly through CHROMIUM_PATH: the same answers from both.
 */
const BUILDS = [
  ['the headless shell (the default)', HEADLESS_SHELL_PATH],
  ['the full chromium build', FULL_CHROMIUM_PATH],
] as const;

/** Black text on white, one large emoji (yellow in a colour emoji font), and a paragraph a script writes. */
const EMOJI_PAGE = `<h1 style="font:32px sans-serif">Builds compared</h1>
<p style="font:48px sans-serif">Smile <span id="emoji">\u{1F600}</span></p>
<p id="late"></p>
<script>document.getElementById('late').textContent = 'Written by a script, ' + 'with enough words to read as content. '.repeat(3);</script>`;
/** The same page without the emoji: how much colour black text on white has (none but anti-aliasing). */
const PLAIN_PAGE = EMOJI_PAGE.replace('\u{1F600}', 'plain');

const RETINA = { width: 400, height: 300, deviceScaleFactor: 2 };

for (const [name, chromiumPath] of BUILDS) {
  describe(`page operations on ${name}`, () => {
    let site: RecordingServer;
    let server: TestServer;
    let api: ReturnType<typeof apiClient>;
    let key: string;

    beforeAll(async () => {
      const utf8 = { 'content-type': 'text/html; charset=utf-8' };
      site = await startRecordingServer({ '/emoji': htmlPage(EMOJI_PAGE, utf8), '/plain': htmlPage(PLAIN_PAGE, utf8) });
      server = await startTestServer('sqlite', { CHROMIUM_PATH: chromiumPath, ALLOW_PRIVATE_HOSTS: site.hostPort, LOG_LEVEL: 'warn' });
      api = apiClient(server.baseUrl);
      ({ key } = await api.signUpWithKey());
    });
    afterAll(async () => {
      await server?.close();
      await site?.close();
    });

    it('reads content and markdown, scripts included, on that build', async () => {
      const content = await api.post('/v1/web/content', { url: `${site.origin}/emoji` }, key);
      expect(content.status, content.text).toBe(200);
      expect(content.body.data.content).toContain('Written by a script');
      // The browser that answered is the build asked for (/usr/bin/chromium is a wrapper script around /usr/lib/chromium/chromium).
      const { browserPid } = server.ctx.browser.stats();
      expect(basename(readlinkSync(`/proc/${browserPid}/exe`))).toBe(basename(chromiumPath));

      const markdown = await api.post('/v1/web/markdown', { url: `${site.origin}/emoji` }, key);
      expect(markdown.status, markdown.text).toBe(200);
      expect(markdown.body.data.markdown).toContain('# Builds compared');
      expect(markdown.body.data.markdown).toContain('Smile \u{1F600}');
      expect(markdown.body.data.markdown).toContain('Written by a script, with enough words');
      expect(markdown.body.data.metadata.warnings ?? []).toEqual([]);
    });

    it('captures a screenshot at deviceScaleFactor 2 with the emoji drawn in colour', async () => {
      const shot = async (path: string) => {
        const res = await api.post('/v1/web/screenshot', { url: `${site.origin}${path}`, base64: true, viewport: RETINA }, key);
        expect(res.status, res.text).toBe(200);
        return decodePng(Buffer.from(res.body.data.base64, 'base64'));
      };
      const withEmoji = await shot('/emoji');
      expect({ width: withEmoji.width, height: withEmoji.height }).toEqual({ width: 800, height: 600 });
      // A 48 px emoji at scale 2 covers about 96 x 96 device pixels, most of them yellow; in a
      // monochrome fallback font, or as an empty box, none are.
      expect(colouredPixels(withEmoji)).toBeGreaterThan(3000);
      expect(colouredPixels(await shot('/plain'))).toBeLessThan(50);
    });

    it('prints a PDF that embeds the colour emoji font', async () => {
      const res = await api.post('/v1/web/pdf', { url: `${site.origin}/emoji`, base64: true }, key);
      expect(res.status, res.text).toBe(200);
      const pdf = Buffer.from(res.body.data.base64, 'base64').toString('latin1');
      expect(pdf.startsWith('%PDF-')).toBe(true);
      // Chromium's PDFs name each embedded font in clear (a subset: six letters and "+").
      const fonts = [...pdf.matchAll(/\/FontName\s*\/[A-Z]{6}\+([\w-]+)/g)].map((match) => match[1]);
      expect(fonts).toContain('NotoColorEmoji');
    });
  });
}
