import type { Generated } from 'kysely';

/**
 * Tables Pluck owns. better-auth owns `user`, `session`, `account`, `verification` and
 * `apikey`; the few of their columns Pluck reads are typed here too. Timestamps in Pluck's own
 * tables are ISO 8601 strings so both dialects read and compare them the same way.
 */
export interface Database {
  user: UserTable;
  apikey: ApiKeyTable;
  credit_balance: CreditBalanceTable;
  credit_ledger: CreditLedgerTable;
}

export interface UserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean | number;
  role: string | null;
  plan: string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
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
