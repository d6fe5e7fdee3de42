import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { Hono } from 'hono';
import type { AppContext } from '../container.js';
import type { AppEnv } from '../http/context.js';
import { handleNotFound } from '../http/error-handler.js';

/** better-auth's own routes (sign-up, sign-in, sessions, e-mail verification) under /v1/auth. */
export function authRoutes(ctx: AppContext) {
  const router = new Hono<AppEnv>();
  router.on(['GET', 'POST'], '/v1/auth/*', async (c) => {
    const response = await ctx.auth.handler(c.req.raw);
    // Paths better-auth does not serve (or that Pluck disabled) get Pluck's 404 body.
    if (response.status === 404 && !response.headers.get('content-type')?.includes('json')) return handleNotFound(c);
    return response;
  });
  return router;
}

const AuthUser = z.object({ id: z.string(), email: z.string(), name: z.string(), emailVerified: z.boolean() });
const AuthAnswer = z.object({ token: z.string().nullable(), user: AuthUser });
const AuthError = z.object({ code: z.string(), message: z.string() });

/** Describes the better-auth routes clients use, so /openapi.json covers them too. */
export function registerAuthDocs(app: OpenAPIHono<AppEnv>) {
  const registry = app.openAPIRegistry;
  const jsonBody = (schema: z.ZodType) => ({ body: { content: { 'application/json': { schema } }, required: true } });
  const answer = (schema: z.ZodType, description: string) => ({ description, content: { 'application/json': { schema } } });
  registry.registerPath({
    method: 'post',
    path: '/v1/auth/sign-up/email',
    tags: ['Authentication'],
    summary: 'Create an account; answers a session token (also in the set-auth-token header)',
    request: jsonBody(z.object({ email: z.email(), password: z.string().min(8).max(128), name: z.string() })),
    responses: { 200: answer(AuthAnswer, 'Signed up'), 422: answer(AuthError, 'Invalid or taken e-mail') },
  });
  registry.registerPath({
    method: 'post',
    path: '/v1/auth/sign-in/email',
    tags: ['Authentication'],
    summary: 'Sign in; answers a session token for Authorization: Bearer',
    request: jsonBody(z.object({ email: z.email(), password: z.string() })),
    responses: { 200: answer(AuthAnswer, 'Signed in'), 401: answer(AuthError, 'Wrong e-mail or password') },
  });
  registry.registerPath({
    method: 'post',
    path: '/v1/auth/sign-out',
    tags: ['Authentication'],
    summary: 'End the session of the bearer token',
    security: [{ bearerAuth: [] }],
    responses: { 200: answer(z.object({ success: z.boolean() }), 'Signed out') },
  });
  registry.registerPath({
    method: 'get',
    path: '/v1/auth/get-session',
    tags: ['Authentication'],
    summary: 'The session and user of the bearer token',
    security: [{ bearerAuth: [] }],
    responses: { 200: answer(z.object({ session: z.unknown(), user: AuthUser }).nullable(), 'Session or null') },
  });
  registry.registerPath({
    method: 'post',
    path: '/v1/auth/send-verification-email',
    tags: ['Authentication'],
    summary: 'Send the verification e-mail again',
    request: jsonBody(z.object({ email: z.email() })),
    responses: { 200: answer(z.object({ status: z.boolean() }), 'Sent') },
  });
}
