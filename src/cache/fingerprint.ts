import { createHash } from 'node:crypto';

/**
 * A stable hash of a request's result-determining fields: object keys are sorted and
 * undefined fields dropped, so `{a, b}` and `{b, a}` share one cache entry.
 */
export function fingerprint(value: unknown): string {
  return createHash('sha256').update(stableJson(value)).digest('base64url');
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${stableJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
