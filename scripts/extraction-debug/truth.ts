import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

export interface TruthEntry {
  articleBody?: string;
  pageType?: string;
}

/** A data set's ground truth, by page name. */
export async function readTruth(dataDir: string): Promise<Record<string, TruthEntry>> {
  return JSON.parse(await readFile(resolve(dataDir, 'ground-truth.json'), 'utf8')) as Record<string, TruthEntry>;
}

/** The scorer's items: 4-token shingles of its tokens (runs of letters, digits and "_"); a shorter text is one item. */
export function shingles(text: string): string[] {
  const tokens = text.match(/[\p{L}\p{N}_]+/gu) ?? [];
  if (tokens.length < 4) return tokens.length ? [tokens.join(' ')] : [];
  return tokens.slice(3).map((_, i) => tokens.slice(i, i + 4).join(' '));
}
