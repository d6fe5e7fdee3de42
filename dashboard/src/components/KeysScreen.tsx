import { useEffect, useRef, useState } from 'preact/hooks';
import { type ApiKeyRecord, apiRequest } from '../api';
import { describeError, formatDate, formatNumber } from '../format';
import { Confirm } from './Confirm';
import { CopyButton } from './CopyButton';
import { ErrorMessage } from './ErrorMessage';

/** A key created in this tab: its secret is kept in memory only, for the playground. */
export interface FreshKey {
  id: string;
  name: string;
  key: string;
}

const LIFETIMES = [
  { label: 'Never expires', seconds: undefined },
  { label: '30 days', seconds: 30 * 86_400 },
  { label: '90 days', seconds: 90 * 86_400 },
  { label: '1 year', seconds: 365 * 86_400 },
];

interface Props {
  token: string;
  freshKey: FreshKey | undefined;
  onKeyCreated: (key: FreshKey) => void;
  onKeyRevoked: (id: string) => void;
}

export function KeysScreen({ token, freshKey, onKeyCreated, onKeyRevoked }: Props) {
  const [keys, setKeys] = useState<ApiKeyRecord[]>();
  const [name, setName] = useState('');
  const [lifetime, setLifetime] = useState(0);
  const [shownOnce, setShownOnce] = useState<FreshKey>();
  const [confirming, setConfirming] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const secretBox = useRef<HTMLDivElement>(null);

  async function load() {
    try {
      const { data } = await apiRequest<{ apiKeys: ApiKeyRecord[] }>('GET', '/v1/api-keys', { token });
      setKeys(data.apiKeys);
    } catch (caught) {
      setError(describeError(caught));
    }
  }
  useEffect(() => void load(), [token]);

  async function create(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const expiresIn = LIFETIMES[lifetime]?.seconds;
      const { data } = await apiRequest<ApiKeyRecord & { key: string }>('POST', '/v1/api-keys', {
        token,
        body: expiresIn ? { name, expiresIn } : { name },
      });
      const created = { id: data.id, name: data.name, key: data.key };
      setShownOnce(created);
      onKeyCreated(created);
      setName('');
      await load();
      secretBox.current?.focus();
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  }

  async function revoke(key: ApiKeyRecord) {
    setError(undefined);
    try {
      await apiRequest('DELETE', `/v1/api-keys/${encodeURIComponent(key.id)}`, { token });
      setConfirming(undefined);
      if (shownOnce?.id === key.id) setShownOnce(undefined);
      onKeyRevoked(key.id);
      await load();
    } catch (caught) {
      setError(describeError(caught));
    }
  }

  useEffect(() => {
    if (shownOnce) secretBox.current?.focus();
  }, [shownOnce]);

  return (
    <section class="stack" aria-labelledby="keys-create">
      <form class="card stack" onSubmit={create}>
        <h2 id="keys-create">Create a key</h2>
        <p class="muted">Use one key per app or machine, so you can revoke one without touching the others.</p>
        <div class="row">
          <label class="grow">
            Name
            <input name="key-name" required maxLength={64} placeholder="e.g. laptop, ci, production" value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </label>
          <label>
            Expires
            <select value={String(lifetime)} onChange={(e) => setLifetime(Number(e.currentTarget.value))}>
              {LIFETIMES.map((option, index) => (
                <option key={option.label} value={String(index)}>
                  {option.label}
                </option>
              ))}
            </select>
          </label>
        </div>
        <button type="submit" class="primary" disabled={busy}>
          Create key
        </button>
      </form>

      {shownOnce ? (
        <div class="card secret" role="region" aria-labelledby="secret-title" tabIndex={-1} ref={secretBox}>
          <h2 id="secret-title">Your new key “{shownOnce.name}”</h2>
          <p class="notice notice-warning">
            <strong>Copy it now: this is the only time it is shown.</strong> Pluck keeps only a hash. Store it in an
            environment variable or a secret store, never in a URL.
          </p>
          <div class="row">
            <label class="grow">
              New API key
              <input class="mono" readOnly value={shownOnce.key} onFocus={(e) => e.currentTarget.select()} />
            </label>
            <CopyButton text={shownOnce.key} label="Copy key" />
          </div>
          <p class="muted small">It stays usable in the Playground until you close this tab.</p>
          <button type="button" class="secondary" onClick={() => setShownOnce(undefined)}>
            I have stored it
          </button>
        </div>
      ) : null}

      <ErrorMessage error={error} />

      <div class="card">
        <h2>Your keys</h2>
        {!keys ? (
          <p aria-live="polite">Loading keys…</p>
        ) : keys.length === 0 ? (
          <p>No keys yet. Create one above to call the API.</p>
        ) : (
          <table class="responsive">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Requests</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.id}>
                  <th scope="row" data-label="Name">
                    {key.name}
                    {freshKey?.id === key.id ? <span class="badge">this tab</span> : null}
                    {key.expiresAt ? <span class="muted small block">expires {formatDate(key.expiresAt)}</span> : null}
                  </th>
                  <td data-label="Key" class="mono">
                    {key.start}…
                  </td>
                  <td data-label="Created" title={key.createdAt}>
                    {formatDate(key.createdAt)}
                  </td>
                  <td data-label="Last used" title={key.lastRequest ?? ''}>
                    {formatDate(key.lastRequest)}
                  </td>
                  <td data-label="Requests">{formatNumber(key.requestCount)}</td>
                  <td class="actions">
                    {confirming === key.id ? (
                      <Confirm
                        label={`Confirm revoking ${key.name}`}
                        question={`Revoke “${key.name}”? Apps using it stop working at once.`}
                        confirmLabel="Revoke key"
                        onConfirm={() => revoke(key)}
                        onCancel={() => setConfirming(undefined)}
                      />
                    ) : (
                      <button type="button" class="danger-outline" aria-label={`Revoke ${key.name}`} onClick={() => setConfirming(key.id)}>
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}
