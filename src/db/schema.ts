import type { Generated } from 'kysely';

/**
 * Tables Pluck owns. better-auth owns `user`, `session`, `account`, `verification` and
 * `apikey`; the few of their columns Pluck reads are typed here too. Timestamps in Pluck's own
 * tables are ISO 8601 strings so both dialects read and compare them the same way.
 */
export interface Database {
  user: UserTable;
  session: SessionTable;
  verification: VerificationTable;
  apikey: ApiKeyTable;
  credit_balance: CreditBalanceTable;
  credit_ledger: CreditLedgerTable;
  file: FileTable;
  file_orphan: FileOrphanTable;
  job: JobTable;
  job_task: JobTaskTable;
  job_result: JobResultTable;
  job_reservation: JobReservationTable;
}

export interface UserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean | number;
  role: string | null;
  plan: string | null;
  /** When the password was last set through a mailed reset link or by an operator (see Credentials). */
  passwordProvenAt: Date | string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
}

/** better-auth's sessions; `token` holds the SHA-256 of the token (src/auth/session-tokens.ts). */
export interface SessionTable {
  id: string;
  token: string;
  userId: string;
  expiresAt: Date | string;
  userAgent: string | null;
  createdAt: Date | string;
}

/** better-auth's single-use values (reset and verification tokens), each under the SHA-256 of its identifier. */
export interface VerificationTable {
  id: string;
  identifier: string;
  value: string;
  expiresAt: Date | string;
  createdAt: Date | string;
}

export interface ApiKeyTable {
  id: string;
  name: string | null;
  start: string | null;
  prefix: string | null;
  key: string;
  referenceId: string;
  enabled: boolean | number;
  requestCount: number;
  remaining: number | null;
  lastRequest: Date | string | null;
  expiresAt: Date | string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
  metadata: string | null;
}

export interface CreditBalanceTable {
  user_id: string;
  balance: number;
  last_refill: string;
  updated_at: string;
}

export interface CreditLedgerTable {
  id: Generated<number>;
  user_id: string;
  delta: number;
  balance_after: number;
  reason: string;
  request_id: string | null;
  created_at: string;
}

export interface FileTable {
  id: string;
  user_id: string;
  type: 'screenshot' | 'pdf';
  url: string;
  filename: string;
  r2_key: string;
  public_url: string;
  content_type: string;
  size: number;
  /** JSON text, as the spec's record has it. */
  metadata: string;
  created_at: string;
  expires_at: string;
}

export interface FileOrphanTable {
  r2_key: string;
  expires_at: string;
}

export type JobKind = 'batch' | 'crawl' | 'map';
export type JobStatus = 'queued' | 'active' | 'completed' | 'failed' | 'cancelled';

export interface JobTable {
  id: string;
  user_id: string;
  kind: JobKind;
  status: JobStatus;
  /** JSON: what the job was asked (src/jobs/job-options.ts). */
  options: string;
  /** JSON: where events go, with their signing secret; null without a webhook. */
  webhook: string | null;
  /** URLs known to the job so far (a crawl's grows as it discovers them). */
  total: number;
  completed: number;
  failed: number;
  credits_used: number;
  /** Bytes of all its results' data (job_result.size): bounded by JOB_TOTAL_MAX_BYTES. */
  result_bytes: number;
  /** 1 once a crawl's start URL (and sitemaps) are in job_task. */
  seeded: number;
  error_code: string | null;
  error_message: string | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
  heartbeat_at: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  expires_at: string | null;
}

export interface JobTaskTable {
  job_id: string;
  seq: number;
  url: string;
  url_key: string;
  depth: number;
  state: 'queued' | 'done';
}

export interface JobResultTable {
  job_id: string;
  ordinal: number;
  url: string;
  status: 'completed' | 'failed';
  /** JSON of the page's outputs; null for a failure (and for map's URLs). */
  data: string | null;
  error_code: string | null;
  error_message: string | null;
  credits: number;
  /** Bytes (UTF-8) of `data`; 0 when it is null. Read before `data`, to page answers by size. */
  size: number;
  created_at: string;
}

/** The credits one attempt at a job's page reserved, until the page is recorded or they are given back (src/jobs/job-reservations.ts). */
export interface JobReservationTable {
  /** The attempt's own id. */
  id: string;
  job_id: string;
  /** The page's task; null for a map's start page. */
  task_seq: number | null;
  /** The runner that reserved them. */
  owner: string;
  user_id: string;
  amount: number;
  /** The ledger reason of the debit (the refund's is `refund:` and it). */
  reason: string;
  request_id: string;
  state: 'reserved' | 'committed' | 'refunded';
  created_at: string;
}
