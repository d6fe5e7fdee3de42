import { useEffect, useState } from 'preact/hooks';

/** The dashboard's screens; each has its own path so links, reloads and the back button work. */
export const SCREENS = {
  keys: { path: '/keys', title: 'API keys' },
  credits: { path: '/credits', title: 'Credits and plan' },
  files: { path: '/stored-files', title: 'Files' },
  playground: { path: '/playground', title: 'Playground' },
} as const;

export type Screen = keyof typeof SCREENS;
export type AuthScreen = 'sign-in' | 'sign-up';

export function screenForPath(path: string): Screen | AuthScreen | undefined {
  if (path === '/sign-in') return 'sign-in';
  if (path === '/sign-up') return 'sign-up';
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
