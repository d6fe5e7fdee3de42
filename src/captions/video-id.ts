const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;

const YOUTUBE_HOSTS = new Set([
  'youtube.com',
  'www.youtube.com',
  'm.youtube.com',
  'music.youtube.com',
  'youtube-nocookie.com',
  'www.youtube-nocookie.com',
]);

/** Path prefixes that carry the id as their next segment: /shorts/ID, /embed/ID, /live/ID, /v/ID. */
const ID_PATH = /^\/(?:shorts|embed|live|v)\/([^/?#]+)/;

/**
 * The 11-character video id in a bare id or a YouTube URL (watch?v=, youtu.be/, shorts/,
 * embed/, live/; the scheme may be left out). Undefined for anything else.
 */
export function parseVideoId(input: string): string | undefined {
  const text = input.trim();
  if (VIDEO_ID.test(text)) return text;
  const url = parseUrl(text);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return undefined;
  const host = url.hostname.toLowerCase();
  let candidate: string | undefined | null;
  if (host === 'youtu.be' || host === 'www.youtu.be') {
    candidate = url.pathname.split('/')[1];
  } else if (YOUTUBE_HOSTS.has(host)) {
    candidate = url.pathname === '/watch' ? url.searchParams.get('v') : ID_PATH.exec(url.pathname)?.[1];
  }
  return candidate && VIDEO_ID.test(candidate) ? candidate : undefined;
}

function parseUrl(text: string): URL | undefined {
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`;
  try {
    return new URL(withScheme);
  } catch {
    return undefined;
  }
}
