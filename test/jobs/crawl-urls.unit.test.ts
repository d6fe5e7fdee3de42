import { describe, expect, it } from 'vitest';
import { isValidPattern, mayBacktrackBadly, normaliseUrl } from '../../src/jobs/crawl-urls.js';
import { withoutTrailingSlashes } from '../../src/net/url-text.js';
import { seededRandom } from '../helpers/seeded-random.js';

/** Paths are matched up to this many characters (MAX_MATCHED_PATH_LENGTH). */
const MATCHED_PATH = 1024;

describe('URLs a crawl discovers', () => {
  it('normalises a link with a long run of slashes in linear time', () => {
    expect(normaliseUrl('https://example.com/docs///')).toBe('https://example.com/docs');
    expect(normaliseUrl('https://example.com///')).toBe('https://example.com/');
    expect(withoutTrailingSlashes('/a//b//')).toBe('/a//b');
    expect(withoutTrailingSlashes('///')).toBe('');
    // A page may hand over a link of megabytes: `/\/+$/` took 52 s on this one.
    const started = performance.now();
    expect(normaliseUrl(`https://example.com/${'/'.repeat(130_000)}a/`)).toBeUndefined();
    expect(normaliseUrl(`https://example.com/${'/'.repeat(8000)}a/`)).toBe(`https://example.com/${'/'.repeat(8000)}a`);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('include and exclude patterns', () => {
  it('refuses patterns that backtrack for seconds on one path, and keeps the usual ones', () => {
    const slow = [
      '(a+)+$',
      '^/(x|xx)*y',
      '(.*)*',
      '(a)\\1',
      // Accepted before, each over a second on one 1024-character path:
      '.*.*x',
      'a*a*b',
      '[^x]*[^x]*x',
      '\\w*\\w*!',
      'a{0,1000}a{0,1000}b',
      'a*a*$',
      '.*a.*b',
      // 99 s on a 41-character path: `?` is a repetition too.
      `^/${'a?'.repeat(26)}a{26}b`,
      '^/(?:a?){26}a{26}b',
    ];
    for (const pattern of slow) expect(mayBacktrackBadly(pattern), pattern).toBe(true);
    const usual = ['^/blog', '^/(blog|news)/', '/page/\\d+$', '\\.html?$', '.*\\.pdf$', '.*blog.*', '/docs/.*/api/.*', '^/docs/.*/api/.*', '/blog/\\d{4}/\\d{2}/', '^/(?<year>\\d{4})/', '[a-z]+/\\d+'];
    for (const pattern of usual) expect(mayBacktrackBadly(pattern), pattern).toBe(false);
  });

  it('lets through only patterns that match 500 random ones against hostile paths quickly', () => {
    const random = seededRandom(1049);
    const atoms = ['a', 'b', '/', '.', '[ab]', '[^b]', '\\w', '\\d', '(?:ab)', '(?:a|b)', '(a)'];
    const quantifiers = ['', '', '*', '+', '?', '{0,50}', '{2}', '*?', '+?'];
    const paths = [
      `/${'a'.repeat(MATCHED_PATH - 1)}`,
      `/${'ab'.repeat(MATCHED_PATH / 2 - 1)}a`,
      `/${'/'.repeat(MATCHED_PATH - 1)}`,
      `/${'1'.repeat(MATCHED_PATH - 1)}`,
      `/${'a'.repeat(MATCHED_PATH - 2)}c`,
    ];
    let tried = 0;
    let slowest = { ms: 0, pattern: '' };
    while (tried < 500) {
      let pattern = random.next() < 0.3 ? '^' : '';
      for (let atom = random.int(1, 5); atom > 0; atom -= 1) pattern += random.pick(atoms) + random.pick(quantifiers);
      if (random.next() < 0.3) pattern += '$';
      if (!isValidPattern(pattern) || mayBacktrackBadly(pattern)) continue;
      tried += 1;
      const compiled = new RegExp(pattern, 'u');
      for (const path of paths) {
        const started = performance.now();
        compiled.test(path);
        const ms = performance.now() - started;
        if (ms > slowest.ms) slowest = { ms, pattern };
      }
    }
    // A few milliseconds at most (quadratic in the path at worst); patterns the old screen let
    // through took seconds. The bound leaves room for a loaded machine.
    expect(slowest.ms, `seed 1049: ${slowest.pattern}`).toBeLessThan(500);
  });
});
