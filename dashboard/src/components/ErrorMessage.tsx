import { ApiError } from '../api';

/**
 * Shows an API failure in the API's own words: its message and code, each invalid field,
 * and the request id to quote when reporting it. Announced to screen readers.
 */
export function ErrorMessage({ error }: { error: Error | undefined }) {
  if (!error) return null;
  const apiError = error instanceof ApiError ? error : undefined;
  return (
    <div class="notice notice-error" role="alert">
      <p>
        <strong>{error.message}</strong>
        {apiError?.code ? <span class="code"> ({apiError.code})</span> : null}
      </p>
      {apiError?.issues.length ? (
        <ul>
          {apiError.issues.map((issue, index) => (
            <li key={index}>
              {issue.path.length ? <code>{issue.path.join('.')}</code> : 'body'}: {issue.message}
            </li>
          ))}
        </ul>
      ) : null}
      {apiError?.requestId ? <p class="muted small">Request id: {apiError.requestId}</p> : null}
    </div>
  );
}
