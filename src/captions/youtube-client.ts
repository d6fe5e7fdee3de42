import { fetchJson, fetchText, UpstreamError } from '../providers/bounded-fetch.js';
import { type PlayerInfo, readPlayerResponse } from './caption-tracks.js';

/** InnerTube answers the ANDROID client with caption URLs that need no proof-of-origin token. */
const INNERTUBE_CLIENT = { clientName: 'ANDROID', clientVersion: '20.10.38', hl: 'en' };
const INNERTUBE_USER_AGENT = 'com.google.android.youtube/20.10.38 (Linux; U; Android 14) gzip';

const MAX_PLAYER_BYTES = 4 * 1024 * 1024;
/** Watch pages run to about 1.5 MB of HTML and inline script. */
const MAX_WATCH_PAGE_BYTES = 6 * 1024 * 1024;
const MAX_TIMED_TEXT_BYTES = 5 * 1024 * 1024;

/** The player response offered a caption URL outside YouTube's origin; it is never fetched. */
export class UntrustedCaptionUrl extends Error {
  constructor(readonly url: string) {
    super('caption track URL is outside the YouTube origin');
    this.name = 'UntrustedCaptionUrl';
  }
}

export interface YouTubeSettings {
  /** Operator-configured and trusted; default https://www.youtube.com. */
  baseUrl: string;
  timeoutMs: number;
}

/**
 * YouTube as far as captions need it: the player response (InnerTube first, the watch page's
 * `ytInitialPlayerResponse` when InnerTube gives nothing usable) and the timed text of a track.
 */
export class YouTubeClient {
  private readonly base: URL;

  constructor(private readonly settings: YouTubeSettings) {
    this.base = new URL(settings.baseUrl);
  }

  /**
   * The most useful player response for `videoId`. An InnerTube answer with caption tracks,
   * or one saying the video does not exist, is final; otherwise the watch page is asked too.
   */
  async playerInfo(videoId: string, signal?: AbortSignal): Promise<PlayerInfo> {
    const innertube = await this.innertubePlayer(videoId, signal).catch(failureOrRethrow);
    if (!(innertube instanceof Error) && (innertube.tracks.length > 0 || innertube.status === 'ERROR')) return innertube;
    const page = await this.watchPagePlayer(videoId, signal).catch(failureOrRethrow);
    const candidates = [innertube, page].filter((info): info is PlayerInfo => !(info instanceof Error));
    const best = candidates.sort((a, b) => usefulness(b) - usefulness(a))[0];
    if (best) return best;
    throw innertube instanceof Error ? innertube : page;
  }

  /** Timed text of a track, fetched only when its URL is on the YouTube origin. */
  async timedText(baseUrl: string, signal?: AbortSignal): Promise<string> {
    const url = this.trustedCaptionUrl(baseUrl);
    if (!url) throw new UntrustedCaptionUrl(baseUrl);
    const response = await fetchText({ url, timeoutMs: this.settings.timeoutMs, maxBytes: MAX_TIMED_TEXT_BYTES, signal });
    return response.text;
  }

  /**
   * A caption URL comes from a player response, so it is not trusted: it must resolve to the
   * configured origin, or, when that origin is YouTube's own, to an https youtube.com host.
   */
  trustedCaptionUrl(raw: string): URL | undefined {
    let url: URL;
    try {
      url = new URL(raw, this.base);
    } catch {
      return undefined;
    }
    if (url.username || url.password) return undefined;
    if (url.origin === this.base.origin) return url;
    const onYouTube = (host: string) => host === 'youtube.com' || host.endsWith('.youtube.com');
    const defaultPort = url.port === '';
    return onYouTube(this.base.hostname) && url.protocol === 'https:' && defaultPort && onYouTube(url.hostname) ? url : undefined;
  }

  private async innertubePlayer(videoId: string, signal?: AbortSignal): Promise<PlayerInfo> {
    const url = new URL('/youtubei/v1/player?prettyPrint=false', this.base);
    const body = await fetchJson({
      url,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': INNERTUBE_USER_AGENT },
      body: JSON.stringify({ context: { client: INNERTUBE_CLIENT }, videoId }),
      timeoutMs: this.settings.timeoutMs,
      maxBytes: MAX_PLAYER_BYTES,
      signal,
    });
    return readPlayerResponse(body);
  }

  private async watchPagePlayer(videoId: string, signal?: AbortSignal): Promise<PlayerInfo> {
    const url = new URL('/watch', this.base);
    url.searchParams.set('v', videoId);
    let html: string;
    try {
      const page = await fetchText({
        url,
        headers: { 'accept-language': 'en' },
        timeoutMs: this.settings.timeoutMs,
        maxBytes: MAX_WATCH_PAGE_BYTES,
        signal,
      });
      html = page.text;
    } catch (error) {
      if (error instanceof UpstreamError && error.status === 404) return NO_SUCH_VIDEO;
      throw error;
    }
    const json = extractJsonAssignment(html, 'ytInitialPlayerResponse');
    if (json === undefined) throw new UpstreamError('watch page carries no ytInitialPlayerResponse', 'invalid_body');
    try {
      return readPlayerResponse(JSON.parse(json));
    } catch (error) {
      throw new UpstreamError('ytInitialPlayerResponse is not valid JSON', 'invalid_body', undefined, { cause: error });
    }
  }
}

const NO_SUCH_VIDEO: PlayerInfo = { status: 'ERROR', reason: 'Video not found', tracks: [], title: '', description: '' };

/** Caption tracks beat a definite "no such video", which beats a playable video without tracks. */
function usefulness(info: PlayerInfo): number {
  if (info.tracks.length > 0) return 3;
  if (info.status === 'ERROR') return 2;
  if (info.status === 'OK') return 1;
  return 0;
}

/** Upstream failures become values so the other source can still be tried; cancellation and bugs propagate. */
function failureOrRethrow(error: unknown): UpstreamError {
  if (error instanceof UpstreamError && error.failure !== 'aborted') return error;
  throw error;
}

/**
 * The JSON object assigned to `name` in a page's inline script (`var name = {...};`), found
 * by walking braces while skipping string contents, since the object holds `};` in strings.
 */
export function extractJsonAssignment(html: string, name: string): string | undefined {
  const start = new RegExp(`${name}\\s*=\\s*\\{`).exec(html);
  if (!start) return undefined;
  const open = start.index + start[0].length - 1;
  let depth = 0;
  let inString = false;
  for (let i = open; i < html.length; i++) {
    const char = html[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) return html.slice(open, i + 1);
  }
  return undefined;
}
