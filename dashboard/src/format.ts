/** Dates as the reader's locale writes them; the API's ISO strings stay in the title. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return 'Never';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function formatNumber(value: number): string {
  return value.toLocaleString();
}

export function describeError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
