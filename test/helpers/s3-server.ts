import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/** The one access key s3rver knows (it refuses others; it does not verify V4 signatures themselves). */
const ACCESS_KEY = 'S3RVER';

export interface TestS3Server {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  endpoint: string;
  port: number;
  bucket: string;
  /** Server env selecting this bucket, optionally through another endpoint (a proxy in front). */
  env(endpoint?: string): Record<string, string>;
  /** Every key in the bucket, read over the S3 protocol. */
  keys(): Promise<string[]>;
  /** One object as the bucket holds it, or undefined. */
  object(key: string): Promise<{ body: Uint8Array; contentType: string | undefined } | undefined>;
  close(): Promise<void>;
}

/**
 * A real S3-protocol server (s3rver) on 127.0.0.1, port 0, with one empty bucket in a fresh
 * folder: the stand-in for R2, MinIO or AWS S3.
 */
export async function startS3Server(bucket = 'pluck-test'): Promise<TestS3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'pluck-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY },
  });
  return {
    endpoint,
    port,
    bucket,
    env: (through = endpoint) => ({
      S3_ENDPOINT: through,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: ACCESS_KEY,
      S3_SECRET_ACCESS_KEY: ACCESS_KEY,
    }),
    keys: async () => {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
        keys.push(...(page.Contents ?? []).map((entry) => entry.Key!));
        token = page.NextContinuationToken;
      } while (token);
      return keys.sort();
    },
    object: async (key) => {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return { body: await answer.Body!.transformToByteArray(), contentType: answer.ContentType };
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
        throw error;
      }
    },
    close: async () => {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
