import { describe, expect, it } from 'vitest';
import { YouTubeClient } from '../../src/captions/youtube-client.js';

/**
 * Which caption URLs from a player response may be fetched. With YouTube's own base any https
 * youtube.com host on the default port is fine; with another base only its exact origin is.
 * (The HTTP test proves a refused URL is never requested; this pins the rule itself.)
 */
describe('caption URL trust', () => {
  const youtube = new YouTubeClient({ baseUrl: 'https://www.youtube.com', timeoutMs: 1000 });
  const standIn = new YouTubeClient({ baseUrl: 'http://127.0.0.1:4555', timeoutMs: 1000 });

  it.each([
    'https://www.youtube.com/api/timedtext?v=abc&lang=en',
    'https://youtube.com/api/timedtext?v=abc',
    'https://m.youtube.com/api/timedtext?v=abc',
    '/api/timedtext?v=abc',
  ])('with the default base, fetches %s', (url) => {
    expect(youtube.trustedCaptionUrl(url)?.hostname).toMatch(/(^|\.)youtube\.com$/);
  });

  it.each([
    'http://www.youtube.com/api/timedtext?v=abc',
    'https://youtube.com.evil.example/api/timedtext',
    'https://notyoutube.com/api/timedtext',
    'https://evil.example/api/timedtext?host=www.youtube.com',
    '//evil.example/api/timedtext',
    'https://www.youtube.com:8443/api/timedtext',
    'https://user:pass@www.youtube.com/api/timedtext',
    'file:///etc/passwd',
    'http://169.254.169.254/latest/meta-data/',
  ])('with the default base, refuses %s', (url) => {
    expect(youtube.trustedCaptionUrl(url)).toBeUndefined();
  });

  it('with a configured base, accepts only that exact origin', () => {
    expect(standIn.trustedCaptionUrl('http://127.0.0.1:4555/api/timedtext?v=abc')?.pathname).toBe('/api/timedtext');
    expect(standIn.trustedCaptionUrl('http://127.0.0.1:4556/api/timedtext')).toBeUndefined();
    expect(standIn.trustedCaptionUrl('https://www.youtube.com/api/timedtext')).toBeUndefined();
    expect(standIn.trustedCaptionUrl('http://localhost:4555/api/timedtext')).toBeUndefined();
  });
});
