import { createHash } from 'node:crypto';
import { Redis, ReplyError } from 'ioredis';
import type { Logger } from 'pino';
import type { RedisConfig } from '../config.js';

/**
 * Redis did not answer: refused, dropped, or too slow. Typed so the layers above can answer
 * 503 SERVICE_UNAVAILABLE instead of 500; errors Redis itself replies with are bugs and pass.
 */
export class RedisUnavailable extends Error {
  constructor(cause: unknown) {
    super(`Redis is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'RedisUnavailable';
  }
}

const MAX_RECONNECT_DELAY_MS = 2000;

/**
 * One client shared by the Redis-backed limiters and cache. Commands never queue while the
 * connection is down and never wait longer than the command timeout, so an outage turns into
 * prompt errors; the client keeps reconnecting in the background and service resumes by itself.
 */
export class RedisConnection {
  readonly client: Redis;
  readonly prefix: string;
  private down = false;

  constructor(url: string, settings: RedisConfig, private readonly logger: Logger) {
    this.prefix = settings.keyPrefix;
    this.client = new Redis(url, {
      lazyConnect: true,
      connectTimeout: settings.connectTimeoutMs,
      commandTimeout: settings.commandTimeoutMs,
      // A command left without a reply also drops the connection, so a late reply can never
      // be taken for the answer to a later command on a stalled link.
      socketTimeout: settings.commandTimeoutMs,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      retryStrategy: (attempt) => Math.min(100 * 2 ** Math.min(attempt, 5), MAX_RECONNECT_DELAY_MS),
    });
    // Logged once per outage, not once per reconnect attempt.
    this.client.on('error', (error: Error) => {
      if (this.down) return;
      this.down = true;
      this.logger.warn({ err: error }, 'redis unavailable; reconnecting in the background');
    });
    this.client.on('ready', () => {
      if (this.down) this.logger.info('redis available again');
      this.down = false;
    });
  }

  /** First connection at startup. A Redis that is down is reported, not fatal: requests get 503 until it is back. */
  async connect(): Promise<void> {
    await this.client.connect().catch((error: unknown) => {
      this.logger.warn({ err: error }, 'redis not reachable at startup; requests needing it answer 503 until it is');
    });
  }

  /** A key under the configured prefix. */
  key(...parts: string[]): string {
    return `${this.prefix}${parts.join(':')}`;
  }

  /** Runs commands, turning connection failures and timeouts into RedisUnavailable. */
  async run<T>(commands: (client: Redis) => Promise<T>): Promise<T> {
    try {
      return await commands(this.client);
    } catch (error) {
      if (error instanceof ReplyError) throw error;
      throw new RedisUnavailable(error);
    }
  }

  /** Throws RedisUnavailable when Redis does not answer; used by /ready. */
  async check(): Promise<void> {
    await this.run((client) => client.ping());
  }

  async close(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}

/** A Lua script run by its SHA1, loaded on first use (and again after a Redis restart). */
export class LuaScript {
  private readonly sha: string;

  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  async run(client: Redis, keys: string[], args: (string | number)[]): Promise<unknown> {
    try {
      return await client.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof ReplyError) || !String((error as Error).message).startsWith('NOSCRIPT')) throw error;
      return client.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}
