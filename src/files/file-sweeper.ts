import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/schema.js';
import type { BlobStore } from './blob-store.js';
import { queueOrphan } from './file.service.js';

export interface SweepResult {
  /** Expired records removed, with their objects. */
  records: number;
  /** Objects left by record-only deletes (or failed removals) removed after their expiry. */
  orphans: number;
}

/**
 * Removes expired files: records with their objects, then orphaned objects. Works in small
 * batches and yields between them so requests keep being served. Several instances may sweep
 * at once: a record is claimed by the one whose DELETE removed it, and removing an object
 * twice is harmless.
 */
export class FileSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<SweepResult> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly blobs: BlobStore,
    private readonly logger: Logger,
    private readonly batchSize: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Sweeps every `intervalSeconds` until stopped; a sweep still running is not started twice. */
  start(intervalSeconds: number): void {
    if (intervalSeconds <= 0 || this.timer) return;
    this.timer = setInterval(() => void this.sweepInBackground(), intervalSeconds * 1000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /** One full sweep, now. */
  async sweep(): Promise<SweepResult> {
    const cutoff = this.now().toISOString();
    const records = await this.sweepRecords(cutoff);
    const orphans = await this.sweepOrphans(cutoff);
    if (records + orphans > 0) this.logger.info({ records, orphans }, 'expired files swept');
    return { records, orphans };
  }

  private async sweepInBackground(): Promise<void> {
    if (this.running) return;
    this.running = this.sweep();
    try {
      await this.running;
    } catch (error) {
      this.logger.warn({ err: error }, 'file sweep failed; the next one retries');
    } finally {
      this.running = undefined;
    }
  }

  private async sweepRecords(cutoff: string): Promise<number> {
    let removed = 0;
    for (;;) {
      const due = await this.db.selectFrom('file').select('id').where('expires_at', '<=', cutoff).limit(this.batchSize).execute();
      if (due.length === 0) return removed;
      const claimed = await this.db
        .deleteFrom('file')
        .where('id', 'in', due.map((row) => row.id))
        .returning('r2_key')
        .execute();
      for (const { r2_key: key } of claimed) {
        // An object that cannot be removed now waits in the orphan list for the next sweep.
        if (!(await this.removeObject(key))) await queueOrphan(this.db, key, cutoff);
      }
      removed += claimed.length;
      if (due.length < this.batchSize) return removed;
      await yieldToRequests();
    }
  }

  private async sweepOrphans(cutoff: string): Promise<number> {
    let removed = 0;
    for (;;) {
      const due = await this.db.selectFrom('file_orphan').select('r2_key').where('expires_at', '<=', cutoff).limit(this.batchSize).execute();
      const gone: string[] = [];
      for (const { r2_key: key } of due) if (await this.removeObject(key)) gone.push(key);
      if (gone.length > 0) {
        const deleted = await this.db.deleteFrom('file_orphan').where('r2_key', 'in', gone).executeTakeFirst();
        removed += Number(deleted.numDeletedRows);
      }
      // A short batch is the last; one with failures is left for the next sweep rather than retried now.
      if (due.length < this.batchSize || gone.length < due.length) return removed;
      await yieldToRequests();
    }
  }

  private async removeObject(key: string): Promise<boolean> {
    try {
      await this.blobs.delete(key);
      return true;
    } catch (error) {
      this.logger.warn({ err: error, key }, 'stored object not removed; retried on the next sweep');
      return false;
    }
  }
}
