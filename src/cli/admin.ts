import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type PlanName } from '../config.js';
import { type AppContext, closeContext, createContext } from '../container.js';

const USAGE = `Usage:
  npm run admin -- create-key --email EMAIL [--name KEY_NAME] [--plan free|pro]
      Creates the account (e-mail marked verified) if it does not exist, then prints a new API
      key once. --plan sets the account's plan.`;

/** Operator tool for machines without a dashboard. Writes only the key to stdout. */
async function main(argv: string[]) {
  const [command, ...rest] = argv;
  if (command !== 'create-key') return fail(USAGE);
  const { values } = parseArgs({
    args: rest,
    options: { email: { type: 'string' }, name: { type: 'string' }, plan: { type: 'string' } },
  });
  const email = values.email?.trim().toLowerCase();
  if (!email || !/^[^\s@]+@[^\s@]+$/.test(email)) return fail(`--email is required\n\n${USAGE}`);
  if (values.plan && values.plan !== 'free' && values.plan !== 'pro') return fail('--plan must be free or pro');

  const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
  const ctx = await createContext(config);
  try {
    const userId = await ensureUser(ctx, email);
    if (values.plan) await ctx.accounts.updatePlan(userId, values.plan as PlanName, 'admin-cli', null);
    const key = await ctx.apiKeys.create(userId, values.name ?? 'admin-cli');
    process.stderr.write(`Created API key ${key.id} (${key.start}...) for ${email}. It is shown only once:\n`);
    process.stdout.write(`${key.key}\n`);
  } finally {
    await closeContext(ctx);
  }
}

async function ensureUser(ctx: AppContext, email: string): Promise<string> {
  const existing = await ctx.database.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirst();
  if (existing) return existing.id;
  // The operator vouches for the address; the random password can be replaced by a reset later.
  const created = await ctx.auth.api.signUpEmail({
    body: { email, password: randomBytes(24).toString('base64url'), name: email.split('@')[0] ?? email },
  });
  const verified = ctx.database.dialect === 'postgres' ? true : 1;
  await ctx.database.db.updateTable('user').set({ emailVerified: verified }).where('id', '=', created.user.id).execute();
  await ctx.credentials.markProven(created.user.id);
  process.stderr.write(`Created account ${email}\n`);
  return created.user.id;
}

function fail(message: string) {
  process.stderr.write(`${message}\n`);
  process.exitCode = 2;
}

main(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
