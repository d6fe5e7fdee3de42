import { decode } from 'html-entities';

/**
 * Text as providers send it -> text a caller can show: markup removed (Brave wraps matches in
 * `<strong>`, YouTube's XML captions carry escaped `<font>` tags), entities decoded, whitespace
 * collapsed. Entities are decoded in strict mode, so a stray `&copy` stays as written.
 */
export function plainText(raw: string): string {
  const withoutTags = stripTags(decode(stripTags(raw), { level: 'xml' }));
  return decode(withoutTags, { level: 'html5', scope: 'strict' }).replace(/\s+/g, ' ').trim();
}

function stripTags(text: string): string {
  return text.replace(/<\/?[a-zA-Z][^<>]*>/g, '');
}

/** An ISO 8601 timestamp for a provider's date, or '' when it is missing or unreadable. */
export function isoDate(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') return '';
  // Providers send local date-times without an offset (`2024-03-01T10:00:00`); read them as UTC
  // rather than in whatever time zone this server runs.
  const text = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value.trim()) ? `${value.trim()}Z` : value;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
}

/** A string field of an untyped JSON object, or '' when absent or not a string. */
export function stringField(object: unknown, key: string): string {
  if (object === null || typeof object !== 'object') return '';
  const value = (object as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : '';
}
