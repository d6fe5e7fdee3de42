import { plainText } from '../providers/plain-text.js';

/** One caption line as the API answers it: times in seconds, as strings. */
export interface Caption {
  start: string;
  dur: string;
  text: string;
}

/** The timed-text body is in none of the formats this reader knows. */
export class UnreadableTimedText extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableTimedText';
  }
}

/**
 * Reads YouTube's timed text in whichever format the track URL produced: the classic XML
 * (`<transcript><text start="s" dur="s">`), srv3 (`<timedtext><body><p t="ms" d="ms">`) or
 * json3 (`{events: [{tStartMs, dDurationMs, segs: [{utf8}]}]}`). Empty lines are dropped.
 */
export function parseTimedText(body: string): Caption[] {
  const text = body.trim();
  if (text.startsWith('{')) return parseJson3(text);
  if (/<transcript[\s>]/.test(text)) return parseClassicXml(text);
  if (/<timedtext[\s>]/.test(text)) return parseSrv3(text);
  throw new UnreadableTimedText('caption track is neither timed-text XML nor json3');
}

function parseClassicXml(xml: string): Caption[] {
  const captions: Caption[] = [];
  for (const match of xml.matchAll(/<text\b([^>]*)>([\s\S]*?)<\/text>/g)) {
    const attributes = readAttributes(match[1] ?? '');
    const text = plainText(match[2] ?? '');
    if (!text) continue;
    captions.push({ start: seconds(attributes.start), dur: seconds(attributes.dur), text });
  }
  return captions;
}

function parseSrv3(xml: string): Caption[] {
  const captions: Caption[] = [];
  for (const match of xml.matchAll(/<p\b([^>]*)>([\s\S]*?)<\/p>/g)) {
    const attributes = readAttributes(match[1] ?? '');
    const text = plainText(match[2] ?? '');
    if (!text) continue;
    captions.push({ start: fromMilliseconds(Number(attributes.t)), dur: fromMilliseconds(Number(attributes.d)), text });
  }
  return captions;
}

function parseJson3(body: string): Caption[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new UnreadableTimedText('caption track looks like json3 but is not JSON');
  }
  const events = (parsed as { events?: unknown }).events;
  if (!Array.isArray(events)) throw new UnreadableTimedText('json3 caption track has no events array');
  const captions: Caption[] = [];
  for (const event of events as { tStartMs?: unknown; dDurationMs?: unknown; segs?: unknown }[]) {
    // Events without segments only define windows and styles.
    if (!Array.isArray(event?.segs)) continue;
    const raw = event.segs.map((segment: { utf8?: unknown }) => (typeof segment?.utf8 === 'string' ? segment.utf8 : '')).join('');
    const text = plainText(raw);
    if (!text) continue;
    captions.push({ start: fromMilliseconds(Number(event.tStartMs)), dur: fromMilliseconds(Number(event.dDurationMs)), text });
  }
  return captions;
}

function readAttributes(source: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const match of source.matchAll(/([a-zA-Z_:][\w:.-]*)\s*=\s*"([^"]*)"/g)) attributes[match[1]!] = match[2]!;
  return attributes;
}

/** Seconds as the classic format writes them; anything unreadable becomes "0". */
function seconds(value: string | undefined): string {
  const number = Number(value);
  return value !== undefined && value.trim() !== '' && Number.isFinite(number) && number >= 0 ? String(number) : '0';
}

function fromMilliseconds(ms: number): string {
  return Number.isFinite(ms) && ms >= 0 ? String(Math.round(ms) / 1000) : '0';
}
