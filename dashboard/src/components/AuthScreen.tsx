import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, apiRequest, type AuthUser } from '../api';
import { describeError } from '../format';
import { linkNotice, type MailDelivery } from '../mail';
import { navigate } from '../router';
import { ErrorMessage } from './ErrorMessage';

interface AuthAnswer {
  token: string | null;
  user: AuthUser;
  /** Sign-up only: where the verification link went. */
  mailDelivery?: MailDelivery;
}

type Mode = 'sign-in' | 'sign-up';

export interface SignedIn {
  token: string;
  user: AuthUser;
  /** Shown once on the first screen after signing in. */
  notice?: string;
}

/** What the e-mail verification redirect says in the query string (see /v1/user/verify-email-token). */
function verificationNotice(): { text: string; kind: 'success' | 'error' } | undefined {
  const query = new URLSearchParams(location.search);
  if (query.get('verified') === 'false') {
    return { kind: 'error', text: 'That verification link is not valid any more. Sign in to get a new one.' };
  }
  if (query.get('password_reset') === 'required') {
    const mail = query.get('mail');
    const delivery = mail === 'log' || mail === 'failed' ? mail : 'smtp';
    return {
      kind: 'success',
      text:
        'Your address is verified. It is an administrator address, so the password chosen when the account was made ' +
        'no longer works and its sessions and keys have ended. ' +
        linkNotice(delivery, 'We sent you a link to set a new password.', 'the link to set a new password'),
    };
  }
  if (query.get('new_user') === 'true') return { kind: 'success', text: 'Your e-mail address is verified. Sign in to continue.' };
  return undefined;
}

interface Props {
  mode: Mode;
  onSignedIn: (session: SignedIn) => void;
  /** Why the user is here (signed out, session ended). */
  notice?: string;
}

export function AuthScreen({ mode, onSignedIn, notice }: Props) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const [info, setInfo] = useState(() => verificationNotice() ?? (notice ? { kind: 'success' as const, text: notice } : undefined));
  const [unverifiedEmail, setUnverifiedEmail] = useState<string>();
  const heading = useRef<HTMLHeadingElement>(null);
  const isSignUp = mode === 'sign-up';

  useEffect(() => {
    document.title = `${isSignUp ? 'Sign up' : 'Sign in'} · Pluck`;
    setError(undefined);
    heading.current?.focus();
  }, [mode]);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setUnverifiedEmail(undefined);
    try {
      const path = isSignUp ? '/v1/auth/sign-up/email' : '/v1/auth/sign-in/email';
      const body = isSignUp ? { email, password, name } : { email, password };
      const { data } = await apiRequest<AuthAnswer>('POST', path, { body });
      if (!data.token) {
        // Verification is required before the first sign-in: no session yet.
        const sent = `We sent a verification link to ${data.user.email}. Open it, then sign in here.`;
        setInfo({ kind: 'success', text: linkNotice(data.mailDelivery, sent, `the verification link for ${data.user.email}`) });
        setPassword('');
        navigate('/sign-in');
        return;
      }
      const notice =
        isSignUp && !data.user.emailVerified
          ? `Welcome! ${linkNotice(data.mailDelivery, `We sent a link to ${data.user.email} to verify your address.`, `the link to verify ${data.user.email}`)}`
          : undefined;
      onSignedIn({ token: data.token, user: data.user, notice });
    } catch (caught) {
      const failure = describeError(caught);
      if (failure instanceof ApiError && failure.code === 'EMAIL_NOT_VERIFIED') setUnverifiedEmail(email);
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  async function resendVerification() {
    if (!unverifiedEmail) return;
    try {
      const { data } = await apiRequest<{ mailDelivery?: MailDelivery }>('POST', '/v1/auth/send-verification-email', {
        body: { email: unverifiedEmail },
      });
      setError(undefined);
      const sent = `A new verification link is on its way to ${unverifiedEmail}.`;
      setInfo({ kind: 'success', text: linkNotice(data.mailDelivery, sent, `a new verification link for ${unverifiedEmail}`) });
    } catch (caught) {
      setError(describeError(caught));
    }
  }

  return (
    <main id="main" class="auth">
      <h1 ref={heading} tabIndex={-1}>
        {isSignUp ? 'Create your Pluck account' : 'Sign in to Pluck'}
      </h1>
      {info ? (
        <div class={`notice notice-${info.kind}`} role="status">
          {info.text}
        </div>
      ) : null}
      <form class="card stack" onSubmit={submit} noValidate={false}>
        {isSignUp ? (
          <label>
            Name
            <input name="name" autocomplete="name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </label>
        ) : null}
        <label>
          Email
          <input
            type="email"
            name="email"
            autocomplete="email"
            required
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </label>
        <label>
          Password
          <input
            type="password"
            name="password"
            autocomplete={isSignUp ? 'new-password' : 'current-password'}
            required
            minLength={isSignUp ? 8 : undefined}
            maxLength={128}
            aria-describedby={isSignUp ? 'password-hint' : undefined}
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </label>
        {isSignUp ? (
          <p id="password-hint" class="muted small">
            At least 8 characters.
          </p>
        ) : (
          <p class="small">
            <a
              href="/forgot-password"
              onClick={(event) => {
                event.preventDefault();
                navigate('/forgot-password');
              }}
            >
              Forgot your password?
            </a>
          </p>
        )}
        <ErrorMessage error={error} />
        {unverifiedEmail ? (
          <button type="button" class="secondary" onClick={resendVerification}>
            Send the verification link again
          </button>
        ) : null}
        <button type="submit" class="primary" disabled={busy}>
          {isSignUp ? 'Sign up' : 'Sign in'}
        </button>
      </form>
      <p class="switch">
        {isSignUp ? 'Already have an account? ' : 'New to Pluck? '}
        <a
          href={isSignUp ? '/sign-in' : '/sign-up'}
          onClick={(event) => {
            event.preventDefault();
            navigate(isSignUp ? '/sign-in' : '/sign-up');
          }}
        >
          {isSignUp ? 'Sign in instead' : 'Create an account'}
        </a>
      </p>
    </main>
  );
}
