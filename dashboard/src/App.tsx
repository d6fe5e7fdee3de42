import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { apiRequest, type AuthUser, type Me, onRejectedToken } from './api';
import { AccountScreen } from './components/AccountScreen';
import { AuthScreen, type SignedIn } from './components/AuthScreen';
import { CreditsScreen } from './components/CreditsScreen';
import { FilesScreen } from './components/FilesScreen';
import { JobsScreen } from './components/JobsScreen';
import { ForgotPasswordScreen } from './components/ForgotPasswordScreen';
import { type FreshKey, KeysScreen } from './components/KeysScreen';
import { Playground } from './components/Playground';
import { ResetPasswordScreen } from './components/ResetPasswordScreen';
import { AUTH_SCREENS, navigate, SCREENS, type Screen, screenForPath, usePath } from './router';
import { loadSessionToken, saveSessionToken } from './session';

interface Session {
  token: string;
  user: AuthUser;
}

export function App() {
  const path = usePath();
  const [session, setSession] = useState<Session>();
  const [checking, setChecking] = useState(() => Boolean(loadSessionToken()));
  const [notice, setNotice] = useState<string>();
  const [freshKey, setFreshKey] = useState<FreshKey>();

  // A token kept from earlier in this tab is checked once; an expired one is dropped.
  useEffect(() => {
    const token = loadSessionToken();
    if (!token) return;
    apiRequest<Me>('GET', '/v1/user/me', { token })
      .then(({ data }) => {
        if (data.authType === 'session' && data.user) setSession({ token, user: data.user });
        else saveSessionToken(undefined);
      })
      .catch(() => saveSessionToken(undefined))
      .finally(() => setChecking(false));
  }, []);

  const [signInNotice, setSignInNotice] = useState<string>();
  // A session that the server no longer accepts (expired, signed out elsewhere) ends here too.
  useEffect(() => {
    onRejectedToken((token) => {
      if (token !== session?.token) return;
      saveSessionToken(undefined);
      setSession(undefined);
      setFreshKey(undefined);
      setSignInNotice('Your session has ended. Sign in again to continue.');
    });
    return () => onRejectedToken(undefined);
  }, [session?.token]);

  function signedIn({ token, user, notice: welcome }: SignedIn) {
    saveSessionToken(token);
    setSignInNotice(undefined);
    setSession({ token, user });
    setNotice(welcome);
    navigate(SCREENS.keys.path, true);
  }

  async function signOut() {
    const token = session?.token;
    saveSessionToken(undefined);
    setSession(undefined);
    setFreshKey(undefined);
    setNotice(undefined);
    setSignInNotice('You are signed out.');
    navigate('/sign-in');
    // Ending the session on the server is best effort: locally it is already gone.
    if (token) await apiRequest('POST', '/v1/auth/sign-out', { token, body: {} }).catch(() => undefined);
  }

  /** A new password ends every session, this tab's too: back to sign-in with a word on why. */
  function passwordReset(notice: string) {
    saveSessionToken(undefined);
    setSession(undefined);
    setFreshKey(undefined);
    setSignInNotice(notice);
    navigate('/sign-in');
  }

  const screen = screenForPath(path);
  const dashboardScreen = screen && !(AUTH_SCREENS as readonly string[]).includes(screen) ? (screen as Screen) : undefined;
  // Signed in on / or a sign-in path: the keys screen is home.
  useEffect(() => {
    if (session && !dashboardScreen) navigate(SCREENS.keys.path, true);
  }, [session, dashboardScreen]);

  // A reset link opens its page whether or not this tab is signed in.
  if (screen === 'reset-password') return <ResetPasswordScreen onDone={passwordReset} />;
  if (checking) return <p class="loading" aria-live="polite">Loading…</p>;
  if (!session) {
    if (screen === 'forgot-password') return <ForgotPasswordScreen />;
    return <AuthScreen mode={screen === 'sign-up' ? 'sign-up' : 'sign-in'} onSignedIn={signedIn} notice={signInNotice} />;
  }
  if (!dashboardScreen) return null;
  return (
    <SignedInLayout screen={dashboardScreen} user={session.user} onSignOut={signOut} notice={notice} onDismissNotice={() => setNotice(undefined)}>
      {dashboardScreen === 'keys' ? (
        <KeysScreen
          token={session.token}
          freshKey={freshKey}
          onKeyCreated={setFreshKey}
          onKeyRevoked={(id) => freshKey?.id === id && setFreshKey(undefined)}
        />
      ) : dashboardScreen === 'credits' ? (
        <CreditsScreen token={session.token} />
      ) : dashboardScreen === 'files' ? (
        <FilesScreen token={session.token} />
      ) : dashboardScreen === 'jobs' ? (
        <JobsScreen token={session.token} />
      ) : dashboardScreen === 'account' ? (
        <AccountScreen
          token={session.token}
          user={session.user}
          onTokenChanged={(token) => {
            saveSessionToken(token);
            setSession({ ...session, token });
          }}
        />
      ) : (
        <Playground sessionToken={session.token} freshKey={freshKey} />
      )}
    </SignedInLayout>
  );
}

interface LayoutProps {
  screen: Screen;
  user: AuthUser;
  notice: string | undefined;
  onDismissNotice: () => void;
  onSignOut: () => void;
  children: ComponentChildren;
}

function SignedInLayout({ screen, user, notice, onDismissNotice, onSignOut, children }: LayoutProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${SCREENS[screen].title} · Pluck`;
    // Moving focus to the new heading tells screen-reader users the screen changed.
    heading.current?.focus();
  }, [screen]);

  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Pluck</span>
        <nav aria-label="Dashboard">
          <ul>
            {(Object.keys(SCREENS) as Screen[]).map((name) => (
              <li key={name}>
                <a
                  href={SCREENS[name].path}
                  aria-current={name === screen ? 'page' : undefined}
                  onClick={(event) => {
                    event.preventDefault();
                    navigate(SCREENS[name].path);
                  }}
                >
                  {SCREENS[name].title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="account">
          <span class="email" title={user.email}>
            {user.email}
          </span>
          <button type="button" class="secondary" onClick={onSignOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main">
        <h1 ref={heading} tabIndex={-1}>
          {SCREENS[screen].title}
        </h1>
        {notice ? (
          <div class="notice notice-success row center page-notice" role="status">
            <span class="grow">{notice}</span>
            <button type="button" class="secondary" onClick={onDismissNotice}>
              Dismiss
            </button>
          </div>
        ) : null}
        {children}
      </main>
    </>
  );
}
