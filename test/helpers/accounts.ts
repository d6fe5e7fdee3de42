import type { MailMessage } from '../../src/auth/mailer.js';
import type { apiClient } from './client.js';
import type { TestServer } from './test-server.js';

export const PASSWORD = 'correct horse battery';

/** The newest message the service "sent" to `email` whose link goes to `path`. */
export function lastLink(server: TestServer, email: string, path: string): string {
  const message = [...server.outbox].reverse().find((m: MailMessage) => m.to === email && m.link && new URL(m.link).pathname === path);
  if (!message?.link) throw new Error(`no message for ${email} with a link to ${path}`);
  return message.link;
}

/** The token of the newest reset link mailed to `email`. */
export function resetToken(server: TestServer, email: string): string {
  return new URL(lastLink(server, email, '/reset-password')).searchParams.get('token')!;
}

/** Follows the verification link the service "sent" to `email`, as the user's browser would. */
export async function verifyEmail(server: TestServer, email: string): Promise<Response> {
  return fetch(lastLink(server, email, '/v1/user/verify-email-token'), { redirect: 'manual' });
}

/**
 * Makes an admin the way a person with an ADMIN_EMAILS address does: sign up, open the
 * verification link (which ends the sign-up's password and mails a reset link), set the
 * password through that link, sign in. Answers the new session.
 */
export async function signUpAdmin(server: TestServer, api: ReturnType<typeof apiClient>, email: string) {
  const { userId } = await api.signUp(email);
  const verified = await verifyEmail(server, email);
  if (verified.status !== 302) throw new Error(`verification failed: ${verified.status}`);
  const reset = await api.post('/v1/auth/reset-password', { token: resetToken(server, email), newPassword: PASSWORD });
  if (reset.status !== 200) throw new Error(`reset failed: ${reset.status} ${reset.text}`);
  const signIn = await api.post('/v1/auth/sign-in/email', { email, password: PASSWORD });
  if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.status} ${signIn.text}`);
  return { token: signIn.body.token as string, userId, email };
}
