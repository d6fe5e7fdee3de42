import { resolve } from 'node:path';
import { z } from 'zod';
import { isAddressOrRange } from '../net/address-range.js';
import { commaList, nonNegativeInt, portNumber, positiveInt, stripTrailingSlash } from './env-values.js';

/** The process, its listener and the addresses it is known by. */
export const serverSection = z
  .object({
    /** `development` opens /v1/user/initialize. */
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    PORT: portNumber.default(3000),
    HOST: z.string().min(1).default('127.0.0.1'),
    DATA_DIR: z.string().min(1).default('./data'),
    /** The built dashboard (static files served at `/`); `npm run build` writes it. */
    DASHBOARD_DIR: z.string().min(1).default('./dist/dashboard'),
    /** Origin under which this service is reached; used for links it hands out. Unset: http://HOST:PORT. */
    PUBLIC_BASE_URL: z.url().optional(),
    /** Where the dashboard lives; redirects after e-mail verification go here and nowhere else. Unset: PUBLIC_BASE_URL. */
    FRONTEND_URL: z.url().optional(),
    /** Proxies whose X-Forwarded-For is believed; empty means the connecting peer is the client. */
    TRUSTED_PROXIES: commaList
      .refine((entries) => entries.every(isAddressOrRange), 'TRUSTED_PROXIES must be a comma list of IP addresses or CIDR ranges')
      .default([]),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    MAX_BODY_BYTES: positiveInt.default(1024 * 1024),
    SHUTDOWN_GRACE_MS: nonNegativeInt.default(10_000),
    /** After SIGTERM, /ready answers 503 this long before the listener closes (for load balancers that poll it). */
    SHUTDOWN_DELAY_MS: nonNegativeInt.default(0),
    /** Each /ready check (database, Redis, storage) that takes longer counts as unavailable. */
    READY_CHECK_TIMEOUT_MS: positiveInt.default(2000),
    /** Bearer token for /metrics; unset turns /metrics off. */
    METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  })
  .transform((e) => {
    const publicBaseUrl = stripTrailingSlash(e.PUBLIC_BASE_URL ?? `http://${hostForUrl(e.HOST)}:${e.PORT}`);
    const frontendUrl = stripTrailingSlash(e.FRONTEND_URL ?? publicBaseUrl);
    return {
      env: e.NODE_ENV,
      port: e.PORT,
      host: e.HOST,
      dataDir: resolve(e.DATA_DIR),
      dashboardDir: resolve(e.DASHBOARD_DIR),
      publicBaseUrl,
      frontendUrl,
      /** Origins whose browser requests better-auth accepts (its CSRF/origin check). */
      trustedOrigins: trustedOrigins(e, [publicBaseUrl, frontendUrl]),
      trustedProxies: e.TRUSTED_PROXIES,
      logLevel: e.LOG_LEVEL,
      maxBodyBytes: e.MAX_BODY_BYTES,
      shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
      shutdownDelayMs: e.SHUTDOWN_DELAY_MS,
      readyCheckTimeoutMs: e.READY_CHECK_TIMEOUT_MS,
      metricsToken: e.METRICS_TOKEN,
    };
  });

/**
 * The public and dashboard origins, and, when PUBLIC_BASE_URL is left to its default on a
 * loopback or wildcard listener, every loopback spelling of this port: someone who just ran
 * start.sh opens localhost or 127.0.0.1 alike and expects sign-in to work from either.
 */
function trustedOrigins(e: { PUBLIC_BASE_URL?: string; HOST: string; PORT: number }, configured: string[]): string[] {
  const origins = [...configured];
  const loopbackOrWildcard = ['127.0.0.1', 'localhost', '::1', '0.0.0.0', '::'].includes(e.HOST);
  if (!e.PUBLIC_BASE_URL && loopbackOrWildcard) {
    origins.push(...['localhost', '127.0.0.1', '[::1]'].map((host) => `http://${host}:${e.PORT}`));
  }
  return [...new Set(origins)];
}

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}
