import { type Kysely, sql } from 'kysely';
import { type Principal, toIsoString, toPlan } from '../auth/principal.js';
import type { Config, PlanName } from '../config.js';
import type { DialectName } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { AppError } from '../errors/app-error.js';
import type { CreditInfo, CreditStore } from './credits.js';

export interface PlanChange {
  userId: string;
  plan: PlanName;
  updatedBy: string;
  updatedAt: string;
}

/** An account as operators see it (the admin CLI). */
export interface AccountSummary {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  plan: PlanName;
  role: string;
  passwordProven: boolean;
  createdAt: string;
  /** Null when the account has no credit record yet. */
  balance: number | null;
}

export interface AccountSearch {
  /** Part of the e-mail address, any case. */
  search?: string;
  limit: number;
  offset: number;
}

/** Roles an operator can give; `admin` is admin whatever the address (see Authenticator.isAdmin). */
export type Role = 'user' | 'admin';

/** Longest reason an operator may give a grant; the ledger's reason column holds 64 characters. */
export const MAX_GRANT_REASON_LENGTH = 40;

/** Accounts: plans, their credit grants, and the plan change only admins may make. */
export class AccountService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly credits: CreditStore,
    private readonly config: Config,
    private readonly dialect: DialectName,
  ) {}

  grantFor(plan: PlanName): number {
    return this.config.plans[plan].monthlyCredits;
  }

  /** New accounts start on the free plan with its monthly grant. */
  async onUserCreated(userId: string): Promise<void> {
    await this.credits.grantInitial(userId, this.grantFor('free'), 'signup_grant', null);
  }

  async creditInfo(principal: Principal, requestId: string): Promise<CreditInfo & { plan: PlanName }> {
    const plan = principal.user.plan;
    const info = await this.credits.get(principal.userId, this.grantFor(plan), requestId);
    return { balance: info?.balance ?? 0, lastRefill: info?.lastRefill ?? '', plan };
  }

  /** Gives the plan's grant to a caller who has no credit record; a no-op otherwise. */
  async bootstrapCredits(principal: Principal, requestId: string): Promise<boolean> {
    return this.credits.grantInitial(principal.userId, this.grantFor(principal.user.plan), 'bootstrap_grant', requestId);
  }

  /** Makes sure a user's per-account resources (today: the credit record) exist. */
  async initialize(userId: string, requestId: string): Promise<boolean> {
    const user = await this.findUser(userId);
    if (!user) throw new AppError('USER_NOT_FOUND', `No user with id ${userId}`);
    return this.credits.grantInitial(userId, this.grantFor(toPlan(user.plan)), 'initialize_grant', requestId);
  }

  /** Sets a user's plan; an upgrade raises the balance to the new plan's grant at once. */
  async updatePlan(userId: string, plan: PlanName, updatedBy: string, requestId: string | null): Promise<PlanChange> {
    const user = await this.findUser(userId);
    if (!user) throw new AppError('USER_NOT_FOUND', `No user with id ${userId}`);
    const updatedAt = new Date();
    await this.db.updateTable('user').set({ plan, updatedAt: this.dateValue(updatedAt) }).where('id', '=', userId).execute();
    await this.credits.grantInitial(userId, this.grantFor(plan), 'plan_change_grant', requestId);
    await this.credits.topUpTo(userId, this.grantFor(plan), `plan_change:${plan}`, requestId);
    return { userId, plan, updatedBy, updatedAt: updatedAt.toISOString() };
  }

  /** Adds credits by an operator's decision, with a ledger row naming why. */
  async grantCredits(userId: string, amount: number, reason: string): Promise<number> {
    const user = await this.findUser(userId);
    if (!user) throw new AppError('USER_NOT_FOUND', `No user with id ${userId}`);
    return this.credits.grant(userId, amount, `operator_grant:${reason.slice(0, MAX_GRANT_REASON_LENGTH)}`, null);
  }

  async setRole(userId: string, role: Role): Promise<void> {
    await this.db.updateTable('user').set({ role, updatedAt: this.dateValue(new Date()) }).where('id', '=', userId).execute();
  }

  async findByEmail(email: string): Promise<AccountSummary | undefined> {
    const [found] = await this.summaries().where(sql<string>`lower(${sql.ref('user.email')})`, '=', email.trim().toLowerCase()).execute();
    return found && toSummary(found);
  }

  /** Accounts, newest first, with how many match in all. */
  async list({ search, limit, offset }: AccountSearch): Promise<{ accounts: AccountSummary[]; total: number }> {
    const pattern = search ? `%${search.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
    const matching = sql<boolean>`lower(${sql.ref('user.email')}) like ${pattern ?? '%'} escape '\\'`;
    const rows = await this.summaries().where(matching).orderBy('user.createdAt', 'desc').orderBy('user.id').limit(limit).offset(offset).execute();
    const counted = await this.db.selectFrom('user').select((eb) => eb.fn.countAll<number>().as('total')).where(matching).executeTakeFirstOrThrow();
    return { accounts: rows.map(toSummary), total: Number(counted.total) };
  }

  private summaries() {
    return this.db
      .selectFrom('user')
      .leftJoin('credit_balance', 'credit_balance.user_id', 'user.id')
      .select([
        'user.id',
        'user.email',
        'user.name',
        'user.emailVerified',
        'user.plan',
        'user.role',
        'user.passwordProvenAt',
        'user.createdAt',
        'credit_balance.balance',
      ]);
  }

  private findUser(userId: string) {
    return this.db.selectFrom('user').select(['id', 'plan']).where('id', '=', userId).executeTakeFirst();
  }

  /** better-auth stores dates natively in PostgreSQL and as ISO text in SQLite. */
  private dateValue(date: Date): Date | string {
    return this.dialect === 'postgres' ? date : date.toISOString();
  }
}


function toSummary(row: {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean | number;
  plan: string | null;
  role: string | null;
  passwordProvenAt: Date | string | null;
  createdAt: Date | string;
  balance: number | null;
}): AccountSummary {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    emailVerified: row.emailVerified === true || row.emailVerified === 1,
    plan: toPlan(row.plan),
    role: row.role ?? 'user',
    passwordProven: row.passwordProvenAt !== null && row.passwordProvenAt !== '',
    createdAt: toIsoString(row.createdAt),
    balance: row.balance === null ? null : Number(row.balance),
  };
}
