import type { PlanName } from '../config.js';

export interface PrincipalUser {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  plan: PlanName;
  role: string;
  /** The password was set after the address was proven, or by an operator (see Credentials). */
  passwordProven: boolean;
  createdAt: string;
}

/** Who is calling, resolved once per request from the `Authorization` header. */
export interface Principal {
  kind: 'session' | 'api-key';
  userId: string;
  user: PrincipalUser;
  isAdmin: boolean;
  /** Present when the caller used an API key. */
  apiKey?: { id: string; name: string | null; start: string | null };
  /** Present when the caller used a session token. */
  session?: { id: string; expiresAt: string };
}

export function toPlan(value: unknown): PlanName {
  return value === 'pro' ? 'pro' : 'free';
}

export function toIsoString(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string' || typeof value === 'number') {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) return date.toISOString();
  }
  return '';
}
