import { createHash } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import type { EventLoopSlices } from '../event-loop.js';
import { withoutTrailingSlashes } from '../net/url-text.js';

/** Longest URL a job keeps: longer ones are dropped at discovery (browsers cut near here too). */
export const MAX_JOB_URL_LENGTH = 8192;
/** Longest path a caller's include/exclude pattern is tested against: bounds the regex's work. */
const MAX_MATCHED_PATH_LENGTH = 1024;
/** Places that can backtrack in one pattern (repetitions, an unanchored start): with k of them a match may take path length ^ k steps. */
const MAX_REPETITIONS = 2;

/**
 * The form a crawl compares and loads URLs in: no fragment, query parameters sorted, and the
 * path without a trailing slash (the root keeps its own). Undefined for anything but http(s).
 */
export function normaliseUrl(input: string, base?: string): string | undefined {
  let url: URL;
  try {
    url = new URL(input, base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.hash = '';
  url.username = '';
  url.password = '';
  url.searchParams.sort();
  if (url.pathname.length > 1 && url.pathname.endsWith('/')) url.pathname = withoutTrailingSlashes(url.pathname) || '/';
  const href = url.href;
  return href.length <= MAX_JOB_URL_LENGTH ? href : undefined;
}

/** What makes two spellings of one URL one task: a digest of its normal form (bounded, for the unique index). */
export function urlKey(normalised: string): string {
  return createHash('sha256').update(normalised).digest('hex');
}

export interface ScopeRules {
  /** Hostname of the start URL; without `www.` so both spellings are one site. */
  site: string;
  allowSubdomains: boolean;
  allowExternalLinks: boolean;
  includePaths: RegExp[];
  excludePaths: RegExp[];
}

export function siteOf(hostname: string): string {
  return hostname.replace(/^www\./, '');
}

/**
 * True when a crawl may follow `url` (already normalised): on the site, and through the path
 * filters. Each screened pattern costs at most a few milliseconds on the longest path, and there
 * may be 40 of them: the check pauses on `slices` between patterns.
 */
export async function isInScope(url: string, rules: ScopeRules, slices: EventLoopSlices): Promise<boolean> {
  const parsed = new URL(url);
  const host = siteOf(parsed.hostname);
  const onSite = host === rules.site || (rules.allowSubdomains && host.endsWith(`.${rules.site}`));
  if (!onSite && !rules.allowExternalLinks) return false;
  const path = `${parsed.pathname}${parsed.search}`.slice(0, MAX_MATCHED_PATH_LENGTH);
  for (const pattern of rules.excludePaths) {
    await slices.pause();
    if (pattern.test(path)) return false;
  }
  if (rules.includePaths.length === 0) return true;
  for (const pattern of rules.includePaths) {
    await slices.pause();
    if (pattern.test(path)) return true;
  }
  return false;
}

/** Patterns as the caller sent them (checked by the route: bounded length, valid syntax). */
export function compilePatterns(patterns: string[]): RegExp[] {
  return patterns.map((pattern) => new RegExp(pattern, 'u'));
}

/** True when `pattern` compiles as a JavaScript regular expression. */
export function isValidPattern(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/** Why a pattern `mayBacktrackBadly` is refused, for validation answers. */
export const SLOW_PATTERN_MESSAGE =
  'At most 2 repetitions (*, +, ?, {n,m}), counting the search for a start as one unless the pattern begins with ^ and not counting one that ends the pattern; none inside a repeated group, no alternatives inside a repeated group, no backreferences: other patterns can take too long to match';

/**
 * True when a pattern could take too long (JavaScript's engine backtracks): a repeated group
 * holding a repetition or an alternative, as in `(a+)+` or `(a|ab)*` (exponential), a
 * backreference, or more than MAX_REPETITIONS places that can backtrack: each repetition that
 * can give back characters multiplies the work by the path's length, and so does an unanchored
 * pattern's search for a start (`.*a.*b` took 1.3 s on one 1024-character path; `a?` 26 times
 * then `a{26}` took 99 s on 40 characters). A repetition ending the pattern never gives back (the
 * match is found once it is reached) and an exact count (`{4}`) has no choice: neither counts.
 * Such patterns run against every URL a crawl finds, on the server's one thread.
 */
export function mayBacktrackBadly(pattern: string): boolean {
  const groups: boolean[] = [];
  let repetitions = 0;
  let topLevelAlternative = false;
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index];
    let atomEnd = index;
    let closesRiskyGroup = false;
    if (char === '\\') {
      const next = pattern[index + 1] ?? '';
      if (/[1-9k]/.test(next)) return true;
      // \p{...}, \P{...}, \u{...} hold braces that are not a repetition.
      atomEnd = /[pPu]/.test(next) && pattern[index + 2] === '{' ? pattern.indexOf('}', index) : index + 1;
    } else if (char === '[') {
      atomEnd = classEnd(pattern, index);
    } else if (char === '(') {
      groups.push(false);
      // (?:, (?=, (?!, (?<=, (?<!, (?<name>: the ? is syntax, not a repetition.
      if (pattern[index + 1] === '?') index = groupSyntaxEnd(pattern, index);
      continue;
    } else if (char === '|') {
      if (groups.length > 0) groups[groups.length - 1] = true;
      else topLevelAlternative = true;
      continue;
    } else if (char === ')') {
      closesRiskyGroup = groups.pop() ?? false;
    }
    const quantifier = quantifierAt(pattern, atomEnd + 1);
    if (quantifier === undefined) {
      index = atomEnd;
      if (closesRiskyGroup && groups.length > 0) groups[groups.length - 1] = true;
      continue;
    }
    if (closesRiskyGroup) return true;
    index = quantifier.end - 1;
    if (!quantifier.exact && quantifier.end < pattern.length) repetitions += 1;
    if (groups.length > 0 && !quantifier.exact) groups[groups.length - 1] = true;
  }
  const anchored = pattern.startsWith('^') && !topLevelAlternative;
  return repetitions + (anchored ? 0 : 1) > MAX_REPETITIONS;
}

/** The quantifier starting at `index` (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, each maybe lazy): where it ends, and whether it is an exact count. */
function quantifierAt(pattern: string, index: number): { end: number; exact: boolean } | undefined {
  const char = pattern[index];
  let end: number;
  let exact = false;
  if (char === '*' || char === '+' || char === '?') end = index + 1;
  else if (char === '{') {
    const close = pattern.indexOf('}', index);
    if (close < 0) return undefined;
    exact = /^\{\d+\}$/.test(pattern.slice(index, close + 1));
    end = close + 1;
  } else return undefined;
  return { end: pattern[end] === '?' ? end + 1 : end, exact };
}

/** Index of the last character of a group's opening syntax (`(?:`, `(?=`, `(?<!`, `(?<name>`...). */
function groupSyntaxEnd(pattern: string, open: number): number {
  if (pattern[open + 2] !== '<') return open + 2;
  if (pattern[open + 3] === '=' || pattern[open + 3] === '!') return open + 3;
  return pattern.indexOf('>', open);
}

/** Index of the `]` closing the class opened at `start`. */
function classEnd(pattern: string, start: number): number {
  for (let index = start + 1; index < pattern.length; index += 1) {
    if (pattern[index] === '\\') index += 1;
    else if (pattern[index] === ']') return index;
  }
  return pattern.length - 1;
}

/** Bound on one include/exclude pattern and on their number: they run against every discovered URL. */
const MAX_PATTERN_LENGTH = 200;
const MAX_PATTERNS = 20;

/** Include/exclude path patterns as every route that starts a crawl takes them (jobs, Firecrawl, MCP). */
export const pathPatternList = z
  .array(
    z
      .string()
      .min(1)
      .max(MAX_PATTERN_LENGTH)
      .refine(isValidPattern, 'Not a valid regular expression')
      .refine((value) => !mayBacktrackBadly(value), SLOW_PATTERN_MESSAGE),
  )
  .max(MAX_PATTERNS);
