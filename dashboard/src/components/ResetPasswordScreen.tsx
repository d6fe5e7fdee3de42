import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, apiRequest } from '../api';
import { describeError } from '../format';
import { navigate } from '../router';
import { ErrorMessage } from './ErrorMessage';
import { NewPasswordFields } from './NewPasswordFields';

/** The token of a reset link, taken out of the address bar at once so it stays out of the history. */
function takeTokenFromUrl(): string | undefined {
  const query = new URLSearchParams(location.search);
  const token = query.get('token') ?? undefined;
  if (token) history.replaceState(null, '', location.pathname);
  return token;
}

interface Props {
  /** The password is set: every session has ended, so the user signs in again. */
  onDone: (notice: string) => void;
}

/** Where a reset link lands: choose the new password (it ends every session of the account). */
export function ResetPasswordScreen({ onDone }: Props) {
  const [token] = useState(takeTokenFromUrl);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    document.title = 'Choose a new password · Pluck';
    heading.current?.focus();
  }, []);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await apiRequest('POST', '/v1/auth/reset-password', { body: { token, newPassword: password } });
      onDone('Your new password is set and every earlier session has ended. Sign in with it.');
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  }

  const stale = error instanceof ApiError && error.code === 'INVALID_TOKEN';
  return (
    <main id="main" class="auth">
      <h1 ref={heading} tabIndex={-1}>
        Choose a new password
      </h1>
      {token ? (
        <form class="card stack" onSubmit={submit}>
          <NewPasswordFields onChange={setPassword} />
          <ErrorMessage error={error} />
          <button type="submit" class="primary" disabled={busy || !password}>
            Set the password
          </button>
        </form>
      ) : (
        <div class="notice notice-error" role="alert">
          This page needs the link from the password reset e-mail.
        </div>
      )}
      <p class="switch">
        {stale || !token ? 'The link is used or expired? ' : null}
        <a
          href="/forgot-password"
          onClick={(event) => {
            event.preventDefault();
            navigate('/forgot-password');
          }}
        >
          Ask for a new link
        </a>
      </p>
    </main>
  );
}
