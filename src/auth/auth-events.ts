import type { AuthEvents } from './auth.js';

/**
 * better-auth's events, passed on to the account services. better-auth is built with its
 * events, and the services that answer them are built on better-auth: the relay is made
 * first, given to better-auth, and connected once the services exist. An event before that
 * is a bug in the composition, and says so.
 */
export class AuthEventRelay implements AuthEvents {
  private handlers: AuthEvents | undefined;

  connect(handlers: AuthEvents): void {
    if (this.handlers) throw new Error('The auth events are already connected');
    this.handlers = handlers;
  }

  userCreated(user: { id: string; email: string }): Promise<void> {
    return this.connected().userCreated(user);
  }

  verificationRequested(user: { id: string; email: string }): Promise<void> {
    return this.connected().verificationRequested(user);
  }

  passwordResetRequested(user: { id: string; email: string }, token: string): Promise<void> {
    return this.connected().passwordResetRequested(user, token);
  }

  passwordReset(user: { id: string; email: string }): Promise<void> {
    return this.connected().passwordReset(user);
  }

  private connected(): AuthEvents {
    if (!this.handlers) throw new Error('An auth event arrived before the account services were connected');
    return this.handlers;
  }
}
