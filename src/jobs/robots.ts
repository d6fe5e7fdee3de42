import { EventLoopSlices } from '../event-loop.js';

/** The user agent token Pluck's crawler answers to in robots.txt (besides `*`). */
export const CRAWLER_TOKEN = 'pluck';

/**
 * What Pluck takes from a site's robots.txt: a hostile or huge file costs a job at most this
 * much. With these, checking one URL costs at most `rules` scans of its path (see
 * RobotsPattern), whatever the rules hold, and the check gives the event loop a turn between
 * slices of rules.
 */
export const ROBOTS_LIMITS = {
  /** Bytes read; the rest of the file is ignored (Google reads 500 KiB). */
  bytes: 512 * 1024,
  /** Rules applied (those of the group or groups chosen for Pluck, in file order); later ones are ignored. */
  rules: 1000,
  /** Characters of one rule's path; a longer rule is ignored (real rules are far shorter). */
  ruleLength: 512,
  /** `Sitemap:` lines taken (a job reads at most 50 sitemap files anyway). */
  sitemaps: 100,
};

/** What a site's robots.txt says to Pluck: path rules and the sitemaps it names. */
export interface RobotsRules {
  /** Whether Pluck may load `url`; a long check pauses on `slices` so other requests get their turn. */
  isAllowed(url: string, slices?: EventLoopSlices): Promise<boolean>;
  sitemaps: string[];
  /** Rules of the chosen groups left out by ROBOTS_LIMITS (too long, or past the count). */
  ignoredRules: number;
}

export const ALLOW_EVERYTHING: RobotsRules = { isAllowed: async () => true, sitemaps: [], ignoredRules: 0 };

/** Rules tried between two looks at the clock: 16 scans of the longest path take a few milliseconds. */
const RULES_PER_PAUSE = 16;
/** Pieces up to this length are found with String.indexOf (fast, and near-linear for short pieces); longer ones by KMP. */
const NATIVE_SEARCH_MAX = 64;

/**
 * A robots.txt path pattern: `*` stands for any run of characters, a final `$` anchors the end;
 * everything else is literal. Matched without regular expressions, in one left-to-right pass:
 * the text before the first `*` is a prefix, each later piece is found after the one before
 * (the leftmost place is always right for `*`-only patterns, since it leaves the most room for
 * the rest), and with `$` the last piece must end the path. So one rule costs at most one scan
 * of the path whatever its `*`s and pieces, where a backtracking RegExp (`/*a*a*a*b`) took time
 * growing with the path's length to the power of the number of `*`. Long pieces are found by
 * Knuth-Morris-Pratt: String.indexOf slows down with the piece's length on a path where the
 * piece almost matches everywhere.
 */
export class RobotsPattern {
  private readonly prefix: string;
  /** Pieces after the prefix, empty ones (from `**`) dropped. */
  private readonly pieces: PieceSearch[];
  /** The pattern has a `*`: anything may follow its prefix. */
  private readonly hasWildcard: boolean;
  private readonly anchored: boolean;

  constructor(readonly source: string) {
    const body = source.endsWith('$') ? source.slice(0, -1) : source;
    // `*$` ends nothing more than `*` does.
    this.anchored = body !== source && !body.endsWith('*');
    const pieces = body.split('*');
    this.prefix = pieces[0] as string;
    this.hasWildcard = pieces.length > 1;
    this.pieces = pieces
      .slice(1)
      .filter((piece) => piece !== '')
      .map((piece) => new PieceSearch(piece));
  }

  matches(path: string): boolean {
    if (!path.startsWith(this.prefix)) return false;
    if (!this.hasWildcard) return !this.anchored || path.length === this.prefix.length;
    let from = this.prefix.length;
    const last = this.pieces.length - 1;
    for (let index = 0; index <= last; index += 1) {
      const piece = this.pieces[index] as PieceSearch;
      // Anchored, the last piece must end the path: leftmost is not the answer there.
      if (index === last && this.anchored) return path.length - piece.text.length >= from && path.endsWith(piece.text);
      const at = piece.find(path, from);
      if (at < 0) return false;
      from = at + piece.text.length;
    }
    return true;
  }
}

/** Finding one literal piece in a path, in time linear in the path. */
class PieceSearch {
  /** The piece's UTF-16 code units, for KMP (empty for a piece String.indexOf finds). */
  private readonly codes: Uint16Array;
  /** For each prefix of the piece, the length of its longest proper prefix that is also its suffix. */
  private readonly fallback: Int32Array;

  constructor(readonly text: string) {
    const long = text.length > NATIVE_SEARCH_MAX;
    // By code unit (a string's own iterator would go by code point).
    this.codes = long ? Uint16Array.from({ length: text.length }, (_, index) => text.charCodeAt(index)) : new Uint16Array(0);
    this.fallback = new Int32Array(this.codes.length);
    for (let index = 1, matched = 0; index < this.codes.length; index += 1) {
      while (matched > 0 && this.codes[index] !== this.codes[matched]) matched = this.fallback[matched - 1] as number;
      if (this.codes[index] === this.codes[matched]) matched += 1;
      this.fallback[index] = matched;
    }
  }

  /** Where the piece first occurs in `path` at or after `from`; -1 when it does not. */
  find(path: string, from: number): number {
    const { codes, fallback } = this;
    if (codes.length === 0) return path.indexOf(this.text, from);
    const length = codes.length;
    for (let index = from, matched = 0; index < path.length; index += 1) {
      const code = path.charCodeAt(index);
      while (matched > 0 && code !== codes[matched]) matched = fallback[matched - 1] as number;
      if (code === codes[matched]) matched += 1;
      if (matched === length) return index - length + 1;
    }
    return -1;
  }
}

interface RawRule {
  allow: boolean;
  pattern: string;
}

interface Group {
  agents: string[];
  rules: RawRule[];
}

/**
 * Reads robots.txt as RFC 9309 describes: the group naming `pluck` if there is one, else the
 * `*` group; the longest matching rule wins, Allow on a tie; `*` and `$` in patterns. Sitemap
 * lines apply whatever group they sit in. Linear in the text's length; ROBOTS_LIMITS bound
 * what is kept.
 */
export function parseRobots(text: string, origin: string): RobotsRules {
  const groups: Group[] = [];
  const sitemaps: string[] = [];
  let current: Group | undefined;
  let lastWasAgent = false;
  for (const rawLine of text.split(/\r\n|\n|\r/)) {
    const hash = rawLine.indexOf('#');
    const line = (hash < 0 ? rawLine : rawLine.slice(0, hash)).trim();
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const field = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (field === 'sitemap') {
      if (sitemaps.length < ROBOTS_LIMITS.sitemaps && URL.canParse(value, origin)) sitemaps.push(new URL(value, origin).href);
      continue;
    }
    if (field === 'user-agent') {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (!current || (field !== 'allow' && field !== 'disallow')) continue;
    // An empty Disallow allows everything: no rule.
    if (value === '') continue;
    current.rules.push({ allow: field === 'allow', pattern: percentEncoded(value) });
  }
  const own = groups.filter((group) => group.agents.some((agent) => agent !== '*' && CRAWLER_TOKEN.startsWith(agent)));
  const chosen = (own.length > 0 ? own : groups.filter((group) => group.agents.includes('*'))).flatMap((group) => group.rules);
  const kept = chosen.filter((rule) => rule.pattern.length <= ROBOTS_LIMITS.ruleLength).slice(0, ROBOTS_LIMITS.rules);
  return { sitemaps, ignoredRules: chosen.length - kept.length, isAllowed: ruleChecker(kept) };
}

/**
 * A rule's characters beyond ASCII percent-encoded (UTF-8), as RFC 9309 asks before comparing:
 * the paths it is compared with come from the URL parser, which encodes them so
 * (`Disallow: /café` is `/caf%C3%A9`). A lone surrogate cannot be encoded: left as written.
 */
function percentEncoded(pattern: string): string {
  return pattern.replace(/[^\x00-\x7f]+/g, (run) => {
    try {
      return encodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/**
 * The check of one URL against rules: tried most specific first (longest pattern, Allow
 * before Disallow of the same length), so the first that matches decides.
 */
function ruleChecker(rules: RawRule[]): RobotsRules['isAllowed'] {
  const ordered = rules
    .map((rule) => ({ allow: rule.allow, pattern: new RobotsPattern(rule.pattern) }))
    .sort((a, b) => b.pattern.source.length - a.pattern.source.length || Number(b.allow) - Number(a.allow));
  return async (url, slices = new EventLoopSlices()) => {
    const parsed = new URL(url);
    const path = `${parsed.pathname}${parsed.search}`;
    for (let index = 0; index < ordered.length; index += 1) {
      if (index % RULES_PER_PAUSE === RULES_PER_PAUSE - 1) await slices.pause();
      const rule = ordered[index] as (typeof ordered)[number];
      if (rule.pattern.matches(path)) return rule.allow;
    }
    return true;
  };
}
