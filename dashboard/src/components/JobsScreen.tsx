import { useEffect, useState } from 'preact/hooks';
import { apiRequest } from '../api';
import { describeError, formatDate, formatNumber } from '../format';
import { ErrorMessage } from './ErrorMessage';

interface Job {
  id: string;
  kind: 'batch' | 'crawl' | 'map';
  status: 'queued' | 'active' | 'completed' | 'failed' | 'cancelled';
  progress: { total: number; completed: number; failed: number };
  creditsUsed: number;
  createdAt: string;
  error?: { code: string; message: string };
}

interface JobResult {
  url: string;
  status: 'completed' | 'failed';
  data?: { markdown?: string };
  error?: { code: string; message: string };
}

const OPEN = new Set(['queued', 'active']);
const POLL_MS = 2000;
/** The batch form's bound, well inside the API's 10,000 URLs. */
const MAX_BATCH_LINES = 1000;

/** Crawls and batches: start one, watch its progress, read the first results, download them all. */
export function JobsScreen({ token }: { token: string }) {
  const [jobs, setJobs] = useState<Job[]>();
  const [error, setError] = useState<Error>();
  const [status, setStatus] = useState('');

  async function load() {
    try {
      const { data } = await apiRequest<{ jobs: Job[] }>('GET', '/v1/jobs?limit=20', { token });
      setJobs(data.jobs);
    } catch (caught) {
      setError(describeError(caught));
    }
  }
  useEffect(() => void load(), [token]);
  // Progress moves while a job runs: follow it, and stop asking once every job is finished.
  const running = jobs?.some((job) => OPEN.has(job.status)) ?? false;
  useEffect(() => {
    if (!running) return undefined;
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [running, token]);

  async function act(work: () => Promise<string>) {
    setError(undefined);
    try {
      setStatus(await work());
      await load();
    } catch (caught) {
      setError(describeError(caught));
    }
  }

  return (
    <section class="stack">
      <StartJob onStart={(body, kind) => act(async () => {
        const { data } = await apiRequest<Job>('POST', `/v1/jobs/${kind}`, { token, body });
        return `Started ${kind} ${data.id}.`;
      })} />
      <p role="status" class="muted status">
        {status}
      </p>
      <ErrorMessage error={error} />
      {!jobs ? (
        error ? null : <p aria-live="polite">Loading jobs…</p>
      ) : jobs.length === 0 ? (
        <p class="card">No jobs yet. A crawl reads a whole site; a batch reads a list of URLs.</p>
      ) : (
        <ul class="stack" aria-label="Jobs">
          {jobs.map((job) => (
            <JobCard key={job.id} job={job} token={token} onCancel={() => act(async () => {
              await apiRequest('DELETE', `/v1/jobs/${job.id}`, { token });
              return `Cancelled ${job.id}.`;
            })} onError={setError} />
          ))}
        </ul>
      )}
    </section>
  );
}

function StartJob({ onStart }: { onStart: (body: Record<string, unknown>, kind: 'crawl' | 'batch') => Promise<void> }) {
  const [kind, setKind] = useState<'crawl' | 'batch'>('crawl');
  const [url, setUrl] = useState('');
  const [urls, setUrls] = useState('');
  const [limit, setLimit] = useState('20');

  function submit(event: Event) {
    event.preventDefault();
    if (kind === 'crawl') void onStart({ url: url.trim(), limit: Number(limit), formats: ['markdown'] }, 'crawl');
    else {
      const list = urls.split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
      void onStart({ urls: list.slice(0, MAX_BATCH_LINES), formats: ['markdown'] }, 'batch');
    }
  }

  return (
    <form class="card stack" onSubmit={submit} aria-label="Start a job">
      <div class="row">
        <label>
          Kind
          <select value={kind} onChange={(e) => setKind(e.currentTarget.value as typeof kind)}>
            <option value="crawl">Crawl a site</option>
            <option value="batch">Batch of URLs</option>
          </select>
        </label>
        {kind === 'crawl' ? (
          <>
            <label class="grow">
              Start URL
              <input type="url" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} placeholder="https://example.com/docs/" />
            </label>
            <label>
              Pages at most
              <input type="number" min={1} max={10000} required value={limit} onInput={(e) => setLimit(e.currentTarget.value)} />
            </label>
          </>
        ) : null}
      </div>
      {kind === 'batch' ? (
        <label>
          URLs, one a line
          <textarea rows={5} required value={urls} onInput={(e) => setUrls(e.currentTarget.value)} />
        </label>
      ) : null}
      <p class="small muted">Each page is read as markdown and costs what a markdown request costs.</p>
      <button type="submit">Start {kind}</button>
    </form>
  );
}

function JobCard({ job, token, onCancel, onError }: { job: Job; token: string; onCancel: () => void; onError: (error: Error) => void }) {
  const [results, setResults] = useState<JobResult[]>();
  const label = `${job.kind} ${job.id}`;

  async function showResults() {
    try {
      const { data } = await apiRequest<{ results: JobResult[] }>('GET', `/v1/jobs/${job.id}?limit=10`, { token });
      setResults(data.results);
    } catch (caught) {
      onError(describeError(caught));
    }
  }

  async function download(format: 'jsonl' | 'zip') {
    try {
      const { data } = await apiRequest<Blob>('GET', `/v1/jobs/${job.id}/download?format=${format}`, { token, binary: true });
      const link = document.createElement('a');
      link.href = URL.createObjectURL(data);
      link.download = `pluck-job-${job.id}.${format}`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
    } catch (caught) {
      onError(describeError(caught));
    }
  }

  const { total, completed, failed } = job.progress;
  return (
    <li class="card stack" aria-label={label}>
      <h3>
        {job.kind === 'crawl' ? 'Crawl' : job.kind === 'batch' ? 'Batch' : 'Map'} <code class="small">{job.id}</code>
      </h3>
      <p>
        <strong>{job.status}</strong> · {formatNumber(completed)} done, {formatNumber(failed)} failed of {formatNumber(total)} ·{' '}
        {formatNumber(job.creditsUsed)} credits · started {formatDate(job.createdAt)}
      </p>
      <progress max={Math.max(total, 1)} value={completed + failed} aria-label={`Progress of ${label}`} />
      {job.error ? <p class="small">{job.error.code}: {job.error.message}</p> : null}
      <div class="row">
        <button type="button" class="secondary" onClick={showResults}>
          Show results<span class="visually-hidden"> of {label}</span>
        </button>
        <button type="button" class="secondary" onClick={() => download('jsonl')}>
          Download JSON lines<span class="visually-hidden"> of {label}</span>
        </button>
        {job.kind !== 'map' ? (
          <button type="button" class="secondary" onClick={() => download('zip')}>
            Download markdown (zip)<span class="visually-hidden"> of {label}</span>
          </button>
        ) : null}
        {OPEN.has(job.status) ? (
          <button type="button" class="danger-outline" onClick={onCancel}>
            Cancel<span class="visually-hidden"> {label}</span>
          </button>
        ) : null}
      </div>
      {results ? (
        <ul class="small" aria-label={`Results of ${label}`}>
          {results.map((result) => (
            <li key={result.url}>
              {result.url}: {result.status === 'failed' ? `${result.error?.code} ${result.error?.message}` : `${formatNumber(result.data?.markdown?.length ?? 0)} characters of markdown`}
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}
