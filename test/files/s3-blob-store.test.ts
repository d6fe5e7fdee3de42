import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { BlobStoreUnavailable } from '../../src/files/blob-store.js';
import { S3BlobStore } from '../../src/files/s3-blob-store.js';
import { apiClient } from '../helpers/client.js';
import { startStandIn } from '../helpers/loopback-stand-in.js';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { startS3Server, type TestS3Server } from '../helpers/s3-server.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const PAST = '2000-01-01T00:00:00.000Z';
const TIMEOUT_MS = 1500;

/** S3 settings as loadConfig makes them, for stores built directly. */
const s3Config = (s3: TestS3Server, overrides: Record<string, string> = {}) =>
  loadConfig({ ...s3.env(), S3_TIMEOUT_MS: String(TIMEOUT_MS), ...overrides }).s3!;

describe('S3 blob store on a real S3-protocol server', () => {
  let s3: TestS3Server;
  let proxy: TcpProxy;
  let site: RecordingServer;
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let key: string;
  let page = 0;

  beforeAll(async () => {
    s3 = await startS3Server();
    // The service reaches the bucket through a proxy, so a test can take the bucket away.
    proxy = await startTcpProxy(s3.port);
    site = await startRecordingServer();
    server = await startTestServer('sqlite', {
      ...s3.env(`http://127.0.0.1:${proxy.port}`),
      S3_TIMEOUT_MS: String(TIMEOUT_MS),
      ALLOW_PRIVATE_HOSTS: site.hostPort,
    });
    api = apiClient(server.baseUrl);
    key = (await api.signUpWithKey()).key;
  });
  afterAll(async () => {
    await server?.close();
    await site?.close();
    await proxy?.close();
    await s3?.close();
  });

  const db = () => server.ctx.database.db;
  const nextPage = () => `${site.origin}/page-${(page += 1)}`;
  const screenshot = async () => {
    const res = await fetch(`${server.baseUrl}/v1/web/screenshot`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: nextPage() }),
    });
    expect(res.status, res.status === 200 ? '' : await res.clone().text()).toBe(200);
    return { id: res.headers.get('x-file-id')!, url: res.headers.get('x-file-url')!, bytes: new Uint8Array(await res.arrayBuffer()) };
  };
  const recordOf = (id: string) => db().selectFrom('file').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('picks the S3 store from config and reports the bucket ready', async () => {
    expect(server.ctx.blobs.kind).toBe('s3');
    const ready = await api.get('/ready');
    expect(ready.status, ready.text).toBe(200);
    expect(ready.body.checks.storage).toBe('ok');
  });

  it('stores a screenshot and a PDF in the bucket, serves them through /files/..., and lists them', async () => {
    const shot = await screenshot();
    const shotRecord = await recordOf(shot.id);
    expect(shot.url).toBe(shotRecord.public_url);
    expect(shot.url.startsWith(`${server.baseUrl}/files/`)).toBe(true);
    expect(await s3.object(shotRecord.r2_key)).toEqual({ body: shot.bytes, contentType: 'image/png' });

    const pdf = await api.post('/v1/web/pdf', { url: nextPage(), base64: true }, key);
    expect(pdf.status, pdf.text).toBe(200);
    const pdfBytes = new Uint8Array(Buffer.from(pdf.body.data.base64, 'base64'));
    expect(Buffer.from(pdfBytes.subarray(0, 5)).toString()).toBe('%PDF-');
    const pdfRecord = await recordOf(pdf.body.data.fileId);
    expect(await s3.object(pdfRecord.r2_key)).toEqual({ body: pdfBytes, contentType: 'application/pdf' });

    for (const [url, bytes, type] of [[shot.url, shot.bytes, 'image/png'], [pdf.body.data.permanentUrl, pdfBytes, 'application/pdf']] as const) {
      const served = await fetch(url);
      expect(served.status, url).toBe(200);
      expect(served.headers.get('content-type')).toBe(type);
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);
    }

    const listed = await api.get('/v1/files/list', key);
    expect(listed.status, listed.text).toBe(200);
    const keys = listed.body.data.files.map((file: { r2_key: string }) => file.r2_key);
    expect(keys).toEqual([pdfRecord.r2_key, shotRecord.r2_key]);
    expect(await s3.keys()).toEqual(expect.arrayContaining(keys));
  });

  it('deleteFromR2 true removes the object from the bucket at once', async () => {
    const shot = await screenshot();
    const { r2_key: objectKey } = await recordOf(shot.id);
    const res = await api.post('/v1/files/delete', { fileId: shot.id, deleteFromR2: true }, key);
    expect(res.body.data, res.text).toMatchObject({ wasFound: true, deletedFromDatabase: true, deletedFromR2: true, error: null });
    expect(await s3.keys()).not.toContain(objectKey);
    expect((await fetch(shot.url)).status).toBe(404);
  });

  it('deleteFromR2 false keeps the object served until its expiry; then the sweeper removes it from the bucket', async () => {
    const shot = await screenshot();
    const { r2_key: objectKey } = await recordOf(shot.id);
    const res = await api.post('/v1/files/delete', { fileId: shot.id, deleteFromR2: false }, key);
    expect(res.body.data, res.text).toMatchObject({ wasFound: true, deletedFromDatabase: true, deletedFromR2: false, error: null });
    expect(await s3.keys()).toContain(objectKey);
    expect((await fetch(shot.url)).status).toBe(200);

    await db().updateTable('file_orphan').set({ expires_at: PAST }).where('r2_key', '=', objectKey).execute();
    expect((await server.ctx.fileSweeper.sweep()).orphans).toBe(1);
    expect(await s3.keys()).not.toContain(objectKey);
    expect((await fetch(shot.url)).status).toBe(404);
  });

  it('the expiry sweep removes expired records and their objects from the bucket, and keeps the rest', async () => {
    const [expired, kept] = [await screenshot(), await screenshot()];
    const [expiredKey, keptKey] = [(await recordOf(expired.id)).r2_key, (await recordOf(kept.id)).r2_key];
    await db().updateTable('file').set({ expires_at: PAST }).where('id', '=', expired.id).execute();
    expect((await server.ctx.fileSweeper.sweep()).records).toBe(1);
    const keys = await s3.keys();
    expect(keys).not.toContain(expiredKey);
    expect(keys).toContain(keptKey);
    expect(await db().selectFrom('file').select('id').where('id', '=', expired.id).executeTakeFirst()).toBeUndefined();
  });

  it('/ready fails while the bucket is unreachable, and recovers with it', async () => {
    proxy.setMode('refuse');
    try {
      const started = Date.now();
      const ready = await api.get('/ready');
      expect(ready.status, ready.text).toBe(503);
      expect(ready.body).toMatchObject({ status: 'unavailable', checks: { storage: 'unavailable', database: 'ok' } });
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 1000);
    } finally {
      proxy.setMode('pass');
    }
    expect((await api.get('/ready')).status).toBe(200);
  });

  it('a stalled bucket gives a clear 503 within the timeout, refunds the credit, and never hangs', async () => {
    const before = (await api.get('/v1/user/credits', key)).body.data.balance;
    proxy.setMode('stall');
    try {
      const started = Date.now();
      const ready = await api.get('/ready');
      expect(ready.status, ready.text).toBe(503);
      expect(ready.body.checks.storage).toBe('unavailable');
      const res = await api.post('/v1/web/screenshot', { url: nextPage(), base64: true }, key);
      expect(res.status, res.text).toBe(503);
      expect(res.body).toMatchObject({ success: false, error: { code: 'SERVICE_UNAVAILABLE', message: 'File storage is unavailable; retry shortly' } });
      expect(res.headers.get('retry-after')).toBe('5');
      expect(Date.now() - started).toBeLessThan(2 * TIMEOUT_MS + 3000);
    } finally {
      proxy.setMode('pass');
    }
    expect((await api.get('/v1/user/credits', key)).body.data.balance).toBe(before);
    await screenshot();
  });

  it('while the bucket stalls, a stored file answers 503 and a deleteFromR2 removal is left to the sweeper', async () => {
    const shot = await screenshot();
    const { r2_key: objectKey } = await recordOf(shot.id);
    proxy.setMode('stall');
    try {
      const served = await fetch(shot.url);
      expect(served.status).toBe(503);
      expect(await served.json()).toMatchObject({ error: { code: 'SERVICE_UNAVAILABLE' } });
      const res = await api.post('/v1/files/delete', { fileId: shot.id, deleteFromR2: true }, key);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data).toMatchObject({ wasFound: true, deletedFromDatabase: true, deletedFromR2: false });
      expect(res.body.data.error).toMatch(/sweeper will remove it/);
    } finally {
      proxy.setMode('pass');
    }
    expect(await s3.keys()).toContain(objectKey);
    expect((await fetch(shot.url)).status).toBe(404);
    await server.ctx.fileSweeper.sweep();
    expect(await s3.keys()).not.toContain(objectKey);
  });

  it('S3_PUBLIC_URL makes permanentUrl the public bucket URL', async () => {
    const publicUrl = `${s3.endpoint}/${s3.bucket}/`;
    const store = new S3BlobStore(s3Config(s3, { S3_PUBLIC_URL: publicUrl }));
    const other = await startTestServer('sqlite', { ...s3.env(), S3_PUBLIC_URL: publicUrl });
    try {
      const { userId } = await apiClient(other.baseUrl).signUp();
      const body = new TextEncoder().encode('%PDF-1.4 public');
      const file = await other.ctx.files.store({ userId, plan: 'free', type: 'pdf', url: 'https://example.com/', body, contentType: 'application/pdf', extension: 'pdf', metadata: {} });
      expect(file.public_url).toBe(`${s3.endpoint}/${s3.bucket}/${file.r2_key}`);
      expect(store.publicUrl(file.r2_key)).toBe(file.public_url);
      // s3rver serves its buckets publicly, as a public R2 or S3 bucket does.
      const served = await fetch(file.public_url);
      expect(served.status).toBe(200);
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(body);
    } finally {
      await other.close();
      await store.close();
    }
  });

  it('answers missing objects as absent and refuses a missing bucket or an unknown access key', async () => {
    const store = new S3BlobStore(s3Config(s3));
    const missingBucket = new S3BlobStore(s3Config(s3, { S3_BUCKET: 'no-such-bucket' }));
    const unknownKey = new S3BlobStore(s3Config(s3, { S3_ACCESS_KEY_ID: 'unknown-id', S3_SECRET_ACCESS_KEY: 'secret-value' }));
    try {
      expect(await store.get('files/none/missing.png')).toBeUndefined();
      expect(await store.delete('files/none/missing.png')).toBe(false);
      await store.put('files/direct/object.txt', new TextEncoder().encode('hello'), 'text/plain');
      expect(await store.get('files/direct/object.txt')).toEqual({ body: new TextEncoder().encode('hello'), contentType: 'text/plain' });
      expect(await store.delete('files/direct/object.txt')).toBe(true);
      expect(await store.delete('files/direct/object.txt')).toBe(false);
      await expect(missingBucket.check()).rejects.toThrow(BlobStoreUnavailable);
      const refused = await unknownKey.check().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(BlobStoreUnavailable);
      expect((refused as Error).message).toMatch(/^S3 check in bucket pluck-test failed: \w+ \(HTTP 403\)$/);
    } finally {
      await Promise.all([store.close(), missingBucket.close(), unknownKey.close()]);
    }
  });
});

describe('S3 blob store against a bucket that stops mid-answer', () => {
  it('gives up on an object whose body stalls after the headers, within the timeout', async () => {
    // Answers GET with headers and half the promised body, then nothing: a link that died mid-transfer.
    const stalling = await startStandIn((_request, response) => {
      response.writeHead(200, { 'content-type': 'image/png', 'content-length': '1000' });
      response.write(Buffer.alloc(500));
    });
    const store = new S3BlobStore(
      loadConfig({ S3_ENDPOINT: stalling.url, S3_BUCKET: 'pluck-test', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret', S3_TIMEOUT_MS: '800' }).s3!,
    );
    try {
      const started = Date.now();
      const failure = await store.get('files/token/stalled.png').catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(BlobStoreUnavailable);
      expect((failure as Error).message).toBe('S3 get in bucket pluck-test failed: no answer within 800 ms');
      expect(Date.now() - started).toBeLessThan(2500);
      expect(stalling.requests[0]).toMatchObject({ method: 'GET' });
      expect(stalling.requests[0]!.url.pathname).toBe('/pluck-test/files/token/stalled.png');
    } finally {
      await store.close();
      await stalling.close();
    }
  });
});

describe('S3 configuration', () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return [];
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).problems;
    }
  };

  it('needs a bucket whenever any S3_ variable is set, and both halves of a key pair', () => {
    expect(problems({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toEqual([
      'S3_BUCKET: required when any S3_ variable is set (found S3_ENDPOINT)',
    ]);
    expect(problems({ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'id' })).toEqual(['S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both or neither']);
    // Listed together with every other problem.
    expect(problems({ S3_PUBLIC_URL: 'not a url', PORT: 'eighty' })).toHaveLength(3);
    expect(problems({ S3_BUCKET: 'b', S3_ENDPOINT: 'ftp://example.com' })[0]).toMatch(/^S3_ENDPOINT/);
  });

  it('leaves S3 off without a bucket and parses a full setting', () => {
    expect(loadConfig({}).s3).toBeUndefined();
    const config = loadConfig({
      S3_ENDPOINT: 'https://account.r2.cloudflarestorage.com/',
      S3_BUCKET: 'pluck',
      S3_REGION: 'auto',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_PUBLIC_URL: 'https://files.example.com/',
      S3_TIMEOUT_MS: '5000',
    });
    expect(config.s3).toEqual({
      endpoint: 'https://account.r2.cloudflarestorage.com',
      bucket: 'pluck',
      region: 'auto',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      publicUrl: 'https://files.example.com',
      timeoutMs: 5000,
    });
    expect(loadConfig({ S3_BUCKET: 'pluck' }).s3).toMatchObject({ endpoint: undefined, region: 'us-east-1', timeoutMs: 10_000 });
  });
});
