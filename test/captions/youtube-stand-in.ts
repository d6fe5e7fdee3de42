import type { ServerResponse } from 'node:http';
import { type RecordedRequest, sendJson, sendText, type StandIn, startStandIn } from '../helpers/loopback-stand-in.js';

/** Videos the stand-in knows; every id is 11 characters like YouTube's. */
export const VIDEOS = {
  /** InnerTube lists many tracks, in an order that punishes "take the first match". */
  multi: 'multiTrack1',
  /** InnerTube refuses (bot check); only the watch page's ytInitialPlayerResponse has tracks. */
  pageOnly: 'pageOnly_01',
  /** Playable, but without any captions. */
  noCaptions: 'noCaptions1',
  /** InnerTube: playabilityStatus ERROR. */
  unknown: 'unknownVid1',
  /** Its only track points at another origin. */
  foreign: 'foreignUrl1',
  /** Every YouTube endpoint answers 500. */
  down: 'youtubeDown',
  /** Every YouTube endpoint answers 429 ("unusual traffic from your computer network"). */
  limited: 'rateLimited',
  /** Its track is on the YouTube origin, but the timed-text endpoint redirects elsewhere. */
  redirect: 'redirectOut',
} as const;

const UNUSUAL_TRAFFIC = '<html><body>Our systems have detected unusual traffic from your computer network.</body></html>';

interface TrackSpec {
  lang: string;
  asr?: boolean;
  fmt?: 'json3' | 'srv3';
}

const MULTI_TRACKS: TrackSpec[] = [
  { lang: 'en', asr: true, fmt: 'json3' },
  { lang: 'de', asr: true, fmt: 'json3' },
  { lang: 'en-US', fmt: 'json3' },
  { lang: 'en' },
  { lang: 'fr', asr: true, fmt: 'json3' },
  { lang: 'pt-BR', fmt: 'srv3' },
];

function captionTrack(origin: string, videoId: string, spec: TrackSpec) {
  const url = new URL('/api/timedtext', origin);
  url.searchParams.set('v', videoId);
  url.searchParams.set('caps', 'asr');
  url.searchParams.set('lang', spec.lang);
  if (spec.asr) url.searchParams.set('kind', 'asr');
  if (spec.fmt) url.searchParams.set('fmt', spec.fmt);
  return {
    baseUrl: url.toString(),
    name: spec.asr ? { runs: [{ text: `${spec.lang} (auto-generated)` }] } : { simpleText: `Language ${spec.lang}` },
    vssId: `${spec.asr ? 'a' : ''}.${spec.lang}`,
    languageCode: spec.lang,
    ...(spec.asr ? { kind: 'asr' } : {}),
    isTranslatable: true,
    trackName: '',
  };
}

function playerResponse(videoId: string, status: string, tracks: unknown[] | undefined, reason?: string) {
  return {
    responseContext: { visitorData: 'Cgt4eHh4eHh4eHh4eA%3D%3D' },
    playabilityStatus: { status, ...(reason ? { reason } : {}), playableInEmbed: true },
    ...(tracks
      ? {
          captions: {
            playerCaptionsTracklistRenderer: {
              captionTracks: tracks,
              audioTracks: [{ captionTrackIndices: [0], audioTrackId: 'default' }],
              translationLanguages: [{ languageCode: 'af', languageName: { simpleText: 'Afrikaans' } }],
              defaultAudioTrackIndex: 0,
            },
          },
        }
      : {}),
    videoDetails: {
      videoId,
      title: `Title of ${videoId}`,
      lengthSeconds: '212',
      shortDescription: `Description of ${videoId} with "quotes" and }; inside`,
      author: 'Stand-in channel',
    },
  };
}

/**
 * YouTube as the captions client sees it: `POST /youtubei/v1/player`, `GET /watch?v=` (HTML
 * with `var ytInitialPlayerResponse = {...};`) and `GET /api/timedtext` (classic XML, srv3
 * or json3, by the track URL's `fmt`). `foreignOrigin` is where the foreign video's track points.
 */
export function startYouTubeStandIn(foreignOrigin: () => string): Promise<StandIn> {
  let origin = '';
  const handle = (request: RecordedRequest, response: ServerResponse) => {
    origin ||= `http://${request.headers.host}`;
    if (request.method === 'POST' && request.url.pathname === '/youtubei/v1/player') return innertube(request, response, origin);
    if (request.method === 'GET' && request.url.pathname === '/watch') return watchPage(request, response, origin);
    if (request.method === 'GET' && request.url.pathname === '/api/timedtext') {
      if (request.url.searchParams.get('v') === VIDEOS.redirect) {
        response.writeHead(302, { location: `${foreignOrigin()}/api/timedtext?v=${VIDEOS.redirect}` });
        response.end();
        return;
      }
      return timedText(request, response);
    }
    sendText(response, 404, 'text/html', '<h1>404</h1>');
  };

  function innertube(request: RecordedRequest, response: ServerResponse, base: string) {
    const { videoId } = JSON.parse(request.body) as { videoId: string };
    switch (videoId) {
      case VIDEOS.multi:
        return sendJson(response, 200, playerResponse(videoId, 'OK', MULTI_TRACKS.map((t) => captionTrack(base, videoId, t))));
      case VIDEOS.pageOnly:
        return sendJson(response, 200, playerResponse(videoId, 'LOGIN_REQUIRED', undefined, "Sign in to confirm you're not a bot"));
      case VIDEOS.noCaptions:
        return sendJson(response, 200, playerResponse(videoId, 'OK', undefined));
      case VIDEOS.foreign:
        return sendJson(response, 200, playerResponse(videoId, 'OK', [captionTrack(foreignOrigin(), videoId, { lang: 'en' })]));
      case VIDEOS.down:
        return sendText(response, 500, 'text/html', 'Internal Server Error');
      case VIDEOS.limited:
        return sendText(response, 429, 'text/html', UNUSUAL_TRAFFIC);
      case VIDEOS.redirect:
        return sendJson(response, 200, playerResponse(videoId, 'OK', [captionTrack(base, videoId, { lang: 'en' })]));
      default:
        return sendJson(response, 200, playerResponse(videoId, 'ERROR', undefined, 'This video is unavailable'));
    }
  }

  function watchPage(request: RecordedRequest, response: ServerResponse, base: string) {
    const videoId = request.url.searchParams.get('v') ?? '';
    if (videoId === VIDEOS.down) return sendText(response, 500, 'text/html', 'Internal Server Error');
    if (videoId === VIDEOS.limited) return sendText(response, 429, 'text/html', UNUSUAL_TRAFFIC);
    const player =
      videoId === VIDEOS.pageOnly
        ? playerResponse(videoId, 'OK', [captionTrack(base, videoId, { lang: 'en' })])
        : videoId === VIDEOS.noCaptions
          ? playerResponse(videoId, 'OK', undefined)
          : playerResponse(videoId, 'ERROR', undefined, 'This video is unavailable');
    const html = `<!DOCTYPE html><html><head><title>${videoId} - YouTube</title></head><body>
<script nonce="abc">var ytInitialPlayerResponse = ${JSON.stringify(player)};var meta = document.createElement('meta');</script>
<script nonce="abc">var ytInitialData = {"contents":{}};</script></body></html>`;
    sendText(response, 200, 'text/html; charset=utf-8', html);
  }

  return startStandIn(handle);
}

function timedText(request: RecordedRequest, response: ServerResponse) {
  const lang = request.url.searchParams.get('lang') ?? '';
  const fmt = request.url.searchParams.get('fmt');
  const tag = `${lang}${request.url.searchParams.get('kind') === 'asr' ? ' asr' : ''}`;
  if (fmt === 'json3') return sendJson(response, 200, json3(tag));
  if (fmt === 'srv3') return sendText(response, 200, 'text/xml; charset=UTF-8', srv3(tag));
  sendText(response, 200, 'text/xml; charset=UTF-8', classicXml(tag));
}

/** The classic format: entities escaped twice, styling as escaped `<font>` tags. */
function classicXml(tag: string) {
  return `<?xml version="1.0" encoding="utf-8" ?><transcript>
<text start="0" dur="1.54">[${tag}] Hey, it&amp;#39;s &amp;quot;quoted&amp;quot; &amp;amp; fine</text>
<text start="1.54" dur="4.16">&lt;font color=&quot;#E5E5E5&quot;&gt;styled&lt;/font&gt; line
two</text>
<text start="5.7" dur="3.239"></text>
<text start="5.7" dur="3.239">caf&#233; &lt;3</text>
</transcript>`;
}

function srv3(tag: string) {
  return `<?xml version="1.0" encoding="utf-8" ?><timedtext format="3"><body>
<p t="0" d="900">[${tag}] ol&#225;<s> mundo</s></p>
<p t="900" d="1100"><s>tchau</s></p>
</body></timedtext>`;
}

function json3(tag: string) {
  return {
    wireMagic: 'pb3',
    pens: [{}],
    wsWinStyles: [{}],
    wpWinPositions: [{}],
    events: [
      { tStartMs: 0, dDurationMs: 209000, id: 1, wpWinPosId: 1, wsWinStyleId: 1 },
      { tStartMs: 1540, dDurationMs: 4160, wWinId: 1, segs: [{ utf8: `[${tag}]` }, { utf8: ' Tom', tOffsetMs: 240 }, { utf8: ' &amp; Jerry' }] },
      { tStartMs: 5700, dDurationMs: 1000, wWinId: 1, aAppend: 1, segs: [{ utf8: '\n' }] },
      { tStartMs: 6000, wWinId: 1, segs: [{ utf8: 'no duration' }] },
    ],
  };
}
