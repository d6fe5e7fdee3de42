import { mkdtemp, rm } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiClient, type ApiResponse } from '../helpers/client.js';
import { createPostgresDatabase, testDialects } from '../helpers/databases.js';
import { clearOfWindowEnd } from '../helpers/limit-window.js';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { backendEnv, deleteRedisKeys, testBackends, uniqueRedisPrefix } from '../helpers/redis.js';
import { startS3Server, type TestS3Server } from '../helpers/s3-server.js';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { RELAXED_AUTH_LIMITS } from '../helpers/test-server.js';

/** The address clients use, as behind a load balancer; both instances hand out links under it. */
const PUBLIC_URL = 'http://pluck.test';
const REQUESTS_PER_HOUR = 12;
const CONCURRENCY = 2;
/** Every account's monthly credits, on either plan. */
const CREDITS = 3;
const SPEND_REQUESTS = 8;

const shared = (await testDialects()).includes('postgres') && (await testBackends()).includes('redis');
if (!shared) process.stderr.write('\n*** PostgreSQL or Redis unreachable: SKIPPING the two-instance suite ***\n\n');

/** Requests to the slow page wait here until the test lets them finish. */
const heldPages: ServerResponse[] = [];
const holdPage = (_req: unknown, res: ServerResponse) => void heldPages.push(res);

describe.skipIf(!shared)('two server processes sharing PostgreSQL, Redis and a bucket', { timeout: 120_000 }, () => {
  let site: RecordingServer;
  let s3: TestS3Server;
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let env: Record<string, string>;
  const redisPrefix = uniqueRedisPrefix();
  const dataDirs: string[] = [];
  const instances: ServerProcess[] = [];
  let a: ReturnType<typeof apiClient>;
  let b: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    [site, s3, database] = await Promise.all([
      startRecordingServer({ '/slow/1': holdPage, '/slow/2': holdPage }),
      startS3Server(),
      createPostgresDatabase(),
    ]);
    env = {
      DATABASE_URL: database.url,
      AUTH_SECRET: 'two-instances-share-this-secret-of-32-chars',
      ...backendEnv('redis', redisPrefix),
      ...s3.env(),
      PUBLIC_BASE_URL: PUBLIC_URL,
      ALLOW_PRIVATE_HOSTS: site.hostPort,
      FREE_REQUESTS_PER_HOUR: String(REQUESTS_PER_HOUR),
      FREE_CONCURRENCY: String(CONCURRENCY),
      FREE_MONTHLY_CREDITS: String(CREDITS),
      PRO_MONTHLY_CREDITS: String(CREDITS),
      PRO_CONCURRENCY: '20',
      FILE_SWEEP_INTERVAL_SECONDS: '0',
      // Every account here signs up from 127.0.0.1, counted across both instances through Redis.
      ...RELAXED_AUTH_LIMITS,
    };
    for (let i = 0; i < 2; i += 1) dataDirs.push(await mkdtemp(join(tmpdir(), 'pluck-instance-')));
    // Both start at the same moment on the empty database: their migrations race.
    const started = await Promise.allSettled(dataDirs.map((dataDir) => startServerProcess({ ...env, DATA_DIR: dataDir })));
    for (const result of started) if (result.status === 'fulfilled') instances.push(result.value);
    for (const result of started) if (result.status === 'rejected') throw result.reason;
    [a, b] = instances.map((instance) => apiClient(instance.baseUrl, PUBLIC_URL)) as [typeof a, typeof b];
  }, 120_000);

  afterAll(async () => {
    for (const res of heldPages) res.end();
    await Promise.all(
      instances.map(async (instance) => {
        instance.child.kill('SIGTERM');
        const stopped = await Promise.race([instance.exited, new Promise((resolve) => setTimeout(() => resolve('timeout'), 15_000))]);
        if (stopped === 'timeout') instance.child.kill('SIGKILL');
      }),
    );
    await database?.drop();
    await deleteRedisKeys(redisPrefix);
    await s3?.close();
    await site?.close();
    for (const dataDir of dataDirs) await rm(dataDir, { recursive: true, force: true });
  });

  /** Reads the shared database directly, as an operator would. */
  const query = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query<T>(text, values)).rows;
    } finally {
      await client.end();
    }
  };
  /** Lines the instances logged at level error or fatal. */
  const errorLines = () =>
    instances.flatMap((instance, i) =>
      instance.output
        .join('')
        .split('\n')
        .filter((line) => /"level":(50|60)/.test(line))
        .map((line) => `instance ${i}: ${line}`),
    );
  // A 500 from an instance is explained in its own log, not in the answer: show it with the failure.
  beforeEach(({ onTestFailed }) => onTestFailed(() => void process.stderr.write(`\n${errorLines().join('\n')}\n`)));
  const failures = (responses: ApiResponse[]) => responses.map((res) => `${res.status} ${res.text.slice(0, 300)}`).join('\n');

  it('both came up on the empty database at the same moment and migrated it exactly once', async () => {
    for (const api of [a, b]) {
      const ready = await api.get('/ready');
      expect(ready.status, ready.text).toBe(200);
      expect(ready.body.checks).toMatchObject({ database: 'ok', storage: 'ok', redis: 'ok' });
    }
    const names = (await query<{ name: string }>('select name from kysely_migration order by name')).map((row) => row.name);
    expect(names.length).toBeGreaterThanOrEqual(3);
    expect(new Set(names).size).toBe(names.length);
    const tables = await query<{ table_name: string }>("select table_name from information_schema.tables where table_schema = 'public'");
    expect(tables.map((row) => row.table_name)).toEqual(expect.arrayContaining(['user', 'session', 'apikey', 'credit_balance', 'file']));
    // better-auth reports the missing tables it sees before migrating; nothing else may go wrong.
    expect(errorLines().filter((line) => !line.includes('Database schema mismatch'))).toEqual([]);
  });

  it('a key made on one instance works on the other at once', async () => {
    const { token } = await a.signUp();
    const { key } = await a.createKey(token);
    const onB = await b.get('/v1/user/credits', key);
    expect(onB.status, onB.text).toBe(200);
    expect((await b.get('/v1/api-keys', token)).body.data.apiKeys).toHaveLength(1);
  });

  it('a key revoked through one instance fails on both at once', async () => {
    const { token } = await a.signUp();
    const { id, key } = await a.createKey(token);
    for (const api of [a, b]) expect((await api.get('/v1/user/credits', key)).status).toBe(200);
    const revoked = await b.request('DELETE', `/v1/api-keys/${id}`, { token });
    expect(revoked.status, revoked.text).toBe(200);
    for (const api of [a, b]) {
      const res = await api.get('/v1/user/credits', key);
      expect(res.status, res.text).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
    }
  });

  it("counts a key's requests on both instances against its hourly limit, and all keys of the account against one ceiling", async () => {
    await clearOfWindowEnd(3600);
    const { key, token } = await a.signUpWithKey();
    // The key was created with the session: its own window is whole.
    const remaining: string[] = [];
    for (let i = 0; i < REQUESTS_PER_HOUR; i += 1) {
      const res = await [a, b][i % 2]!.get('/v1/user/credits', key);
      expect(res.status, res.text).toBe(200);
      remaining.push(res.headers.get('x-ratelimit-remaining')!);
    }
    expect(remaining).toEqual(Array.from({ length: REQUESTS_PER_HOUR }, (_, i) => String(REQUESTS_PER_HOUR - 1 - i)));
    for (const api of [a, b]) {
      const res = await api.get('/v1/user/credits', key);
      expect(res.status, res.text).toBe(429);
      expect(res.body.error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', limit: 'key' });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // The account has spent 15 of its 36 (three keys' worth, the default) with two more keys
    // made; those two could take 24 between them, in parallel on both instances, but get 21.
    const more = [await a.createKey(token, 'two'), await b.createKey(token, 'three')];
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => [a, b][i % 2]!.get('/v1/user/credits', more[Math.floor(i / 2) % 2]!.key)),
    );
    expect(answers.filter((res) => res.status === 200)).toHaveLength(3 * REQUESTS_PER_HOUR - 15);
    const refusedBy = answers.filter((res) => res.status !== 200).map((res) => `${res.status} ${res.body.error?.limit}`);
    expect(refusedBy).toContain('429 account');
    for (const refusal of refusedBy) expect(['429 key', '429 account']).toContain(refusal);
  });

  it("counts one account's running requests on both instances against one concurrency limit", async () => {
    const { key } = await a.signUpWithKey();
    // One slow page on each instance takes both of the account's slots.
    const slow = [a.post('/v1/web/content', { url: `${site.origin}/slow/1` }, key), b.post('/v1/web/content', { url: `${site.origin}/slow/2` }, key)];
    for (let i = 0; i < 300 && heldPages.length < CONCURRENCY; i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heldPages).toHaveLength(CONCURRENCY);
    for (const api of [a, b]) {
      const res = await api.post('/v1/web/content', { url: `${site.origin}/third` }, key);
      expect(res.status, res.text).toBe(429);
      expect(res.body.error.code).toBe('CONCURRENCY_LIMIT_EXCEEDED');
    }
    expect(site.hitsTo('/third')).toHaveLength(0);
    for (const res of heldPages.splice(0)) res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>slow</p>');
    const finished = await Promise.all(slow);
    expect(finished.map((res) => res.status), failures(finished)).toEqual([200, 200]);
    const after = await b.post('/v1/web/content', { url: `${site.origin}/third` }, key);
    expect(after.status, after.text).toBe(200);
  });

  it(`parallel spending across both never overspends: ${CREDITS} credits, ${SPEND_REQUESTS} requests`, async () => {
    const { key, userId } = await a.signUpWithKey();
    // On the pro plan the account's concurrency (20) is high enough that only credits refuse.
    await query(`update "user" set plan = 'pro' where id = $1`, [userId]);
    expect((await b.get('/v1/user/credits', key)).body.data).toMatchObject({ plan: 'pro', balance: CREDITS });

    const responses = await Promise.all(
      Array.from({ length: SPEND_REQUESTS }, (_, i) => [a, b][i % 2]!.post('/v1/web/content', { url: `${site.origin}/spend/${i}` }, key)),
    );
    const statuses = responses.map((res) => res.status).sort();
    expect(statuses, failures(responses)).toEqual([...Array(CREDITS).fill(200), ...Array(SPEND_REQUESTS - CREDITS).fill(402)]);
    for (const res of responses.filter((r) => r.status === 402)) expect(res.body.error.code).toBe('INSUFFICIENT_CREDITS');
    expect(site.hits.filter((hit) => hit.path.startsWith('/spend/'))).toHaveLength(CREDITS);
    for (const api of [a, b]) expect((await api.get('/v1/user/credits', key)).body.data.balance).toBe(0);
    const [ledger] = await query<{ lowest: number; spent: string }>(
      "select min(balance_after) as lowest, sum(delta) as spent from credit_ledger where user_id = $1 and reason like '%web:content'",
      [userId],
    );
    expect(ledger).toEqual({ lowest: 0, spent: String(-CREDITS) });
  });

  it('a file made on one instance is listed, served and deleted through the other', async () => {
    const { key } = await a.signUpWithKey();
    const shot = await fetch(`${instances[0]!.baseUrl}/v1/web/screenshot`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.origin}/file` }),
    });
    expect(shot.status, shot.status === 200 ? '' : await shot.clone().text()).toBe(200);
    const bytes = new Uint8Array(await shot.arrayBuffer());
    const fileId = shot.headers.get('x-file-id')!;
    const publicUrl = shot.headers.get('x-file-url')!;
    expect(publicUrl.startsWith(`${PUBLIC_URL}/files/`)).toBe(true);
    const through = (instance: ServerProcess) => publicUrl.replace(PUBLIC_URL, instance.baseUrl);

    const listed = await b.get('/v1/files/list', key);
    expect(listed.body.data.files.map((file: { id: string }) => file.id), listed.text).toEqual([fileId]);
    const objectKey = listed.body.data.files[0].r2_key as string;
    expect(await s3.keys()).toContain(objectKey);
    const served = await fetch(through(instances[1]!));
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);

    const deleted = await b.post('/v1/files/delete', { fileId, deleteFromR2: true }, key);
    expect(deleted.body.data, deleted.text).toMatchObject({ wasFound: true, deletedFromDatabase: true, deletedFromR2: true });
    expect(await s3.keys()).not.toContain(objectKey);
    expect((await fetch(through(instances[0]!))).status).toBe(404);
    expect((await a.get('/v1/files/list', key)).body.data.totalFiles).toBe(0);
  });

  it('clearing the cache through one instance clears it for the other', async () => {
    const { key } = await a.signUpWithKey();
    const page = { url: `${site.origin}/cached` };
    const first = await a.post('/v1/web/content', page, key);
    expect(first.status, first.text).toBe(200);
    expect(first.headers.get('x-cache')).toBe('MISS');
    const fromB = await b.post('/v1/web/content', page, key);
    expect(fromB.headers.get('x-cache'), fromB.text).toBe('HIT');
    expect(site.hitsTo('/cached')).toHaveLength(1);

    const cleared = await b.get('/v1/user/clear-cache', key);
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.data.details.totalCleared).toBeGreaterThanOrEqual(1);
    const again = await a.post('/v1/web/content', page, key);
    expect(again.headers.get('x-cache'), again.text).toBe('MISS');
    expect(site.hitsTo('/cached')).toHaveLength(2);
  });
});
