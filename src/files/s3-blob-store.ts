import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { S3Config } from '../config.js';
import { BlobStoreUnavailable, type BlobStore, type StoredBlob } from './blob-store.js';

/** Error names S3 (and R2, MinIO) give a missing object: GET says NoSuchKey, HEAD has no body so only NotFound. */
const MISSING_OBJECT = new Set(['NoSuchKey', 'NotFound']);

/**
 * Blobs in an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO), shared by every instance.
 * Every operation is bounded by `timeoutMs`, retries included, and any failure to reach the
 * bucket surfaces as BlobStoreUnavailable; a missing object is `undefined`/`false`, not an error.
 */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;

  constructor(private readonly config: S3Config) {
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      // MinIO and most self-hosted stores have no per-bucket DNS names; R2 accepts both forms.
      forcePathStyle: config.endpoint !== undefined,
      credentials:
        config.accessKeyId && config.secretAccessKey
          ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
          : undefined,
      // Checksums only where S3 requires them: several S3-compatible stores reject the SDK's
      // default trailing checksums, and TLS already protects the bytes in transit.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 2,
      requestHandler: { connectionTimeout: config.timeoutMs, requestTimeout: config.timeoutMs, throwOnRequestTimeout: true },
    });
  }

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    await this.attempt('put', (abortSignal) =>
      this.client.send(
        new PutObjectCommand({ Bucket: this.config.bucket, Key: key, Body: body, ContentType: contentType, ContentLength: body.byteLength }),
        { abortSignal },
      ),
    );
  }

  async get(key: string): Promise<StoredBlob | undefined> {
    return this.attempt('get', async (abortSignal) => {
      try {
        const answer = await this.client.send(new GetObjectCommand({ Bucket: this.config.bucket, Key: key }), { abortSignal });
        // The body streams after the headers; the abort signal tears down a body that stalls too.
        const body = await answer.Body!.transformToByteArray();
        return { body, contentType: answer.ContentType ?? 'application/octet-stream' };
      } catch (error) {
        if (isMissingObject(error)) return undefined;
        throw error;
      }
    });
  }

  /** S3 deletes answer the same whether or not the object existed, so a HEAD tells which. */
  async delete(key: string): Promise<boolean> {
    return this.attempt('delete', async (abortSignal) => {
      const existed = await this.client.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: key }), { abortSignal }).then(
        () => true,
        (error: unknown) => {
          if (isMissingObject(error)) return false;
          throw error;
        },
      );
      if (existed) await this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: key }), { abortSignal });
      return existed;
    });
  }

  publicUrl(key: string): string | undefined {
    if (!this.config.publicUrl) return undefined;
    return `${this.config.publicUrl}/${key.split('/').map(encodeURIComponent).join('/')}`;
  }

  /** The bucket exists and these credentials may use it. */
  async check(): Promise<void> {
    await this.attempt('check', (abortSignal) =>
      this.client.send(new HeadBucketCommand({ Bucket: this.config.bucket }), { abortSignal }),
    );
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  /**
   * Runs one bucket operation under the deadline; any failure becomes BlobStoreUnavailable.
   * The message names no key: a key holds the file's unguessable URL token.
   */
  private async attempt<T>(operation: string, work: (abortSignal: AbortSignal) => Promise<T>): Promise<T> {
    const abortSignal = AbortSignal.timeout(this.config.timeoutMs);
    try {
      return await work(abortSignal);
    } catch (error) {
      const reason = abortSignal.aborted ? `no answer within ${this.config.timeoutMs} ms` : describe(error);
      throw new BlobStoreUnavailable(`S3 ${operation} in bucket ${this.config.bucket} failed: ${reason}`, { cause: error });
    }
  }
}

function isMissingObject(error: unknown): boolean {
  return error instanceof S3ServiceException && MISSING_OBJECT.has(error.name) && error.$metadata.httpStatusCode === 404;
}

/** The S3 error code and status when the bucket answered; the network error otherwise. Never credentials. */
function describe(error: unknown): string {
  if (error instanceof S3ServiceException) return `${error.name} (HTTP ${error.$metadata.httpStatusCode ?? '?'})`;
  if (error instanceof Error) return `${error.name}: ${(error as NodeJS.ErrnoException).code ?? error.message}`;
  return String(error);
}
