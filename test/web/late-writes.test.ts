import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/client.js';
import { htmlPage, type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** A page whose script writes all of its content `delayMs` after it runs, with no request in between. */
const writtenAfter = (delayMs: number, placeholder = '') =>
  `<div id="root">${placeholder}</div><script>setTimeout(() => { root.innerHTML = '<h1>Title</h1><p>' + 'words '.repeat(50) + '</p>'; }, ${delayMs});</script>`;

/** Around the 150 ms: where the write lands among the reads (the first one, the one without scripts) depends on the machine's speed. */
const DELAYS = [0, 50, 100, 150, 200, 300, 600];

/**
 * A page that is empty when `load` fires and is written by a timer soon after is read with its
 * content, at once: at 150 ms this once answered empty (NO_CONTENT) after 5.6 s, the read and the
 * reading without scripts having used up the time in which the write happened, unseen.
 */
describe('pages written by a timer shortly after load', () => {
  let site: RecordingServer;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let key: string;

  beforeAll(async () => {
    site = await startRecordingServer(
      Object.fromEntries(
        DELAYS.flatMap((delay) => [
          [`/after-${delay}`, htmlPage(writtenAfter(delay))],
          [`/loading-${delay}`, htmlPage(writtenAfter(delay, 'Loading...'))],
        ]),
      ),
    );
    server = await startTestServer('sqlite', { ALLOW_PRIVATE_HOSTS: site.hostPort, LOG_LEVEL: 'warn' });
    api = apiClient(server.baseUrl);
    ({ key } = await api.signUpWithKey());
    // Chromium starts on the first request: not part of any timing below.
    await api.post('/v1/web/markdown', { url: `${site.origin}/after-0` }, key);
  });
  afterAll(async () => {
    await server?.close();
    await site?.close();
  });

  /** Asks for the markdown twice: on a fresh page, and on the warm page the first request left. */
  async function expectReadSoon(path: string) {
    for (const round of [1, 2]) {
      const started = performance.now();
      const res = await api.post('/v1/web/markdown', { url: `${site.origin}${path}`, maxAge: 0 }, key);
      const elapsedMs = performance.now() - started;
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.markdown, `round ${round}`).toContain('# Title');
      expect(res.body.data.markdown, `round ${round}`).toContain('words words words');
      expect((res.body.data.metadata.warnings ?? []).map((warning: { code: string }) => warning.code), `round ${round}`).toEqual([]);
      // Generous for a busy 2-core machine; the bug took 5.6 s (the 5 s late-content wait, spent for nothing).
      expect(elapsedMs, `round ${round}`).toBeLessThan(3_000);
    }
  }

  it.each(DELAYS)('reads the markdown of an empty page written %i ms after its script runs, well within the late-content wait', async (delay) => {
    await expectReadSoon(`/after-${delay}`);
  });

  it.each(DELAYS)('reads the markdown of a "Loading..." page written %i ms after its script runs, well within the late-content wait', async (delay) => {
    await expectReadSoon(`/loading-${delay}`);
  });
});
