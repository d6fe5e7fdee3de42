import type { MiddlewareHandler } from 'hono';
import type { AuthedEnv } from '../http/context.js';
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '../http/envelope.js';
import { forbidden } from '../errors/app-error.js';
import { authedErrors, bearerSecurity, createRouter, envelope, errorResponse, json, jsonBody } from '../http/openapi.js';
import type { AccountServices } from './account-services.js';
import type { Guards } from '../http/guards.js';

const PlanSchema = z.enum(['free', 'pro'], {
  error: (issue) => (issue.input === undefined ? 'Plan is required' : 'Plan must be one of: free, pro'),
});

const updatePlanRoute = createRoute({
  method: 'post',
  path: '/v1/system/update-user-plan',
  tags: ['Admin'],
  summary: "Set a user's plan (admins only)",
  security: bearerSecurity,
  request: jsonBody(z.object({ userId: z.string().min(1), plan: PlanSchema })),
  responses: {
    200: json(
      envelope(
        z.object({ userId: z.string(), plan: z.enum(['free', 'pro']), updatedBy: z.string(), updatedAt: z.string() }),
      ),
      'Plan updated',
    ),
    403: errorResponse('Caller is not an admin'),
    404: errorResponse('Unknown user'),
    ...authedErrors,
  },
});

/** What this module's routes use of the running service. */
type Services = Pick<AccountServices, 'accounts'>;

export function adminRoutes(ctx: Services, { requireAuth }: Guards) {
  const router = createRouter();
  // Declared on the route, it runs before the body is read, so non-admins learn nothing from validation.
  const requireAdmin: MiddlewareHandler<AuthedEnv> = async function requireAdmin(c, next) {
    await requireAuth(c, async () => {
      if (!c.get('principal').isAdmin) throw forbidden('Admin privileges are required');
      await next();
    });
  };

  router.openapi({ ...updatePlanRoute, middleware: requireAdmin }, async (c) => {
    const { userId, plan } = c.req.valid('json');
    const change = await ctx.accounts.updatePlan(userId, plan, c.get('principal').userId, c.get('requestId'));
    c.get('log').info({ targetUserId: userId, plan }, 'plan updated');
    return ok(c, change);
  });

  return router;
}
