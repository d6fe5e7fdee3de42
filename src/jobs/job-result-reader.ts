import type { JobStore } from './job-store.js';
import { headsWithin, type ResultHead, type StoredResult } from './job-results.js';

export interface ResultPage {
  /** In order of their ordinals; each with its data's JSON text. */
  results: StoredResult[];
  /** More results are recorded after the last one (up to the reader's bound). */
  more: boolean;
}

/**
 * One job's stored results, read a bounded piece at a time: the sizes first, then the data of
 * only the results that fit. Whatever a job holds, a reader has at most one piece in memory.
 */
export class JobResultReader {
  constructor(
    private readonly store: JobStore,
    readonly jobId: string,
    /** The last ordinal read: results recorded after the reader was made are left for a later one. */
    private readonly through?: number,
  ) {}

  /**
   * Up to `limit` results after `afterOrdinal` whose answer entries take at most `maxBytes`
   * together; at least one, so that a result bigger than that is read alone and reading moves on.
   */
  async page(afterOrdinal: number, limit: number, maxBytes: number): Promise<ResultPage> {
    // One more head than asked tells whether more are recorded, without a second query.
    const heads = await this.heads(afterOrdinal, limit + 1);
    const taken = headsWithin(heads.slice(0, limit), maxBytes);
    const last = taken.at(-1);
    const data = last && taken.some((head) => Number(head.size) > 0) ? await this.store.resultData(this.jobId, afterOrdinal, last.ordinal) : new Map<number, string>();
    return {
      results: taken.map((head) => ({ ...head, data: data.get(Number(head.ordinal)) ?? null })),
      more: taken.length < heads.length,
    };
  }

  /** Up to `limit` results after `afterOrdinal` without their data; only of `status` when given. */
  heads(afterOrdinal: number, limit: number, status?: 'completed' | 'failed'): Promise<ResultHead[]> {
    return this.store.resultHeads(this.jobId, afterOrdinal, limit, { through: this.through, status });
  }
}
