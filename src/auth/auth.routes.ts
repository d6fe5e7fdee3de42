import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { createClientAddress } from '../http/client-address.js';
import type { AppEnv } from '../http/context.js';
import type { AuthClient } from './auth-limits.js';
import { bearerSecurity, createRouter, errorResponse, json, jsonBody, ValidationErrorSchema } from '../http/openapi.js';
import { MAX_EMAIL_LENGTH, MAX_NAME_LENGTH } from './account-fields.js';
import { forwardToAuth } from './auth-forward.js';
import type { AccountServices } from '../accounts/account-services.js';
import type { Platform } from '../platform.js';


const Email = z.email().max(MAX_EMAIL_LENGTH);
const NewPassword = z.string().min(8).max(128).openapi({ description: '8 to 128 characters' });
const Name = z.string().trim().min(1).max(MAX_NAME_LENGTH);
const MailDelivery = z.enum(['smtp', 'log', 'failed']).openapi({
  description:
    '`smtp`: the message was e-mailed; `log`: SMTP_URL is unset, so the link was written to the server log; ' +
    '`failed` (sign-up only): the mail server refused it, ask for a new link later',
});

const AuthUser = z
  .object({ id: z.string(), email: z.string(), name: z.string(), emailVerified: z.boolean(), plan: z.string(), role: z.string() })
  .openapi('AuthUser');
const SessionAnswer = z.object({
  token: z.string().nullable().openapi({ description: 'Session token for Authorization: Bearer (also in the set-auth-token header); null until verified when REQUIRE_EMAIL_VERIFICATION=true' }),
  user: AuthUser,
});
const StatusAnswer = z.object({ status: z.boolean(), message: z.string().optional() });

type ErrorStatus = 400 | 401 | 403 | 409;

/** Each route's error answers, with the codes it can give by status (see docs/api-conventions.md). */
function errors(codes: Partial<Record<ErrorStatus, string[]>>, options: { limited?: boolean } = {}) {
  const byStatus = Object.fromEntries(
    Object.entries(codes).map(([status, names]) => [status, errorResponse(names.map((name) => `\`${name}\``).join(', '))]),
  ) as Partial<Record<ErrorStatus, ReturnType<typeof errorResponse>>>;
  return {
    ...byStatus,
    422: json(ValidationErrorSchema, '`VALIDATION_ERROR`: a field is missing, too long or not allowed'),
    ...(options.limited ? { 429: errorResponse('`RATE_LIMIT_EXCEEDED`, with Retry-After: too many attempts from this address or for this e-mail') } : {}),
    500: errorResponse('`INTERNAL_ERROR`'),
  };
}

function route<T extends Parameters<typeof createRoute>[0]>(config: T) {
  return createRoute({ tags: ['Authentication'], ...config });
}

const signUpRoute = route({
  method: 'post',
  path: '/v1/auth/sign-up/email',
  summary: 'Create an account; answers a session token and mails a single-use verification link',
  request: jsonBody(z.strictObject({ email: Email, password: NewPassword, name: Name, rememberMe: z.boolean().optional() })),
  responses: {
    200: json(SessionAnswer.extend({ mailDelivery: MailDelivery }), 'Signed up'),
    ...errors({ 403: ['ORIGIN_NOT_ALLOWED'], 409: ['EMAIL_ALREADY_REGISTERED'] }, { limited: true }),
  },
});

const signInRoute = route({
  method: 'post',
  path: '/v1/auth/sign-in/email',
  summary: 'Sign in; answers a session token for Authorization: Bearer',
  request: jsonBody(z.strictObject({ email: Email, password: z.string().min(1).max(128), rememberMe: z.boolean().optional() })),
  responses: {
    200: json(SessionAnswer, 'Signed in'),
    ...errors({ 401: ['INVALID_CREDENTIALS'], 403: ['EMAIL_NOT_VERIFIED', 'ORIGIN_NOT_ALLOWED'] }, { limited: true }),
  },
});

const signOutRoute = route({
  method: 'post',
  path: '/v1/auth/sign-out',
  summary: 'End the session of the bearer token',
  security: bearerSecurity,
  responses: { 200: json(z.object({ success: z.boolean() }), 'Signed out'), ...errors({}) },
});

const getSessionRoute = route({
  method: 'get',
  path: '/v1/auth/get-session',
  summary: 'The session and user of the bearer token, or null',
  security: bearerSecurity,
  responses: { 200: json(z.object({ session: z.unknown(), user: AuthUser }).nullable(), 'Session or null'), ...errors({}) },
});

const sendVerificationRoute = route({
  method: 'post',
  path: '/v1/auth/send-verification-email',
  summary: 'Mail a new verification link to an unverified address (the answer is the same for any address)',
  request: jsonBody(z.strictObject({ email: Email })),
  responses: {
    200: json(StatusAnswer.extend({ mailDelivery: MailDelivery }), 'Sent, if the address has an unverified account'),
    ...errors({ 400: ['BAD_REQUEST'] }, { limited: true }),
  },
});

const requestResetRoute = route({
  method: 'post',
  path: '/v1/auth/request-password-reset',
  summary: 'Mail a single-use password reset link (the answer is the same for any address)',
  request: jsonBody(z.strictObject({ email: Email })),
  responses: {
    200: json(StatusAnswer.extend({ mailDelivery: MailDelivery }), 'Sent, if the address has an account'),
    ...errors({}, { limited: true }),
  },
});

const resetPasswordRoute = route({
  method: 'post',
  path: '/v1/auth/reset-password',
  summary: "Set a new password with a reset link's token; ends every session of the account",
  request: jsonBody(z.strictObject({ token: z.string().min(1).max(200), newPassword: NewPassword })),
  responses: { 200: json(z.object({ status: z.boolean() }), 'Password set'), ...errors({ 400: ['INVALID_TOKEN'] }, { limited: true }) },
});

const changePasswordRoute = route({
  method: 'post',
  path: '/v1/auth/change-password',
  summary: 'Change the password (session token); ends every session and answers a new token',
  security: bearerSecurity,
  request: jsonBody(z.strictObject({ currentPassword: z.string().min(1).max(128), newPassword: NewPassword })),
  responses: {
    200: json(SessionAnswer, 'Password changed; use the new token'),
    ...errors({ 401: ['UNAUTHORIZED'], 403: ['INVALID_PASSWORD'] }, { limited: true }),
  },
});

const updateUserRoute = route({
  method: 'post',
  path: '/v1/auth/update-user',
  summary: "Change the account's display name (session token)",
  security: bearerSecurity,
  request: jsonBody(z.strictObject({ name: Name })),
  responses: { 200: json(z.object({ status: z.boolean() }), 'Updated'), ...errors({ 401: ['UNAUTHORIZED'] }) },
});

/** What this module's routes use of the running service. */
type Services = Pick<AccountServices, 'accountMail' | 'auth' | 'authLimits'> & Pick<Platform, 'config' | 'database'>;

/**
 * The auth routes clients use: better-auth's, each validated here first (bounded fields, no
 * unknown ones), limited per client address and e-mail, then handed to better-auth. Its other
 * routes are not served. Errors leave in Pluck's envelope with Pluck's codes.
 */
export function authRoutes(ctx: Services) {
  const router = createRouter();
  const limits = ctx.authLimits;
  const clientAddress = createClientAddress(ctx.config.trustedProxies);
  const authClient = (c: Context<AppEnv>): AuthClient => ({ address: clientAddress(c), log: c.get('log') });

  router.openapi(signUpRoute, async (c) => {
    const body = c.req.valid('json');
    await limits.check(authClient(c), 'sign-up', body.email);
    return forwardToAuth(c, ctx, { body, mail: 'report' });
  });

  router.openapi(signInRoute, async (c) => {
    const body = c.req.valid('json');
    await limits.check(authClient(c), 'sign-in', body.email);
    return forwardToAuth(c, ctx, { body });
  });

  router.openapi(signOutRoute, (c) => forwardToAuth(c, ctx, { body: {} }));

  router.openapi(getSessionRoute, (c) => forwardToAuth(c, ctx));

  router.openapi(sendVerificationRoute, async (c) => {
    const body = c.req.valid('json');
    await limits.check(authClient(c), 'mail', body.email);
    return forwardToAuth(c, ctx, { body, mail: 'conceal' });
  });

  router.openapi(requestResetRoute, async (c) => {
    const body = c.req.valid('json');
    await limits.check(authClient(c), 'mail', body.email);
    return forwardToAuth(c, ctx, { body, mail: 'conceal' });
  });

  router.openapi(resetPasswordRoute, async (c) => {
    const body = c.req.valid('json');
    await limits.check(authClient(c), 'password');
    return forwardToAuth(c, ctx, { body });
  });

  router.openapi(changePasswordRoute, async (c) => {
    const body = c.req.valid('json');
    await limits.check(authClient(c), 'password');
    // Whoever held a session before the change is out: only the answer's new token works.
    return forwardToAuth(c, ctx, { body: { ...body, revokeOtherSessions: true } });
  });

  router.openapi(updateUserRoute, async (c) => forwardToAuth(c, ctx, { body: c.req.valid('json') }));

  return router;
}
