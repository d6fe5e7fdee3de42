import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { DatabaseHandle } from '../db/database.js';
import type { BlobStore } from './blob-store.js';
import { FileService } from './file.service.js';
import { FileSweeper } from './file-sweeper.js';
import { LocalBlobStore } from './local-blob-store.js';

/** Stored files: their bytes, their records, their expiry. */
export interface FileServices {
  blobs: BlobStore;
  files: FileService;
  /** Removes expired files; the server starts its schedule (FILE_SWEEP_INTERVAL_SECONDS). */
  fileSweeper: FileSweeper;
}

export async function createFileServices(config: Config, database: DatabaseHandle, logger: Logger): Promise<FileServices> {
  // Loaded only when used: the AWS SDK adds about a second to every start.
  const blobs: BlobStore = config.s3
    ? new (await import('./s3-blob-store.js')).S3BlobStore(config.s3)
    : new LocalBlobStore(join(config.dataDir, 'blobs'));
  return {
    blobs,
    files: new FileService(database.db, blobs, config),
    fileSweeper: new FileSweeper(database.db, blobs, logger, config.files.sweepBatchSize),
  };
}
