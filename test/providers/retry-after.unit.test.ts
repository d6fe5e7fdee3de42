import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../src/providers/bounded-fetch.js';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-24T10:00:00Z');

  it('reads delta-seconds and HTTP dates, as seconds from now', () => {
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter(' 7 ', now)).toBe(7);
    expect(parseRetryAfter('Tue, 24 Nov 2026 10:01:30 GMT', now)).toBe(90);
    // A date already past means "now".
    expect(parseRetryAfter('Tue, 24 Nov 2026 09:00:00 GMT', now)).toBe(0);
  });

  it('says nothing for a missing or unreadable header', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });
});
