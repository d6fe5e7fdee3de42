import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config.js';

/**
 * Environments that between them set every variable, leave every one to its default, and take
 * each path of the derived values (origins, queue, account ceiling, S3, egress) and of the
 * checks. `config-environments.json` holds what loadConfig made of each before the config was
 * split into sections; `config.unit.test.ts` holds the code to it. After a deliberate change to the
 * config, rewrite the file with `npx tsx test/config/record-config.ts` and read its diff.
 */
export const DEFAULTS = 'defaults only';

export const ENVIRONMENTS: Record<string, Record<string, string | undefined>> = {
  [DEFAULTS]: {},
  'empty and undefined values count as unset': {
    PORT: '',
    HOST: '',
    ADMIN_EMAILS: '',
    S3_BUCKET: '',
    S3_REGION: '',
    FREE_ACCOUNT_REQUESTS_PER_HOUR: '',
    BROWSER_WARM_PAGES: undefined,
    JOBS_QUEUE: undefined,
  },
  'variables Pluck does not read are ignored': { PATH: '/usr/bin', HOME: '/root', PLUCK_API_URL: 'http://x', SMTP_HOST: 'mail' },
  'every variable set': {
    NODE_ENV: 'development',
    PORT: '8080',
    HOST: '10.1.2.3',
    DATA_DIR: '/var/lib/pluck',
    DASHBOARD_DIR: 'build/dashboard',
    PUBLIC_BASE_URL: 'https://pluck.example.com/',
    FRONTEND_URL: 'https://app.example.com//',
    ADMIN_EMAILS: ' Ann@Example.com, bob@example.com,,ANN@example.com ',
    LOG_LEVEL: 'debug',
    AUTH_SECRET: 'a'.repeat(40),
    REQUIRE_EMAIL_VERIFICATION: 'yes',
    SMTP_URL: 'smtps://user:pass@smtp.example.com:465',
    MAIL_FROM: 'Pluck <pluck@example.com>',
    EMAIL_VERIFICATION_TTL_SECONDS: '601',
    PASSWORD_RESET_TTL_SECONDS: '902',
    TRUSTED_PROXIES: '10.0.0.1, 192.168.0.0/16,::1',
    AUTH_LIMIT_WINDOW_SECONDS: '61',
    AUTH_SIGN_IN_PER_ADDRESS: '31',
    AUTH_SIGN_IN_PER_EMAIL: '11',
    AUTH_SIGN_UP_PER_ADDRESS: '6',
    AUTH_MAIL_PER_ADDRESS: '13',
    AUTH_MAIL_PER_EMAIL: '4',
    DATABASE_URL: 'postgres://pluck@db:5432/pluck',
    DATABASE_TIMEOUT_MS: '5001',
    REDIS_URL: 'redis://redis:6379/2',
    REDIS_KEY_PREFIX: 'pluck-a:',
    REDIS_CONNECT_TIMEOUT_MS: '3001',
    REDIS_COMMAND_TIMEOUT_MS: '1501',
    CONCURRENCY_SLOT_TTL_SECONDS: '121',
    FILE_SWEEP_INTERVAL_SECONDS: '599',
    FILE_SWEEP_BATCH_SIZE: '51',
    S3_ENDPOINT: 'https://account.r2.cloudflarestorage.com/',
    S3_BUCKET: 'pluck',
    S3_REGION: 'auto',
    S3_ACCESS_KEY_ID: 'id',
    S3_SECRET_ACCESS_KEY: 'secret',
    S3_PUBLIC_URL: 'https://files.example.com/',
    S3_TIMEOUT_MS: '5002',
    MAX_BODY_BYTES: '2048',
    SHUTDOWN_GRACE_MS: '8999',
    SHUTDOWN_DELAY_MS: '1502',
    READY_CHECK_TIMEOUT_MS: '701',
    METRICS_TOKEN: 'm'.repeat(16),
    CHROMIUM_PATH: '/opt/chromium/chrome',
    CHROMIUM_SANDBOX: 'no',
    CHROMIUM_USER: 'chrome_user-1',
    BROWSER_WS_ENDPOINT: 'ws://browser:9222/devtools',
    BROWSER_REMOTE_HEARTBEAT_MS: '2501',
    BROWSER_MAX_PAGES: '14',
    BROWSER_ACCOUNT_MAX_PAGES: '9',
    BROWSER_MAX_QUEUE: '99',
    BROWSER_QUEUE_TIMEOUT_MS: '4001',
    BROWSER_RECYCLE_AFTER: '53',
    BROWSER_PREPARED_CONTEXTS: '3',
    BROWSER_WARM_PAGES: '12',
    BROWSER_WARM_PAGE_IDLE_MS: '1001',
    BROWSER_WARM_PAGE_USES: '7',
    BROWSER_SESSIONS_PER_ACCOUNT: '2',
    BROWSER_SESSIONS_MAX: '98',
    BROWSER_SESSION_IDLE_MS: '60001',
    NAVIGATION_TIMEOUT_MAX_MS: '20001',
    EGRESS_PROXY_HOST: '0.0.0.0',
    EGRESS_PROXY_PORT: '3128',
    EGRESS_PROXY_PUBLIC_URL: 'http://pluck-1.lan:3128/',
    ALLOW_PRIVATE_NETWORKS: '1',
    ALLOW_PRIVATE_HOSTS: '127.0.0.1:8080, [::1]:9000',
    FREE_REQUESTS_PER_HOUR: '101',
    PRO_REQUESTS_PER_HOUR: '2001',
    FREE_ACCOUNT_REQUESTS_PER_HOUR: '151',
    PRO_ACCOUNT_REQUESTS_PER_HOUR: '9001',
    FREE_CONCURRENCY: '15',
    PRO_CONCURRENCY: '30',
    FREE_MONTHLY_CREDITS: '17',
    PRO_MONTHLY_CREDITS: '5003',
    FREE_MAX_API_KEYS: '19',
    PRO_MAX_API_KEYS: '200',
    FREE_FILE_RETENTION_DAYS: '21',
    PRO_FILE_RETENTION_DAYS: '90',
    SEARXNG_URL: 'http://searxng:8080/',
    BRAVE_API_KEY: 'brave-key',
    BRAVE_BASE_URL: 'http://brave-stand-in:9000//',
    SEARCH_TIMEOUT_MS: '3002',
    SEARCH_CREDIT_COST: '22',
    YOUTUBE_BASE_URL: 'http://youtube-stand-in:9001/',
    YOUTUBE_TIMEOUT_MS: '4002',
    CAPTIONS_CREDIT_COST: '23',
    OPENAI_BASE_URL: 'http://models.internal:8000/v1/',
    OPENAI_API_KEY: 'sk-test',
    AI_MODEL: 'some-model',
    AI_MAX_INPUT_TOKENS: '501',
    AI_TIMEOUT_MS: '30001',
    AI_EXTRACT_CREDIT_COST: '24',
    SCREENSHOT_CREDIT_COST: '25',
    PDF_CREDIT_COST: '26',
    CONTENT_CREDIT_COST: '27',
    MARKDOWN_CREDIT_COST: '28',
    SCRAPE_CREDIT_COST: '29',
    LINKS_CREDIT_COST: '32',
    CACHE_TTL_SECONDS: '33',
    CACHE_MAX_ENTRY_BYTES: '1002',
    CACHE_MAX_USER_BYTES: '2002',
    CACHE_MAX_BYTES: '3003',
    ANSWER_MAX_CHARS: '10001',
    SCREENSHOT_MAX_WIDTH: '2003',
    SCREENSHOT_MAX_HEIGHT: '3004',
    SCREENSHOT_MAX_PIXELS: '4000001',
    PDF_MAX_PAGES: '10',
    SCRAPE_MAX_SELECTORS: '5',
    SCRAPE_MAX_RESULTS: '16',
    DOCUMENT_MAX_BYTES: '2000003',
    DOCUMENT_MAX_PAGES: '17',
    DOCUMENT_PARSE_TIMEOUT_MS: '9001',
    STATIC_MAX_BYTES: '3000004',
    FREE_JOBS_AT_ONCE: '1',
    PRO_JOBS_AT_ONCE: '20',
    FREE_JOB_MAX_PAGES: '52',
    PRO_JOB_MAX_PAGES: '5004',
    FREE_JOB_PAGES_PER_HOUR: '102',
    PRO_JOB_PAGES_PER_HOUR: '9002',
    JOB_CONCURRENCY: '34',
    JOBS_GLOBAL_CONCURRENCY: '35',
    JOB_PAGE_TIMEOUT_MS: '45001',
    JOB_PAGE_ATTEMPTS: '8',
    JOB_RETRY_BASE_MS: '502',
    JOB_LEASE_SECONDS: '62',
    JOB_POLL_INTERVAL_MS: '1003',
    JOB_RETENTION_HOURS: '48',
    JOBS_RUNNER: 'off',
    JOBS_QUEUE: 'database',
    JOB_WEBHOOK_ATTEMPTS: '18',
    JOB_WEBHOOK_TIMEOUT_MS: '5005',
    JOB_ANSWER_MAX_BYTES: '5000000',
    JOB_RESULT_MAX_BYTES: '20000000',
    JOB_TOTAL_MAX_BYTES: '900000000',
  },
  'wildcard listener: links on localhost, every loopback origin trusted': { HOST: '0.0.0.0', PORT: '8080' },
  'IPv6 wildcard listener': { HOST: '::' },
  'IPv6 loopback listener': { HOST: '::1', PORT: '4000' },
  'localhost listener with a separate dashboard': { HOST: 'localhost', FRONTEND_URL: 'http://localhost:5173/' },
  'IPv6 address listener: bracketed in links, no loopback origins': { HOST: 'fe80::1', PORT: '3001' },
  'LAN listener: no loopback origins': { HOST: '192.168.1.5' },
  'public URL on loopback: no loopback origins added': { PUBLIC_BASE_URL: 'http://127.0.0.1:3000' },
  'port 0': { PORT: '0' },
  'test environment with a relative data directory': { NODE_ENV: 'test', DATA_DIR: 'tmp/pluck-data', DASHBOARD_DIR: './web/../dashboard' },
  'Redis picks the BullMQ queue': { REDIS_URL: 'redis://127.0.0.1:6379' },
  'Redis with the database queue asked for': { REDIS_URL: 'redis://127.0.0.1:6379', JOBS_QUEUE: 'database' },
  'BullMQ asked for without Redis': { JOBS_QUEUE: 'bullmq' },
  'auto queue named': { JOBS_QUEUE: 'auto', REDIS_URL: 'redis://127.0.0.1:6379' },
  'flags spelled true, 0 and false': { REQUIRE_EMAIL_VERIFICATION: 'true', CHROMIUM_SANDBOX: '0', ALLOW_PRIVATE_NETWORKS: 'false' },
  'flags spelled 1 and yes': { REQUIRE_EMAIL_VERIFICATION: '1', CHROMIUM_SANDBOX: 'yes', ALLOW_PRIVATE_NETWORKS: 'yes' },
  'account ceilings follow the per-key limits': { FREE_REQUESTS_PER_HOUR: '40', PRO_REQUESTS_PER_HOUR: '7' },
  'account ceiling equal to the per-key limit': { PRO_ACCOUNT_REQUESTS_PER_HOUR: '10000' },
  'S3 with a bucket only': { S3_BUCKET: 'pluck' },
  'S3 with the AWS credential chain and a public URL': { S3_BUCKET: 'b', S3_PUBLIC_URL: 'http://files.lan/pluck/' },
  'egress proxy on a fixed port without a public URL': { EGRESS_PROXY_HOST: '10.0.0.5', EGRESS_PROXY_PORT: '3128' },
  'remote browser over http': { BROWSER_WS_ENDPOINT: 'http://browser:9222' },
  'zero where zero is allowed': {
    FILE_SWEEP_INTERVAL_SECONDS: '0',
    SHUTDOWN_GRACE_MS: '0',
    BROWSER_MAX_QUEUE: '0',
    BROWSER_PREPARED_CONTEXTS: '0',
    BROWSER_WARM_PAGES: '0',
    EGRESS_PROXY_PORT: '0',
    FREE_MONTHLY_CREDITS: '0',
    SEARCH_CREDIT_COST: '0',
    CAPTIONS_CREDIT_COST: '0',
    MARKDOWN_CREDIT_COST: '0',
    AI_EXTRACT_CREDIT_COST: '0',
    CACHE_TTL_SECONDS: '0',
  },
  'warm pages and account pages set': { BROWSER_WARM_PAGES: '3', BROWSER_ACCOUNT_MAX_PAGES: '1', BROWSER_MAX_PAGES: '2' },

  // Each problem with the message it gives.
  'bad port and bad concurrency': { PORT: 'eighty', FREE_CONCURRENCY: '-1' },
  'port out of range': { PORT: '70000' },
  'unknown environment name': { NODE_ENV: 'staging' },
  'unknown log level': { LOG_LEVEL: 'verbose' },
  'public URL not a URL': { PUBLIC_BASE_URL: 'pluck.example.com' },
  'flag neither true nor false': { CHROMIUM_SANDBOX: 'maybe' },
  'short auth secret': { AUTH_SECRET: 'short' },
  'short metrics token': { METRICS_TOKEN: 'short' },
  'mail sender too short': { MAIL_FROM: 'x' },
  'link lifetimes out of range': { EMAIL_VERIFICATION_TTL_SECONDS: '10', PASSWORD_RESET_TTL_SECONDS: '100000' },
  'trusted proxies not addresses': { TRUSTED_PROXIES: '10.0.0.1, proxy.lan' },
  'auth window too long and a zero limit': { AUTH_LIMIT_WINDOW_SECONDS: '86401', AUTH_MAIL_PER_EMAIL: '0' },
  'Redis key prefix too long': { REDIS_KEY_PREFIX: 'p'.repeat(101) },
  'fractional and negative numbers': { DATABASE_TIMEOUT_MS: '1.5', FILE_SWEEP_INTERVAL_SECONDS: '-1', SHUTDOWN_DELAY_MS: '-5' },
  'chromium user not a user name': { CHROMIUM_USER: 'Root User' },
  'remote browser over ftp': { BROWSER_WS_ENDPOINT: 'ftp://b:9222' },
  'private hosts without ports': { ALLOW_PRIVATE_HOSTS: 'intranet.example' },
  'egress public URL without a fixed port': { EGRESS_PROXY_PUBLIC_URL: 'http://pluck-1.lan:3128' },
  'egress public URL over https': { EGRESS_PROXY_PUBLIC_URL: 'https://pluck-1.lan:3128', EGRESS_PROXY_PORT: '3128' },
  'free account ceiling below the per-key limit': { FREE_ACCOUNT_REQUESTS_PER_HOUR: '999' },
  'both account ceilings below the per-key limits': { FREE_REQUESTS_PER_HOUR: '50', FREE_ACCOUNT_REQUESTS_PER_HOUR: '49', PRO_ACCOUNT_REQUESTS_PER_HOUR: '1' },
  'too many API keys allowed': { PRO_MAX_API_KEYS: '10001' },
  'search and AI URLs over ftp': { SEARXNG_URL: 'ftp://searx', BRAVE_BASE_URL: 'ftp://brave', OPENAI_BASE_URL: 'ftp://models.internal', YOUTUBE_BASE_URL: 'nope' },
  'AI input budget too small and model name too long': { AI_MAX_INPUT_TOKENS: '100', AI_MODEL: 'm'.repeat(201) },
  'page bounds out of range': { ANSWER_MAX_CHARS: '9999', SCREENSHOT_MAX_PIXELS: '268435457', PDF_MAX_PAGES: '0', SCRAPE_MAX_SELECTORS: '1001' },
  'negative credit cost': { MARKDOWN_CREDIT_COST: '-1', CACHE_MAX_BYTES: '0' },
  'job settings out of range': { JOB_CONCURRENCY: '101', JOB_PAGE_ATTEMPTS: '11', JOBS_RUNNER: 'sometimes', JOBS_QUEUE: 'kafka' },
  'an S3 variable without a bucket': { S3_ENDPOINT: 'http://127.0.0.1:9000' },
  'a misspelt S3 variable': { S3_BUKET: 'pluck', S3_REGION: 'auto' },
  'half an S3 key pair': { S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'id' },
  'the other half of an S3 key pair, without a bucket': { S3_SECRET_ACCESS_KEY: 'secret' },
  'an S3 URL that is not one, with a bad port': { S3_PUBLIC_URL: 'not a url', PORT: 'eighty' },
  'S3 endpoint over ftp': { S3_BUCKET: 'b', S3_ENDPOINT: 'ftp://example.com' },
  'S3 bucket name too long': { S3_BUCKET: 'b'.repeat(256), S3_TIMEOUT_MS: '0' },
};

/**
 * What loadConfig makes of an environment, as JSON: the problems it lists, the whole config
 * (of the defaults), or for the others only the values that differ from the defaults' config,
 * by path (`browser.warmPages.maxPages`), so that each environment shows what it changes.
 */
export type ConfigOutcome = { config: unknown } | { changed: Record<string, unknown> } | { problems: string[] };


export function configOutcome(env: Record<string, string | undefined>, defaults?: unknown): ConfigOutcome {
  let config: unknown;
  try {
    config = toJson(loadConfig(env), env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { problems: error.problems };
  }
  if (defaults === undefined) return { config };
  const before = flatten(defaults);
  const after = flatten(config);
  const paths = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const changed = paths.filter((path) => JSON.stringify(before[path]) !== JSON.stringify(after[path]));
  return { changed: Object.fromEntries(changed.map((path) => [path, path in after ? after[path] : '$absent'])) };
}

/** Leaves by dotted path; arrays and Sets are leaves. */
function flatten(value: unknown, prefix = '', into: Record<string, unknown> = {}): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || '$set' in value) {
    into[prefix] = value;
    return into;
  }
  for (const [key, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}.${key}` : key, into);
  return into;
}

/**
 * The config as plain JSON that keeps what JSON would lose or what depends on the machine:
 * Sets become `{ $set: [...] }`, undefined values `"$undefined"` (so a key set to undefined
 * still shows), paths under the working directory `$cwd/...`, and the default browser page
 * count (from the number of cores) `"$fromCores"`.
 */
function toJson(config: object, env: Record<string, string | undefined>): unknown {
  const copy = JSON.parse(
    JSON.stringify(config, (_key, value: unknown) => {
      if (value === undefined) return '$undefined';
      if (value instanceof Set) return { $set: [...value] };
      if (typeof value === 'string' && value.startsWith('/')) {
        const path = relative(process.cwd(), value);
        if (!path.startsWith('..') && value !== '/') return `$cwd/${path}`;
      }
      return value;
    }),
  ) as { browser: { maxPages: unknown } };
  if (!env.BROWSER_MAX_PAGES) {
    const fromCores = Math.min(16, Math.max(2, availableParallelism() * 2));
    if (copy.browser.maxPages !== fromCores) throw new Error(`default BROWSER_MAX_PAGES ${String(copy.browser.maxPages)}, expected ${fromCores}`);
    copy.browser.maxPages = '$fromCores';
  }
  return copy;
}
