import { z } from 'zod';
import { environmentRule, httpUrl, nonNegativeInt, positiveInt, stripTrailingSlash } from './env-values.js';

/** Unset: Redis is not used (limits and cache in-process, jobs through the database alone). */
export const redisUrl = z.string().min(1).optional();

/** The database, the shared Redis and stored files (src/db, src/redis, src/files). */
const storeSettings = z
  .object({
    /** PostgreSQL; unset: SQLite in DATA_DIR. */
    DATABASE_URL: z.string().min(1).optional(),
    /** Bound on connecting to PostgreSQL and on each query: an unreachable database answers 503, not a hang. */
    DATABASE_TIMEOUT_MS: positiveInt.default(10_000),
    /** The shared Redis behind rate limits, concurrency slots and the result cache. */
    REDIS_URL: redisUrl,
    /** Every key starts with it, so several deployments (or test runs) can share one Redis. */
    REDIS_KEY_PREFIX: z.string().min(1).max(100).default('pluck:'),
    REDIS_CONNECT_TIMEOUT_MS: positiveInt.default(2000),
    /** A command without a reply by then fails (503) instead of hanging the request. */
    REDIS_COMMAND_TIMEOUT_MS: positiveInt.default(1000),
    /** A concurrency slot not given back by then (its instance crashed) frees itself. */
    CONCURRENCY_SLOT_TTL_SECONDS: positiveInt.default(300),
    /** How often the server sweeps expired screenshots and PDFs; 0 turns the schedule off. */
    FILE_SWEEP_INTERVAL_SECONDS: nonNegativeInt.default(600),
    /** Records removed per statement, so a sweep never holds the database for long. */
    FILE_SWEEP_BATCH_SIZE: positiveInt.max(10_000).default(200),
    /** Unset for AWS S3 itself; set for R2, MinIO and the like, which are then addressed path-style. */
    S3_ENDPOINT: httpUrl.optional(),
    /** Set: stored files live in this S3-compatible bucket (AWS S3, Cloudflare R2, MinIO) instead of DATA_DIR/blobs. */
    S3_BUCKET: z.string().min(1).max(255).optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    /** Both or neither; neither means the AWS SDK's own credential chain (environment, IAM role). */
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    /** Public base URL of the bucket; when set, permanentUrl points there instead of at /files/... */
    S3_PUBLIC_URL: httpUrl.optional(),
    /** Bound on each bucket operation, retries included: a stalled bucket fails instead of hanging. */
    S3_TIMEOUT_MS: positiveInt.default(10_000),
  })
  .transform((e) => ({
    databaseUrl: e.DATABASE_URL,
    databaseTimeoutMs: e.DATABASE_TIMEOUT_MS,
    redisUrl: e.REDIS_URL,
    redis: {
      keyPrefix: e.REDIS_KEY_PREFIX,
      connectTimeoutMs: e.REDIS_CONNECT_TIMEOUT_MS,
      commandTimeoutMs: e.REDIS_COMMAND_TIMEOUT_MS,
      slotTtlSeconds: e.CONCURRENCY_SLOT_TTL_SECONDS,
    },
    files: {
      sweepIntervalSeconds: e.FILE_SWEEP_INTERVAL_SECONDS,
      sweepBatchSize: e.FILE_SWEEP_BATCH_SIZE,
    },
    s3: e.S3_BUCKET
      ? {
          endpoint: e.S3_ENDPOINT && stripTrailingSlash(e.S3_ENDPOINT),
          bucket: e.S3_BUCKET,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          publicUrl: e.S3_PUBLIC_URL && stripTrailingSlash(e.S3_PUBLIC_URL),
          timeoutMs: e.S3_TIMEOUT_MS,
        }
      : undefined,
  }));

/**
 * S3 settings that only make sense together, read as set (so a misspelt name counts). Any S3_
 * variable without S3_BUCKET is a mistake (files would silently go to local disk on each
 * instance), as is half a key pair.
 */
const s3SetTogether = environmentRule((env) => {
  const problems: string[] = [];
  const s3Names = Object.keys(env).filter((name) => name.startsWith('S3_'));
  if (s3Names.length > 0 && !env.S3_BUCKET) {
    problems.push(`S3_BUCKET: required when any S3_ variable is set (found ${s3Names.sort().join(', ')})`);
  }
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both or neither');
  }
  return problems;
});

export const storesSection = storeSettings.and(s3SetTogether);
