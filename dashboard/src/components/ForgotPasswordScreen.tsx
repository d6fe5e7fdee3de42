import { useEffect, useRef, useState } from 'preact/hooks';
import { apiRequest } from '../api';
import { describeError } from '../format';
import { linkNotice, type MailDelivery } from '../mail';
import { navigate } from '../router';
import { ErrorMessage } from './ErrorMessage';

/** Asks for a password reset link. The answer is the same whether or not the address has an account. */
export function ForgotPasswordScreen() {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const [sent, setSent] = useState<string>();
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    document.title = 'Reset your password · Pluck';
    heading.current?.focus();
  }, []);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const { data } = await apiRequest<{ mailDelivery?: MailDelivery }>('POST', '/v1/auth/request-password-reset', { body: { email } });
      const mailed = `If an account uses ${email}, we sent it a link to choose a new password. The link works once, for an hour.`;
      setSent(linkNotice(data.mailDelivery, mailed, `the password reset link for ${email}`));
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main" class="auth">
      <h1 ref={heading} tabIndex={-1}>
        Reset your password
      </h1>
      {sent ? (
        <div class="notice notice-success" role="status">
          {sent}
        </div>
      ) : null}
      <form class="card stack" onSubmit={submit}>
        <label>
          Email
          <input type="email" name="email" autocomplete="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </label>
        <ErrorMessage error={error} />
        <button type="submit" class="primary" disabled={busy}>
          Send the reset link
        </button>
      </form>
      <p class="switch">
        <a
          href="/sign-in"
          onClick={(event) => {
            event.preventDefault();
            navigate('/sign-in');
          }}
        >
          Back to sign in
        </a>
      </p>
    </main>
  );
}
