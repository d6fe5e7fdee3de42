/**
 * The session token lives in sessionStorage: it survives a reload of this tab and is gone
 * when the tab closes. API key secrets are never stored anywhere (component state only).
 */
const STORAGE_KEY = 'pluck.session';

export function loadSessionToken(): string | undefined {
  try {
    return sessionStorage.getItem(STORAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

export function saveSessionToken(token: string | undefined): void {
  try {
    if (token) sessionStorage.setItem(STORAGE_KEY, token);
    else sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage may be disabled; the session then lasts as long as the page.
  }
}
