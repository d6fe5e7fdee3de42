import { useEffect, useState } from 'preact/hooks';

/** The dashboard's screens; each has its own path so links, reloads and the back button work. */
export const SCREENS = {
  keys: { path: '/keys', title: 'API keys' },
  credits: { path: '/credits', title: 'Credits and plan' },
  files: { path: '/stored-files', title: 'Files' },
  jobs: { path: '/jobs', title: 'Jobs' },
  playground: { path: '/playground', title: 'Playground' },
  account: { path: '/account', title: 'Account' },
} as const;

export type Screen = keyof typeof SCREENS;
/** Screens for people who are not signed in (a reset link opens its screen either way). */
export const AUTH_SCREENS = ['sign-in', 'sign-up', 'forgot-password', 'reset-password'] as const;
export type AuthScreen = (typeof AUTH_SCREENS)[number];

export function screenForPath(path: string): Screen | AuthScreen | undefined {
  const auth = AUTH_SCREENS.find((screen) => path === `/${screen}`);
  if (auth) return auth;
  const match = (Object.keys(SCREENS) as Screen[]).find((screen) => SCREENS[screen].path === path);
  return match;
}

export function navigate(path: string, replace = false): void {
  if (path === location.pathname) return;
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  dispatchEvent(new PopStateEvent('popstate'));
}

/** The current path, updated on navigation and on the browser's back and forward buttons. */
export function usePath(): string {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPath(location.pathname);
    addEventListener('popstate', update);
    return () => removeEventListener('popstate', update);
  }, []);
  return path;
}
