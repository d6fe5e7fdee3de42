import { Redis } from 'ioredis';
import pino from 'pino';
import { RedisConnection } from '../../src/redis/redis-connection.js';

/** Where limiter and cache state lives in a suite: in the process, or in Redis. */
export type TestBackend = 'memory' | 'redis';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const inCi = process.env.CI === 'true';
/** `npm run test:quick` leaves the Redis runs to the full suite; CI runs them regardless. */
const localOnly = process.env.TEST_EXTERNAL_SERVICES === 'off' && !inCi;

async function redisReachable(): Promise<boolean> {
  const client = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 2000,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/**
 * The backends a limiter or cache suite runs against: memory always; Redis when it answers (and
 * TEST_EXTERNAL_SERVICES is not `off`). In CI Redis is required, so its absence fails the run
 * instead of skipping quietly.
 */
export async function testBackends(): Promise<TestBackend[]> {
  if (localOnly) return ['memory'];
  if (await redisReachable()) return ['memory', 'redis'];
  if (inCi) throw new Error(`CI=true but Redis at ${TEST_REDIS_URL} is unreachable`);
  process.stderr.write(`\n*** Redis at ${TEST_REDIS_URL} unreachable: SKIPPING the Redis runs of this suite ***\n\n`);
  return ['memory'];
}

/** A key prefix no other run shares, so suites never see each other's keys. */
export function uniqueRedisPrefix(): string {
  return `pluck-test:${process.pid}:${Math.random().toString(36).slice(2, 10)}:`;
}

/** Server env selecting the backend; Redis runs get their own key prefix. */
export function backendEnv(backend: TestBackend, prefix: string): Record<string, string> {
  return backend === 'redis' ? { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix } : {};
}

/** A connection of the production kind, for suites that build limiters or caches directly. */
export async function testRedisConnection(prefix: string, url = TEST_REDIS_URL): Promise<RedisConnection> {
  const settings = { keyPrefix: prefix, connectTimeoutMs: 2000, commandTimeoutMs: 2000, slotTtlSeconds: 300 };
  const connection = new RedisConnection(url, settings, pino({ level: 'silent' }));
  await connection.connect();
  return connection;
}

/** Keys under `prefix`, with their remaining lifetime in ms (-1: none). */
export async function redisKeysWithTtl(prefix: string): Promise<Map<string, number>> {
  const client = new Redis(TEST_REDIS_URL);
  try {
    const keys = new Map<string, number>();
    let cursor = '0';
    do {
      const [next, batch] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      for (const key of batch) keys.set(key, await client.pttl(key));
    } while (cursor !== '0');
    return keys;
  } finally {
    client.disconnect();
  }
}

/** Removes every key a run left under its prefix. */
export async function deleteRedisKeys(prefix: string): Promise<void> {
  const keys = [...(await redisKeysWithTtl(prefix)).keys()];
  if (keys.length === 0) return;
  const client = new Redis(TEST_REDIS_URL);
  try {
    await client.del(...keys);
  } finally {
    client.disconnect();
  }
}
