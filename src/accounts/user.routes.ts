import { createRoute, z } from '@hono/zod-openapi';
import type { VerificationOutcome } from '../auth/email-verification.js';
import type { MailDelivery } from '../auth/mailer.js';
import type { Principal } from '../auth/principal.js';
import { ok } from '../http/envelope.js';
import { forbidden, unauthorized } from '../errors/app-error.js';
import { authedErrors, bearerSecurity, createRouter, envelope, errorResponse, json, jsonBody, publicErrors } from '../http/openapi.js';
import type { AccountServices } from './account-services.js';
import type { Platform } from '../platform.js';
import type { Guards } from '../http/guards.js';

const MeSchema = z
  .object({
    authType: z.enum(['session', 'api-key', 'guest']),
    isAuthenticated: z.boolean(),
    user: z
      .object({
        id: z.string(),
        email: z.string(),
        name: z.string(),
        emailVerified: z.boolean(),
        plan: z.enum(['free', 'pro']),
        isAdmin: z.boolean(),
        createdAt: z.string(),
      })
      .nullable(),
    session: z.object({ id: z.string(), expiresAt: z.string() }).nullable(),
    apiToken: z.object({ id: z.string(), name: z.string().nullable(), start: z.string().nullable() }).nullable(),
    message: z.string(),
  })
  .openapi('CurrentUser');

const PlanLimitsSchema = z
  .object({
    requestsPerHour: z.number().openapi({ description: 'Per API key; the sessions of the account count together as one more caller' }),
    accountRequestsPerHour: z.number().openapi({ description: "All of the account's keys and sessions together" }),
    concurrency: z.number().openapi({ description: 'Requests that may run at once' }),
    monthlyCredits: z.number(),
    fileRetentionDays: z.number(),
  })
  .openapi('PlanLimits', { description: "The caller's plan limits as this deployment configures them" });

const CreditsSchema = z
  .object({ balance: z.number(), plan: z.enum(['free', 'pro']), lastRefill: z.string(), limits: PlanLimitsSchema })
  .openapi('CreditInfo');

const meRoute = createRoute({
  method: 'get',
  path: '/v1/user/me',
  tags: ['Account'],
  summary: 'Current user, or guest information without credentials',
  responses: { 200: json(envelope(MeSchema), 'Current user'), 500: errorResponse('Internal failure') },
});

const creditsRoute = createRoute({
  method: 'get',
  path: '/v1/user/credits',
  tags: ['Account'],
  summary: 'Credit balance and plan',
  security: bearerSecurity,
  responses: { 200: json(envelope(CreditsSchema), 'Credit information'), ...authedErrors },
});

const bootstrapRoute = createRoute({
  method: 'post',
  path: '/v1/user/bootstrap-credits',
  tags: ['Account'],
  summary: "Give the plan's initial credits to a caller who has none (idempotent)",
  security: bearerSecurity,
  responses: { 200: json(envelope(z.object({})), 'Done'), ...authedErrors },
});

const initializeRoute = createRoute({
  method: 'post',
  path: '/v1/user/initialize',
  tags: ['Account'],
  summary: "Initialize a user's resources (development mode, or an admin caller)",
  request: jsonBody(z.object({ userId: z.string().min(1) })),
  responses: {
    200: json(envelope(z.object({ webDurableObjectInitialized: z.boolean(), message: z.string() })), 'Initialized'),
    401: errorResponse('Outside development mode, credentials are required'),
    403: errorResponse('Outside development mode, only admins may initialize'),
    404: errorResponse('Unknown user'),
    ...publicErrors,
  },
});

const verifyEmailRoute = createRoute({
  method: 'get',
  path: '/v1/user/verify-email-token',
  tags: ['Account'],
  summary: 'E-mail verification link target: verifies, then redirects to the dashboard',
  request: { query: z.object({ token: z.string().min(1) }) },
  responses: {
    302: {
      description:
        'To FRONTEND_URL/?new_user=true once verified; to FRONTEND_URL/sign-in?verified=false for an unknown, used or expired link; ' +
        'to FRONTEND_URL/sign-in?verified=true&password_reset=required&mail=smtp|log|failed for an ADMIN_EMAILS address whose password must be set anew',
    },
    ...publicErrors,
  },
});

/** Where the dashboard lands after a verification link, by what the link did. */
function verificationRedirect(outcome: VerificationOutcome, delivery: MailDelivery): string {
  if (outcome.result !== 'set-password') return outcome.result === 'verified' ? '/?new_user=true' : '/sign-in?verified=false';
  // An admin address whose password predates the proof: a reset link is on its way (or in the log).
  return `/sign-in?verified=true&password_reset=required&mail=${outcome.mailFailed ? 'failed' : delivery}`;
}

function describe(principal: Principal | undefined) {
  if (!principal) {
    return {
      authType: 'guest' as const,
      isAuthenticated: false,
      user: null,
      session: null,
      apiToken: null,
      message: 'Not authenticated: send Authorization: Bearer <API key or session token>',
    };
  }
  const { user } = principal;
  return {
    authType: principal.kind,
    isAuthenticated: true,
    user: {
      id: user.id,
      email: user.email,
      name: user.name,
      emailVerified: user.emailVerified,
      plan: user.plan,
      isAdmin: principal.isAdmin,
      createdAt: user.createdAt,
    },
    session: principal.session ?? null,
    apiToken: principal.apiKey ?? null,
    message: principal.kind === 'session' ? 'Authenticated with a session token' : 'Authenticated with an API key',
  };
}

/** What this module's routes use of the running service. */
type Services = Pick<AccountServices, 'accountMail' | 'accounts' | 'emailVerification'> & Pick<Platform, 'config'>;

export function userRoutes(ctx: Services, { requireAuth, identify }: Guards) {
  const router = createRouter();

  router.openapi({ ...meRoute, middleware: identify }, (c) => ok(c, describe(c.get('principal'))));

  router.openapi({ ...creditsRoute, middleware: requireAuth }, async (c) => {
    const info = await ctx.accounts.creditInfo(c.get('principal'), c.get('requestId'));
    // The dashboard shows the plan's limits; they depend on this deployment's configuration.
    const { requestsPerHour, accountRequestsPerHour, concurrency, monthlyCredits, fileRetentionDays } = ctx.config.plans[info.plan];
    return ok(c, { ...info, limits: { requestsPerHour, accountRequestsPerHour, concurrency, monthlyCredits, fileRetentionDays } });
  });

  router.openapi({ ...bootstrapRoute, middleware: requireAuth }, async (c) => {
    await ctx.accounts.bootstrapCredits(c.get('principal'), c.get('requestId'));
    return ok(c, {});
  });

  router.openapi({ ...initializeRoute, middleware: identify }, async (c) => {
    const principal = c.get('principal');
    if (ctx.config.env !== 'development') {
      if (!principal) throw unauthorized();
      if (!principal.isAdmin) throw forbidden('Initialize is only available in development mode or to admins');
    }
    const { userId } = c.req.valid('json');
    const created = await ctx.accounts.initialize(userId, c.get('requestId'));
    return ok(c, {
      webDurableObjectInitialized: true,
      message: created ? 'User resources created' : 'User resources already existed',
    });
  });

  router.openapi(verifyEmailRoute, async (c) => {
    const { token } = c.req.valid('query');
    const outcome = await ctx.emailVerification.verify(token);
    c.get('log').info({ outcome: outcome.result }, 'e-mail verification link used');
    // Redirects go only to FRONTEND_URL, never to a URL taken from the request.
    return c.redirect(`${ctx.config.frontendUrl}${verificationRedirect(outcome, ctx.accountMail.delivery)}`, 302);
  });

  return router;
}
