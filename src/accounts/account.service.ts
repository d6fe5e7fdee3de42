import type { Kysely } from 'kysely';
import { type Principal, toPlan } from '../auth/principal.js';
import type { Config, PlanName } from '../config.js';
import type { DialectName } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import type { CreditInfo, CreditStore } from './credits.js';

export interface PlanChange {
  userId: string;
  plan: PlanName;
  updatedBy: string;
  updatedAt: string;
}

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

  private findUser(userId: string) {
    return this.db.selectFrom('user').select(['id', 'plan']).where('id', '=', userId).executeTakeFirst();
  }

  /** better-auth stores dates natively in PostgreSQL and as ISO text in SQLite. */
  private dateValue(date: Date): Date | string {
    return this.dialect === 'postgres' ? date : date.toISOString();
  }
}

