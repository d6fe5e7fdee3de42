import type { apiClient } from './client.js';
import type { TestServer } from './test-server.js';

/** Follows the verification link the service "sent" to `email`, as the user's browser would. */
export async function verifyEmail(server: TestServer, email: string): Promise<Response> {
  const message = [...server.outbox].reverse().find((m) => m.to === email);
  if (!message?.link) throw new Error(`no verification message for ${email}`);
  return fetch(message.link, { redirect: 'manual' });
}

/** Signs up with an ADMIN_EMAILS address and verifies it, which is what makes it an admin. */
export async function signUpAdmin(server: TestServer, api: ReturnType<typeof apiClient>, email: string) {
  const admin = await api.signUp(email);
  const res = await verifyEmail(server, email);
  if (res.status !== 302) throw new Error(`verification failed: ${res.status}`);
  return admin;
}
