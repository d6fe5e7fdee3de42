import { randomBytes } from 'node:crypto';
import type { AccountSummary, Role } from '../accounts/account.service.js';
import { MAX_GRANT_REASON_LENGTH } from '../accounts/account.service.js';
import { MAX_EMAIL_LENGTH, MAX_NAME_LENGTH } from '../auth/account-fields.js';
import type { PlanName } from '../config.js';
import type { AppContext } from '../container.js';
import { type CliIo, formatRecord, formatTable } from './output.js';

/** A mistake in how the command was called: exit code 2, with the command's usage. */
export class UsageError extends Error {}
/** The command was understood but cannot be done (no such account): exit code 1. */
export class CommandError extends Error {}

type Values = Record<string, string | boolean | undefined>;

export interface Command {
  summary: string;
  usage: string;
  details: string;
  options: Record<string, { type: 'string' | 'boolean' }>;
  run(ctx: AppContext, values: Values, io: CliIo): Promise<void>;
}

const EMAIL = { email: { type: 'string' } } as const;
const JSON_OUTPUT = { json: { type: 'boolean' } } as const;
const MAX_GRANT = 10_000_000;

function requireEmail(values: Values): string {
  const email = typeof values.email === 'string' ? values.email.trim().toLowerCase() : '';
  if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > MAX_EMAIL_LENGTH) throw new UsageError('--email is required: the account\'s e-mail address');
  return email;
}

function wholeNumber(values: Values, name: string, { min, max, fallback }: { min: number; max: number; fallback?: number }): number {
  const raw = values[name];
  if (raw === undefined && fallback !== undefined) return fallback;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`);
  }
  return Number(raw);
}

function plan(values: Values): PlanName {
  if (values.plan !== 'free' && values.plan !== 'pro') throw new UsageError('--plan must be free or pro');
  return values.plan;
}

async function account(ctx: AppContext, values: Values): Promise<AccountSummary> {
  const email = requireEmail(values);
  const found = await ctx.accounts.findByEmail(email);
  if (!found) throw new CommandError(`No account with e-mail ${email}`);
  return found;
}

function isAdmin(ctx: AppContext, user: AccountSummary): boolean {
  return ctx.authenticator.isAdmin(user);
}

function row(ctx: AppContext, user: AccountSummary) {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    verified: user.emailVerified,
    plan: user.plan,
    admin: isAdmin(ctx, user),
    balance: user.balance,
    created: user.createdAt,
  };
}

async function setRole(ctx: AppContext, values: Values, io: CliIo, role: Role) {
  const user = await account(ctx, values);
  await ctx.accounts.setRole(user.id, role);
  const now = { ...user, role };
  io.out(`${user.email} is ${isAdmin(ctx, now) ? 'an admin' : 'not an admin'} now (role ${role}).`);
  if (role === 'user' && isAdmin(ctx, now)) io.err(`Note: ${user.email} is in ADMIN_EMAILS; remove it there to take its admin rights away.`);
}

export const COMMANDS: Record<string, Command> = {
  'list-users': {
    summary: 'List accounts, newest first',
    usage: '[--search TEXT] [--limit N] [--offset N] [--json]',
    details: 'Shows id, e-mail, name, verified, plan, admin, credit balance and creation time. --search keeps accounts whose e-mail contains TEXT; --limit (1 to 1000, default 50) and --offset page through them.',
    options: { search: { type: 'string' }, limit: { type: 'string' }, offset: { type: 'string' }, ...JSON_OUTPUT },
    async run(ctx, values, io) {
      const search = typeof values.search === 'string' ? values.search.slice(0, 254) : undefined;
      const limit = wholeNumber(values, 'limit', { min: 1, max: 1000, fallback: 50 });
      const offset = wholeNumber(values, 'offset', { min: 0, max: 1_000_000_000, fallback: 0 });
      const { accounts, total } = await ctx.accounts.list({ search, limit, offset });
      const rows = accounts.map((user) => row(ctx, user));
      if (values.json) return io.out(JSON.stringify({ total, accounts: rows }, null, 2));
      io.out(formatTable(rows, ['id', 'email', 'name', 'verified', 'plan', 'admin', 'balance', 'created']));
      io.err(`${accounts.length} of ${total} account${total === 1 ? '' : 's'} shown.`);
    },
  },
  'show-user': {
    summary: 'Show one account: plan, admin, balance, keys, sessions, recent credit ledger',
    usage: '--email EMAIL [--json]',
    details: 'Finds the account by e-mail (any case). The ledger lists its last 10 credit changes.',
    options: { ...EMAIL, ...JSON_OUTPUT },
    async run(ctx, values, io) {
      const user = await account(ctx, values);
      const keys = await ctx.apiKeys.list(user.id);
      const sessions = await ctx.credentials.countSessions(user.id);
      const ledger = (await ctx.credits.ledger(user.id)).slice(-10).map((entry) => ({
        at: entry.created_at,
        delta: entry.delta,
        balance: entry.balance_after,
        reason: entry.reason,
      }));
      const details = { ...row(ctx, user), role: user.role, passwordProven: user.passwordProven, apiKeys: keys.length, sessions };
      if (values.json) return io.out(JSON.stringify({ ...details, ledger }, null, 2));
      io.out(formatRecord(details));
      io.out(`\nLast credit changes:\n${formatTable(ledger, ['at', 'delta', 'balance', 'reason'])}`);
    },
  },
  'set-plan': {
    summary: "Change an account's plan",
    usage: '--email EMAIL --plan free|pro',
    details: "An upgrade raises the balance to the new plan's monthly grant at once (written to the ledger).",
    options: { ...EMAIL, plan: { type: 'string' } },
    async run(ctx, values, io) {
      const newPlan = plan(values);
      const user = await account(ctx, values);
      await ctx.accounts.updatePlan(user.id, newPlan, 'admin-cli', null);
      io.out(`${user.email} is on the ${newPlan} plan now.`);
    },
  },
  'grant-credits': {
    summary: 'Add credits to an account, with a ledger row',
    usage: '--email EMAIL --amount N [--reason TEXT]',
    details: `Adds N credits (1 to ${MAX_GRANT.toLocaleString('en-US')}). The ledger row's reason is operator_grant:TEXT (TEXT up to ${MAX_GRANT_REASON_LENGTH} characters, default "cli").`,
    options: { ...EMAIL, amount: { type: 'string' }, reason: { type: 'string' } },
    async run(ctx, values, io) {
      const amount = wholeNumber(values, 'amount', { min: 1, max: MAX_GRANT });
      const reason = typeof values.reason === 'string' ? values.reason.trim() : 'cli';
      if (!/^[\w .:-]{1,40}$/.test(reason)) throw new UsageError(`--reason must be 1 to ${MAX_GRANT_REASON_LENGTH} letters, digits, spaces or . : - _`);
      const user = await account(ctx, values);
      const balance = await ctx.accounts.grantCredits(user.id, amount, reason);
      io.out(`Granted ${amount} credits to ${user.email}; the balance is ${balance}.`);
    },
  },
  'send-password-reset': {
    summary: 'Send an account a single-use password reset link',
    usage: '--email EMAIL',
    details: 'Mails the link by SMTP. Without SMTP_URL nothing is mailed: the link is printed on stdout for you to hand over. Either way it works once, for PASSWORD_RESET_TTL_SECONDS.',
    options: EMAIL,
    async run(ctx, values, io) {
      const user = await account(ctx, values);
      if (ctx.accountMail.delivery === 'log') {
        io.err(`SMTP_URL is not set, so nothing was e-mailed. Give this link to the owner of ${user.email}; it works once:`);
      }
      const { mailFailed } = await ctx.credentials.requestPasswordReset(user.email);
      if (mailFailed) throw new CommandError('The mail server did not take the message, so nothing was sent (the error is above).');
      if (ctx.accountMail.delivery === 'smtp') io.out(`Sent a password reset link to ${user.email}.`);
    },
  },
  'set-password': {
    summary: "Set an account's password; its sessions end",
    usage: '--email EMAIL [--password-stdin]',
    details: 'With --password-stdin the password is read from stdin (never from the command line, where other users of the machine could see it); otherwise a random one is made and printed once on stdout. 8 to 128 characters. Every session of the account ends.',
    options: { ...EMAIL, 'password-stdin': { type: 'boolean' } },
    async run(ctx, values, io) {
      const user = await account(ctx, values);
      const given = values['password-stdin'] ? (await io.readStdin()).replace(/\r?\n$/, '') : undefined;
      if (given !== undefined && (given.length < 8 || given.length > 128)) throw new UsageError('The password must be 8 to 128 characters');
      const password = given ?? randomBytes(15).toString('base64url');
      await ctx.credentials.setPassword(user.id, password);
      io.err(`Set the password of ${user.email}; its sessions have ended.`);
      if (given === undefined) io.out(password);
    },
  },
  'grant-admin': {
    summary: 'Make an account an admin',
    usage: '--email EMAIL',
    details: 'Gives the account the admin role, whatever its address. Admins may change plans over the API (POST /v1/system/update-user-plan).',
    options: EMAIL,
    run: (ctx, values, io) => setRole(ctx, values, io, 'admin'),
  },
  'revoke-admin': {
    summary: "Take an account's admin role away",
    usage: '--email EMAIL',
    details: 'An address in ADMIN_EMAILS stays admin (once its password was set through a reset link); the command says so.',
    options: EMAIL,
    run: (ctx, values, io) => setRole(ctx, values, io, 'user'),
  },
  'list-keys': {
    summary: "List an account's API keys (never their secrets)",
    usage: '--email EMAIL [--json]',
    details: 'Shows id, name, the first characters, creation, last use, request count and expiry.',
    options: { ...EMAIL, ...JSON_OUTPUT },
    async run(ctx, values, io) {
      const user = await account(ctx, values);
      const keys = (await ctx.apiKeys.list(user.id)).map((key) => ({
        id: key.id,
        name: key.name,
        start: key.start,
        created: key.createdAt,
        lastUsed: key.lastRequest,
        requests: key.requestCount,
        expires: key.expiresAt,
      }));
      if (values.json) return io.out(JSON.stringify(keys, null, 2));
      io.out(formatTable(keys, ['id', 'name', 'start', 'created', 'lastUsed', 'requests', 'expires']));
    },
  },
  'revoke-key': {
    summary: 'Revoke an API key at once',
    usage: '--id KEY_ID',
    details: 'The next request made with the key fails authentication. Find ids with list-keys.',
    options: { id: { type: 'string' } },
    async run(ctx, values, io) {
      const id = typeof values.id === 'string' ? values.id.trim() : '';
      if (!id) throw new UsageError('--id is required: the key id from list-keys');
      const owner = await ctx.apiKeys.ownerOf(id);
      if (!owner) throw new CommandError(`No API key with id ${id}`);
      const key = await ctx.apiKeys.revoke(owner, id);
      io.out(`Revoked key ${key.id} (${key.name}, ${key.start}...).`);
    },
  },
  'create-key': {
    summary: 'Create an API key, and the account if it does not exist',
    usage: '--email EMAIL [--name KEY_NAME] [--plan free|pro]',
    details: "A new account is made with its e-mail marked verified and a random password (its owner sets one with a reset link). Prints the key once, alone on stdout. --plan sets the account's plan.",
    options: { ...EMAIL, name: { type: 'string' }, plan: { type: 'string' } },
    async run(ctx, values, io) {
      const email = requireEmail(values);
      const newPlan = values.plan === undefined ? undefined : plan(values);
      const name = typeof values.name === 'string' ? values.name.trim() : 'admin-cli';
      if (name.length < 1 || name.length > 64) throw new UsageError('--name must be 1 to 64 characters');
      let user = await ctx.accounts.findByEmail(email);
      if (!user) {
        await ctx.credentials.createVouchedAccount(email, (email.split('@')[0] ?? email).slice(0, MAX_NAME_LENGTH));
        io.err(`Created account ${email}`);
        user = (await ctx.accounts.findByEmail(email))!;
      }
      if (newPlan) await ctx.accounts.updatePlan(user.id, newPlan, 'admin-cli', null);
      const key = await ctx.apiKeys.create(user.id, name);
      io.err(`Created API key ${key.id} (${key.start}...) for ${email}. It is shown only once:`);
      io.out(key.key);
    },
  },
};
