export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/**
 * A small JSON client for tests; failure messages carry the whole body. It sends `origin`
 * as a browser page of the dashboard would; `null` sends none, as scripts and curl do.
 * `defaultHeaders` go on every request (X-Forwarded-For, for one).
 */
export function apiClient(baseUrl: string, origin: string | null = baseUrl, defaultHeaders: Record<string, string> = {}) {
  async function request<T = any>(
    method: string,
    path: string,
    options: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...(origin === null ? {} : { origin }), ...defaultHeaders, ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON; tests look at `text`
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  /** Signs up a new account and returns its session token and user id. */
  async function signUp(email = `user-${crypto.randomUUID()}@example.com`, extra: Record<string, unknown> = {}) {
    const res = await request('POST', '/v1/auth/sign-up/email', {
      body: { email, password: 'correct horse battery', name: 'Test User', ...extra },
    });
    if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${res.text}`);
    return { token: res.body.token as string, userId: res.body.user.id as string, email };
  }

  async function createKey(sessionToken: string, name = 'test key') {
    const res = await request('POST', '/v1/api-keys', { token: sessionToken, body: { name } });
    if (res.status !== 201) throw new Error(`create key failed: ${res.status} ${res.text}`);
    return res.body.data as { id: string; key: string };
  }

  /** A new account with one API key: what most operation tests start from. */
  async function signUpWithKey() {
    const account = await signUp();
    return { ...account, key: (await createKey(account.token)).key };
  }

  return {
    request,
    get: <T = any>(path: string, token?: string) => request<T>('GET', path, { token }),
    post: <T = any>(path: string, body?: unknown, token?: string) => request<T>('POST', path, { body, token }),
    signUp,
    createKey,
    signUpWithKey,
  };
}
