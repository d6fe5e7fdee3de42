import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import pino from 'pino';
import { type App, createApp } from '../../src/app.js';
import type { MailMessage, Mailer } from '../../src/auth/mailer.js';
import { loadConfig } from '../../src/config.js';
import { type AppContext, type ContextOverrides, closeContext, createContext } from '../../src/container.js';
import { createPostgresDatabase, type TestDialect } from './databases.js';

export interface TestServer {
  baseUrl: string;
  app: App;
  ctx: AppContext;
  /** Every log line the service wrote, as JSON text (LOG_LEVEL=info unless overridden). */
  logs: string[];
  /** Messages the service would have e-mailed. */
  outbox: MailMessage[];
  close(): Promise<void>;
}

/** Records messages instead of sending them: the e-mail boundary (it stands in for SMTP), not one of our modules. */
function createOutbox(): Mailer & { messages: MailMessage[] } {
  const messages: MailMessage[] = [];
  return { messages, delivery: 'smtp', send: async (message) => void messages.push(message) };
}

/**
 * Attempt limits of the auth routes, raised so that suites signing up many accounts from
 * 127.0.0.1 are not refused; the suites about those limits pass the production values.
 */
export const RELAXED_AUTH_LIMITS: Record<string, string> = {
  AUTH_SIGN_IN_PER_ADDRESS: '100000',
  AUTH_SIGN_IN_PER_EMAIL: '100000',
  AUTH_SIGN_UP_PER_ADDRESS: '100000',
  AUTH_MAIL_PER_ADDRESS: '100000',
  AUTH_MAIL_PER_EMAIL: '100000',
};

/**
 * Starts the real app on 127.0.0.1, port 0, with a fresh SQLite file or PostgreSQL database.
 * The port is known only after listening, so the public base URL is set from it afterwards.
 * Mail lands in `outbox` unless SMTP_URL is set, or `overrides.mailer` is given (undefined:
 * the service's own log mailer, as with SMTP_URL unset in production).
 */
export async function startTestServer(
  dialect: TestDialect,
  env: Record<string, string> = {},
  overrides: ContextOverrides = {},
): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'pluck-test-'));
  const postgres = dialect === 'postgres' ? await createPostgresDatabase() : undefined;
  const outbox = createOutbox();
  const listener = await listenOnFreePort();
  const baseUrl = `http://127.0.0.1:${listener.port}`;
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PORT: String(listener.port),
    PUBLIC_BASE_URL: baseUrl,
    AUTH_SECRET: 'test-secret-that-is-long-enough-for-better-auth',
    ...RELAXED_AUTH_LIMITS,
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...env,
  });
  const logs: string[] = [];
  const logger = pino({ level: env.LOG_LEVEL ?? 'info' }, { write: (line: string) => void logs.push(line) });
  // With SMTP_URL set the container's own SMTP mailer is used; otherwise mail lands in `outbox`.
  const mailer = env.SMTP_URL ? undefined : outbox;
  const ctx = await createContext(config, { mailer, logger, ...overrides });
  const app = createApp(ctx);
  listener.attach(app.fetch);
  return {
    baseUrl,
    app,
    ctx,
    logs,
    outbox: outbox.messages,
    close: async () => {
      await listener.close();
      await closeContext(ctx);
      await postgres?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

type FetchHandler = (request: Request, bindings: unknown) => Response | Promise<Response>;

/** Listens first so the URL is known before the app (whose auth needs it) is built. */
async function listenOnFreePort() {
  let handler: FetchHandler | undefined;
  const server = serve({
    port: 0,
    hostname: '127.0.0.1',
    // The bindings carry the socket, from which the app reads the client address.
    fetch: (request, bindings) => (handler ? handler(request, bindings) : new Response('starting', { status: 503 })),
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    attach: (fetch: FetchHandler) => {
      handler = fetch;
    },
    close: () =>
      new Promise<void>((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
