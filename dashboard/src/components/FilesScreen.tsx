import { useEffect, useState } from 'preact/hooks';
import { type FileRecord, apiRequest } from '../api';
import { describeError, formatDate } from '../format';
import { Confirm } from './Confirm';
import { ErrorMessage } from './ErrorMessage';

const PAGE_SIZE = 12;

const SORTS = {
  'created_at:desc': 'Newest first',
  'created_at:asc': 'Oldest first',
  'filename:asc': 'Name, A to Z',
  'filename:desc': 'Name, Z to A',
} as const;
type Sort = keyof typeof SORTS;

interface Listing {
  files: FileRecord[];
  totalFiles: number;
  hasMore: boolean;
}

function sizeOf(file: FileRecord): string | undefined {
  try {
    const size = (JSON.parse(file.metadata) as { size?: unknown }).size;
    if (typeof size !== 'number') return undefined;
    return size > 1_000_000 ? `${(size / 1_000_000).toFixed(1)} MB` : `${Math.max(1, Math.round(size / 1000))} kB`;
  } catch {
    return undefined;
  }
}

export function FilesScreen({ token }: { token: string }) {
  const [type, setType] = useState<'' | 'screenshot' | 'pdf'>('');
  const [sort, setSort] = useState<Sort>('created_at:desc');
  const [offset, setOffset] = useState(0);
  const [listing, setListing] = useState<Listing>();
  const [confirming, setConfirming] = useState<string>();
  const [status, setStatus] = useState('');
  const [error, setError] = useState<Error>();

  async function load() {
    setError(undefined);
    const [sortBy, sortOrder] = sort.split(':') as [string, string];
    const query = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(offset), sortBy, sortOrder });
    if (type) query.set('type', type);
    try {
      const { data } = await apiRequest<Listing>('GET', `/v1/files/list?${query}`, { token });
      setListing(data);
    } catch (caught) {
      setError(describeError(caught));
    }
  }
  useEffect(() => void load(), [token, type, sort, offset]);

  async function remove(file: FileRecord) {
    setError(undefined);
    try {
      const { data } = await apiRequest<{ wasFound: boolean }>('POST', '/v1/files/delete', {
        token,
        body: { fileId: file.id, deleteFromR2: true },
      });
      setConfirming(undefined);
      setStatus(data.wasFound ? `Deleted ${file.filename}.` : `${file.filename} was already gone.`);
      if (listing && listing.files.length === 1 && offset > 0) setOffset(Math.max(0, offset - PAGE_SIZE));
      else await load();
    } catch (caught) {
      setError(describeError(caught));
    }
  }

  const first = listing && listing.totalFiles ? offset + 1 : 0;
  const last = listing ? offset + listing.files.length : 0;

  return (
    <section class="stack">
      <div class="card row filters" role="group" aria-label="Filter and sort files">
        <label>
          Type
          <select
            value={type}
            onChange={(e) => {
              setType(e.currentTarget.value as typeof type);
              setOffset(0);
            }}
          >
            <option value="">All files</option>
            <option value="screenshot">Screenshots</option>
            <option value="pdf">PDFs</option>
          </select>
        </label>
        <label>
          Sort
          <select
            value={sort}
            onChange={(e) => {
              setSort(e.currentTarget.value as Sort);
              setOffset(0);
            }}
          >
            {(Object.keys(SORTS) as Sort[]).map((value) => (
              <option key={value} value={value}>
                {SORTS[value]}
              </option>
            ))}
          </select>
        </label>
        <button type="button" class="secondary" onClick={load}>
          Refresh
        </button>
        <p role="status" class="muted status">
          {status}
        </p>
      </div>
      <ErrorMessage error={error} />

      {!listing ? (
        error ? null : <p aria-live="polite">Loading files…</p>
      ) : listing.files.length === 0 ? (
        <p class="card">No stored files{type ? ` of this type` : ''} yet. Screenshots and PDFs you make are kept here until they expire.</p>
      ) : (
        <ul class="file-grid" aria-label="Stored files">
          {listing.files.map((file) => (
            <li key={file.id} class="card file">
              {file.type === 'screenshot' ? (
                <img class="thumb" src={file.public_url} alt={`Screenshot of ${file.url}`} loading="lazy" />
              ) : (
                <div class="thumb pdf-thumb" aria-hidden="true">
                  PDF
                </div>
              )}
              <h3 class="filename">{file.filename}</h3>
              <p class="small muted source" title={file.url}>
                {file.url}
              </p>
              <p class="small">
                {file.type === 'screenshot' ? 'Screenshot' : 'PDF'}
                {sizeOf(file) ? `, ${sizeOf(file)}` : ''} · made {formatDate(file.created_at)}
                <br />
                expires {formatDate(file.expires_at)}
              </p>
              {confirming === file.id ? (
                <Confirm
                  label={`Confirm deleting ${file.filename}`}
                  question="Delete this file for good?"
                  confirmLabel="Delete file"
                  onConfirm={() => remove(file)}
                  onCancel={() => setConfirming(undefined)}
                />
              ) : (
                <div class="row">
                  <a class="button secondary" href={file.public_url} target="_blank" rel="noopener noreferrer">
                    Open<span class="visually-hidden"> {file.filename}</span>
                  </a>
                  <button type="button" class="danger-outline" aria-label={`Delete ${file.filename}`} onClick={() => setConfirming(file.id)}>
                    Delete
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}

      {listing && listing.totalFiles > 0 ? (
        <nav class="row pager" aria-label="Pages of files">
          <button type="button" class="secondary" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
            Previous page
          </button>
          <span>
            {first}–{last} of {listing.totalFiles}
          </span>
          <button type="button" class="secondary" disabled={!listing.hasMore} onClick={() => setOffset(offset + PAGE_SIZE)}>
            Next page
          </button>
        </nav>
      ) : null}
    </section>
  );
}
