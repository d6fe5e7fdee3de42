import { describe, expect, it } from 'vitest';
import { parseRobots, ROBOTS_LIMITS } from '../../src/jobs/robots.js';
import { longestStall } from '../helpers/event-loop-watch.js';
import { seededRandom } from '../helpers/seeded-random.js';

const ORIGIN = 'http://site.test';
const url = (path: string) => `${ORIGIN}${path}`;
/** Longest URL a job keeps (MAX_JOB_URL_LENGTH): the longest path a robots rule is ever matched against. */
const LONGEST_PATH = 8192 - ORIGIN.length;
/** The rule from the report: with a RegExp per `*`, one 1,500-character path stalled the server for good. */
const HOSTILE_RULE = '/*a*a*a*a*a*a*a*a*a*b';

/**
 * The reference the matcher must agree with: a pattern as the regular expression RFC 9309
 * describes (`*` any run, a final `$` the end), fine on the short inputs it is used on here.
 */
function referenceMatcher(pattern: string): RegExp {
  const anchored = pattern.endsWith('$');
  const body = (anchored ? pattern.slice(0, -1) : pattern)
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}${anchored ? '$' : ''}`);
}

/** The reference decision: the longest matching pattern wins, Allow on a tie, no match allows. */
function referenceAllows(rules: Array<{ allow: boolean; pattern: string }>, path: string): boolean {
  let best: { allow: boolean; pattern: string } | undefined;
  for (const rule of rules) {
    if (!referenceMatcher(rule.pattern).test(path)) continue;
    if (!best || rule.pattern.length > best.pattern.length || (rule.pattern.length === best.pattern.length && rule.allow)) best = rule;
  }
  return best?.allow ?? true;
}

describe('robots.txt rules', () => {
  it('applies the group naming pluck, else *; the longest rule wins, Allow on a tie; * and $ in patterns', async () => {
    const text = [
      'User-agent: *',
      'Disallow: /private',
      'Allow: /private/open',
      'Disallow: /*.pdf$',
      'Disallow: /*/secret',
      'Allow: /tie',
      'Disallow: /tie',
      'Sitemap: /sitemap-a.xml # relative, resolved against the site',
      '',
      'User-agent: otherbot',
      'Disallow: /',
      'Sitemap: https://elsewhere.test/sitemap-b.xml',
    ].join('\r\n');
    const rules = parseRobots(text, ORIGIN);
    const decisions = Object.fromEntries(
      await Promise.all(
        ['/', '/private', '/private/x', '/private/open/page', '/a.pdf', '/a.pdf?download=1', '/docs/a/secret', '/secret', '/tie', '/tied'].map(
          async (path) => [path, await rules.isAllowed(url(path))] as const,
        ),
      ),
    );
    expect(decisions).toEqual({
      '/': true,
      '/private': false,
      '/private/x': false,
      '/private/open/page': true,
      '/a.pdf': false,
      '/a.pdf?download=1': true,
      '/docs/a/secret': false,
      '/secret': true,
      '/tie': true,
      '/tied': true,
    });
    expect(rules.sitemaps).toEqual([`${ORIGIN}/sitemap-a.xml`, 'https://elsewhere.test/sitemap-b.xml']);

    // Rules are compared in the percent-encoded form the URL parser gives paths (RFC 9309).
    const accented = parseRobots('User-agent: *\nDisallow: /café\n', ORIGIN);
    expect(await accented.isAllowed(url('/café/menu'))).toBe(false);
    expect(await accented.isAllowed(url('/cafe/menu'))).toBe(true);

    const own = parseRobots('User-agent: *\nDisallow: /\n\nUser-agent: Pluck\nDisallow: /only-for-pluck\n', ORIGIN);
    expect(await own.isAllowed(url('/page'))).toBe(true);
    expect(await own.isAllowed(url('/only-for-pluck/x'))).toBe(false);
  });

  it('agrees with the regular-expression reference on 5,000 random rule sets and paths', async () => {
    const random = seededRandom(49);
    const alphabet = 'ab/$*?=';
    for (let trial = 0; trial < 5000; trial += 1) {
      const rules = Array.from({ length: random.int(1, 4) }, () => {
        let pattern = `/${random.text(alphabet, random.int(0, 6))}`;
        if (random.next() < 0.3) pattern += '$';
        return { allow: random.next() < 0.5, pattern };
      });
      const path = `/${random.text('ab/$', random.int(0, 10))}${random.next() < 0.2 ? `?${random.text('ab=', random.int(0, 4))}` : ''}`;
      const text = `User-agent: *\n${rules.map((rule) => `${rule.allow ? 'Allow' : 'Disallow'}: ${rule.pattern}`).join('\n')}\n`;
      const allowed = await parseRobots(text, ORIGIN).isAllowed(url(path));
      const expected = referenceAllows(rules, new URL(url(path)).pathname + new URL(url(path)).search);
      expect(allowed, `seed 49, trial ${trial}: ${JSON.stringify(rules)} against ${path}`).toBe(expected);
    }
  });

  it('agrees with the reference on long pieces (found by KMP) over 300 random patterns and paths', async () => {
    const random = seededRandom(4901);
    // Few letters, so that long pieces almost match in many places; an emoji for pieces and paths beyond one code unit per character.
    const letters = [...'aaaaaaaaaabbbbbbbbb', '😀'];
    const text = (length: number) => Array.from({ length }, () => random.pick(letters)).join('');
    for (let trial = 0; trial < 300; trial += 1) {
      const pieces = Array.from({ length: random.int(1, 2) }, () => text(random.int(60, 90)));
      const pattern = `/${random.next() < 0.5 ? '' : text(2)}*${pieces.join('*')}${random.next() < 0.3 ? '$' : ''}`;
      // Paths that hold the pieces, with changes here and there, and some that do not.
      let path = `/${text(random.int(0, 40))}${pieces.map((piece) => `${piece}${text(random.int(0, 20))}`).join('')}`;
      if (random.next() < 0.5) path = path.replace(/[ab]/g, (letter) => (random.next() < 0.01 ? (letter === 'a' ? 'b' : 'a') : letter));
      const rules = parseRobots(`User-agent: *\nDisallow: ${pattern}\n`, ORIGIN);
      expect(rules.ignoredRules, 'within the bounds').toBe(0);
      const parsed = new URL(url(path));
      const encodedPath = parsed.pathname + parsed.search;
      const encodedPattern = new URL(url(pattern.replace(/\*/g, '%2A'))).pathname.replace(/%2A/g, '*');
      expect(await rules.isAllowed(url(path)), `seed 4901, trial ${trial}: ${pattern} against ${path}`).toBe(!referenceMatcher(encodedPattern).test(encodedPath));
    }
  });

  it("matches the report's hostile rule against the longest path at once", async () => {
    const rules = parseRobots(`User-agent: *\nDisallow: ${HOSTILE_RULE}\n`, ORIGIN);
    const hostilePath = `/${'a'.repeat(LONGEST_PATH - 1)}`;
    const { result, elapsedMs } = await longestStall(() => rules.isAllowed(url(hostilePath)));
    expect(result).toBe(true);
    // A scan of 8 KB: well under a millisecond (the backtracking RegExp: hours). The bound leaves room for a loaded machine.
    expect(elapsedMs).toBeLessThan(200);
    expect(await rules.isAllowed(url(`${hostilePath.slice(0, -1)}b`))).toBe(false);
  });

  it('checks a URL against a full file of hostile rules without holding the event loop', async () => {
    // As many rules as are applied, each with many `*` and long pieces that almost match everywhere.
    const shapes = [
      (i: number) => `/*a*a*a*a*a*a*a*a*a*b${i}`,
      (i: number) => `/*${'a'.repeat(250)}b*${'a'.repeat(200)}c${i}`,
      (i: number) => `/*${'a'.repeat(120)}b${'a'.repeat(120)}*x${i}$`,
    ];
    const lines = Array.from({ length: ROBOTS_LIMITS.rules }, (_, i) => `Disallow: ${(shapes[i % shapes.length] as (i: number) => string)(i)}`);
    const rules = parseRobots(`User-agent: *\n${lines.join('\n')}\n`, ORIGIN);
    expect(rules.ignoredRules).toBe(0);
    const paths = [`/${'a'.repeat(LONGEST_PATH - 1)}`, `/${'ab'.repeat(LONGEST_PATH / 2 - 1)}a`, `/${'a'.repeat(LONGEST_PATH - 2)}x`];
    const { result, longestGapMs, elapsedMs } = await longestStall(async () => Promise.all(paths.map((path) => rules.isAllowed(url(path)))));
    expect(result).toEqual([true, true, true]);
    process.stdout.write(`robots: ${ROBOTS_LIMITS.rules} hostile rules x ${paths.length} paths of ${LONGEST_PATH} characters: ${elapsedMs.toFixed(0)} ms, longest event-loop gap ${longestGapMs.toFixed(0)} ms\n`);
    // Well under a second per path, in slices of a few milliseconds each (the backtracking
    // RegExp held the thread for hours). The bounds leave room for a machine shared by many.
    expect(elapsedMs / paths.length).toBeLessThan(5000);
    expect(longestGapMs).toBeLessThan(1000);
  });

  it('keeps the first rules up to the bounds and counts the ones it leaves out', async () => {
    const numbered = Array.from({ length: ROBOTS_LIMITS.rules + 200 }, (_, i) => `Disallow: /r${i}/`);
    const tooLong = `Disallow: /long/${'x'.repeat(ROBOTS_LIMITS.ruleLength)}`;
    const sitemaps = Array.from({ length: ROBOTS_LIMITS.sitemaps + 5 }, (_, i) => `Sitemap: /sitemap-${i}.xml`);
    const rules = parseRobots(`User-agent: *\n${tooLong}\n${numbered.join('\n')}\n${sitemaps.join('\n')}\n`, ORIGIN);
    expect(rules.ignoredRules).toBe(201);
    expect(await rules.isAllowed(url('/r0/page'))).toBe(false);
    expect(await rules.isAllowed(url(`/r${ROBOTS_LIMITS.rules - 1}/page`))).toBe(false);
    expect(await rules.isAllowed(url(`/r${ROBOTS_LIMITS.rules}/page`))).toBe(true);
    expect(await rules.isAllowed(url(`/long/${'x'.repeat(ROBOTS_LIMITS.ruleLength)}`))).toBe(true);
    expect(rules.sitemaps).toHaveLength(ROBOTS_LIMITS.sitemaps);
  });
});
