import { useState } from 'preact/hooks';
import { apiRequest, type AuthUser } from '../api';
import { describeError } from '../format';
import { linkNotice, type MailDelivery } from '../mail';
import { ErrorMessage } from './ErrorMessage';
import { NewPasswordFields } from './NewPasswordFields';

interface Props {
  token: string;
  user: AuthUser;
  /** Changing the password ends every session; the answer's new token replaces this one. */
  onTokenChanged: (token: string) => void;
}

/** The signed-in account: its address and whether it is verified, and a password change. */
export function AccountScreen({ token, user, onTokenChanged }: Props) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [formKey, setFormKey] = useState(0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const [done, setDone] = useState<string>();

  async function changePassword(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setDone(undefined);
    try {
      const { data } = await apiRequest<{ token: string }>('POST', '/v1/auth/change-password', {
        token,
        body: { currentPassword: current, newPassword: next },
      });
      onTokenChanged(data.token);
      setCurrent('');
      setNext('');
      setFormKey((key) => key + 1);
      setDone('Your password is changed. Every other session of this account has ended.');
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  }

  async function resendVerification() {
    setError(undefined);
    try {
      const { data } = await apiRequest<{ mailDelivery?: MailDelivery }>('POST', '/v1/auth/send-verification-email', {
        token,
        body: { email: user.email },
      });
      setDone(linkNotice(data.mailDelivery, `A verification link is on its way to ${user.email}.`, `the verification link for ${user.email}`));
    } catch (caught) {
      setError(describeError(caught));
    }
  }

  return (
    <section class="stack">
      {done ? (
        <div class="notice notice-success" role="status">
          {done}
        </div>
      ) : null}
      <div class="card">
        <h2>Your account</h2>
        <dl class="facts">
          <dt>Email</dt>
          <dd>{user.email}</dd>
          <dt>Verified</dt>
          <dd>{user.emailVerified ? 'Yes' : 'Not yet'}</dd>
        </dl>
        {user.emailVerified ? null : (
          <button type="button" class="secondary" onClick={resendVerification}>
            Send the verification link again
          </button>
        )}
      </div>
      <form class="card stack" onSubmit={changePassword} aria-labelledby="change-password-heading">
        <h2 id="change-password-heading">Change your password</h2>
        <label>
          Current password
          <input
            type="password"
            name="current-password"
            autocomplete="current-password"
            required
            maxLength={128}
            value={current}
            onInput={(e) => setCurrent(e.currentTarget.value)}
          />
        </label>
        <NewPasswordFields key={formKey} onChange={setNext} />
        <ErrorMessage error={error} />
        <button type="submit" class="primary" disabled={busy || !next || !current}>
          Change password
        </button>
      </form>
    </section>
  );
}
