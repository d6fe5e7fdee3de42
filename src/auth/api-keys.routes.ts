import { createRoute, z } from '@hono/zod-openapi';
import { created, ok } from '../http/envelope.js';
import { forbidden } from '../errors/app-error.js';
import { authedErrors, bearerSecurity, createRouter, envelope, errorResponse, json, jsonBody } from '../http/openapi.js';
import type { AccountServices } from '../accounts/account-services.js';
import type { Platform } from '../platform.js';
import type { Guards } from '../http/guards.js';

const DAY_SECONDS = 24 * 60 * 60;

const ApiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    start: z.string(),
    prefix: z.string(),
    userId: z.string(),
    enabled: z.boolean(),
    requestCount: z.number(),
    remaining: z.number().nullable(),
    lastRequest: z.string().nullable(),
    expiresAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    metadata: z.record(z.string(), z.unknown()),
  })
  .openapi('ApiKey');

const CreateKeyBody = z.strictObject({
  name: z.string().trim().min(1).max(64),
  expiresIn: z
    .number()
    .int()
    .min(DAY_SECONDS)
    .max(365 * DAY_SECONDS)
    .optional()
    .openapi({ description: 'Lifetime in seconds (1 day to 365 days); no expiry when omitted' }),
});

const IdParam = z.object({ id: z.string().min(1).openapi({ param: { name: 'id', in: 'path' } }) });

const createKeyRoute = createRoute({
  method: 'post',
  path: '/v1/api-keys',
  tags: ['API keys'],
  summary: 'Create an API key (session only); the secret `key` is shown only in this answer',
  security: bearerSecurity,
  request: jsonBody(CreateKeyBody),
  responses: {
    201: json(envelope(ApiKeySchema.extend({ key: z.string() })), 'Created'),
    403: errorResponse('API keys cannot create API keys'),
    ...authedErrors,
  },
});

const listKeysRoute = createRoute({
  method: 'get',
  path: '/v1/api-keys',
  tags: ['API keys'],
  summary: "The caller's API keys",
  security: bearerSecurity,
  responses: { 200: json(envelope(z.object({ apiKeys: z.array(ApiKeySchema) })), 'Keys'), ...authedErrors },
});

const getKeyRoute = createRoute({
  method: 'get',
  path: '/v1/api-keys/{id}',
  tags: ['API keys'],
  summary: 'One of the caller\'s API keys',
  security: bearerSecurity,
  request: { params: IdParam },
  responses: { 200: json(envelope(ApiKeySchema), 'Key'), 404: errorResponse('No such key'), ...authedErrors },
});

const deleteKeyRoute = createRoute({
  method: 'delete',
  path: '/v1/api-keys/{id}',
  tags: ['API keys'],
  summary: 'Revoke an API key at once (session only)',
  security: bearerSecurity,
  request: { params: IdParam },
  responses: {
    200: json(envelope(z.object({ revoked: z.literal(true), apiKey: ApiKeySchema })), 'Revoked'),
    403: errorResponse('API keys cannot revoke API keys'),
    404: errorResponse('No such key'),
    ...authedErrors,
  },
});

/** What this module's routes use of the running service. */
type Services = Pick<AccountServices, 'apiKeys'> & Pick<Platform, 'config'>;

export function apiKeyRoutes(ctx: Services, { requireAuth }: Guards) {
  const router = createRouter();
  const keys = ctx.apiKeys;

  // A leaked key must not be able to mint or revoke keys: that needs a signed-in session.
  const requireSession = (c: { get(key: 'principal'): { kind: string } }, action: string) => {
    if (c.get('principal').kind !== 'session') throw forbidden(`API keys can only be ${action} with a session token`);
  };

  router.openapi({ ...createKeyRoute, middleware: requireAuth }, async (c) => {
    requireSession(c, 'created');
    const { name, expiresIn } = c.req.valid('json');
    const principal = c.get('principal');
    const key = await keys.create(principal.userId, name, expiresIn, ctx.config.plans[principal.user.plan].maxApiKeys);
    return created(c, key);
  });

  router.openapi({ ...listKeysRoute, middleware: requireAuth }, async (c) => ok(c, { apiKeys: await keys.list(c.get('principal').userId) }));

  router.openapi({ ...getKeyRoute, middleware: requireAuth }, async (c) => ok(c, await keys.get(c.get('principal').userId, c.req.valid('param').id)));

  router.openapi({ ...deleteKeyRoute, middleware: requireAuth }, async (c) => {
    requireSession(c, 'revoked');
    const apiKey = await keys.revoke(c.get('principal').userId, c.req.valid('param').id);
    return ok(c, { revoked: true as const, apiKey });
  });

  return router;
}
