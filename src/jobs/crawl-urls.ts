import { createHash } from 'node:crypto';
import { z } from '@hono/zod-openapi';

/** Longest URL a job keeps: longer ones are dropped at discovery (browsers cut near here too). */
export const MAX_JOB_URL_LENGTH = 8192;
/** Longest path a caller's include/exclude pattern is tested against: bounds the regex's work. */
const MAX_MATCHED_PATH_LENGTH = 1024;
/** Repetitions (`*`, `+`) one pattern may hold: with k of them a backtracking match may take path length ^ k steps. */
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
  if (url.pathname.length > 1 && url.pathname.endsWith('/')) url.pathname = url.pathname.replace(/\/+$/, '') || '/';
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

/** True when a crawl may follow `url` (already normalised): on the site, and through the path filters. */
export function isInScope(url: string, rules: ScopeRules): boolean {
  const parsed = new URL(url);
  const host = siteOf(parsed.hostname);
  const onSite = host === rules.site || (rules.allowSubdomains && host.endsWith(`.${rules.site}`));
  if (!onSite && !rules.allowExternalLinks) return false;
  const path = `${parsed.pathname}${parsed.search}`.slice(0, MAX_MATCHED_PATH_LENGTH);
  if (rules.excludePaths.some((pattern) => pattern.test(path))) return false;
  return rules.includePaths.length === 0 || rules.includePaths.some((pattern) => pattern.test(path));
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
  'At most 2 repetitions (*, +, {}), none inside a repeated group, no alternatives inside a repeated group, no backreferences: other patterns can take too long to match';

/**
 * True when a pattern could take too long (JavaScript's engine backtracks): a repeated group
 * holding a repetition or an alternative, as in `(a+)+` or `(a|ab)*` (exponential), more than
 * MAX_REPETITIONS repetitions (polynomial of that degree), or a backreference. Such patterns
 * would run against every URL a crawl finds, on the server's one thread.
 */
export function mayBacktrackBadly(pattern: string): boolean {
  if (/\\[1-9k]/.test(pattern)) return true;
  const groups: boolean[] = [];
  let inClass = false;
  let repetitions = 0;
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index];
    if (char === '\\') {
      index += 1;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      continue;
    }
    if (char === '[') inClass = true;
    else if (char === '(') groups.push(false);
    else if (char === '|' || char === '*' || char === '+' || char === '{') {
      if (char !== '|') repetitions += 1;
      if (repetitions > MAX_REPETITIONS) return true;
      if (groups.length > 0) groups[groups.length - 1] = true;
    } else if (char === ')') {
      const risky = groups.pop() ?? false;
      const next = pattern[index + 1];
      if (risky && (next === '*' || next === '+' || next === '{')) return true;
      if (risky && groups.length > 0) groups[groups.length - 1] = true;
    }
  }
  return false;
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
