import { useEffect, useState } from 'preact/hooks';
import { apiRequest } from '../api';
import { curlCommand } from '../curl';
import { describeError } from '../format';
import { CopyButton } from './CopyButton';
import { ErrorMessage } from './ErrorMessage';
import type { FreshKey } from './KeysScreen';
import { Markdown } from './Markdown';
import { Tabs } from './Tabs';

type Operation = 'markdown' | 'content' | 'screenshot' | 'pdf' | 'scrape' | 'links' | 'ai-extract' | 'search';

const OPERATIONS: Record<Operation, { label: string; path: string; binary?: 'png' | 'pdf' }> = {
  markdown: { label: 'Markdown', path: '/v1/web/markdown' },
  screenshot: { label: 'Screenshot', path: '/v1/web/screenshot', binary: 'png' },
  pdf: { label: 'PDF', path: '/v1/web/pdf', binary: 'pdf' },
  content: { label: 'Rendered HTML', path: '/v1/web/content' },
  scrape: { label: 'Scrape elements', path: '/v1/web/scrape' },
  links: { label: 'Links', path: '/v1/web/links' },
  'ai-extract': { label: 'AI extraction', path: '/v1/web/ai-extract' },
  search: { label: 'Web search', path: '/v2/web/search' },
};

interface Result {
  operation: Operation;
  json?: unknown;
  blobUrl?: string;
  fileId?: string | null;
  creditsCost?: number;
  cache?: string | null;
  ms: number;
}

interface Props {
  sessionToken: string;
  freshKey: FreshKey | undefined;
}

export function Playground({ sessionToken, freshKey }: Props) {
  const [operation, setOperation] = useState<Operation>('markdown');
  const [url, setUrl] = useState('https://example.com');
  const [query, setQuery] = useState('');
  const [waitTime, setWaitTime] = useState('0');
  const [fullPage, setFullPage] = useState(false);
  const [onlyMainContent, setOnlyMainContent] = useState(true);
  const [selectors, setSelectors] = useState('h1\na');
  const [prompt, setPrompt] = useState('Summarise the page in three sentences.');
  const [extra, setExtra] = useState('');
  const [credentialChoice, setCredentialChoice] = useState<string>(freshKey ? 'fresh' : 'session');
  const [pastedKey, setPastedKey] = useState('');
  const [reveal, setReveal] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const [result, setResult] = useState<Result>();

  useEffect(() => {
    if (freshKey) setCredentialChoice('fresh');
    else if (credentialChoice === 'fresh') setCredentialChoice('session');
  }, [freshKey?.id]);
  // Blob URLs hold the whole image or PDF in memory until revoked.
  useEffect(() => () => void (result?.blobUrl && URL.revokeObjectURL(result.blobUrl)), [result]);

  const spec = OPERATIONS[operation];
  const credential = credentialChoice === 'fresh' ? freshKey?.key : credentialChoice === 'paste' ? pastedKey.trim() : sessionToken;

  function requestBody(): Record<string, unknown> {
    let body: Record<string, unknown>;
    if (operation === 'search') body = { query, limit: 10 };
    else {
      body = { url };
      const wait = Number(waitTime);
      if (waitTime.trim() && wait !== 0) body.waitTime = Number.isFinite(wait) ? wait : waitTime;
      if (operation === 'screenshot' && fullPage) body.screenshotOptions = { fullPage: true };
      if (operation === 'markdown' && !onlyMainContent) body.onlyMainContent = false;
      if (operation === 'scrape') {
        body.elements = selectors
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean)
          .map((selector) => ({ selector }));
      }
      if (operation === 'ai-extract') body.prompt = prompt;
    }
    if (extra.trim()) {
      const parsed: unknown = JSON.parse(extra);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('More options must be a JSON object');
      body = { ...body, ...(parsed as Record<string, unknown>) };
    }
    return body;
  }

  let body: Record<string, unknown> | undefined;
  let bodyProblem: string | undefined;
  try {
    body = requestBody();
  } catch (caught) {
    bodyProblem = `More options: ${describeError(caught).message}`;
  }

  async function run(event: Event) {
    event.preventDefault();
    setError(undefined);
    if (!body) return setError(new Error(bodyProblem));
    if (!credential) return setError(new Error('Paste an API key, or choose another way to run the request.'));
    setBusy(true);
    const started = performance.now();
    try {
      const answer = await apiRequest<unknown>('POST', spec.path, { token: credential, body, binary: Boolean(spec.binary) });
      const ms = Math.round(performance.now() - started);
      const cache = answer.headers.get('x-cache');
      if (answer.data instanceof Blob) {
        setResult({
          operation,
          blobUrl: URL.createObjectURL(answer.data),
          fileId: answer.headers.get('x-file-id'),
          creditsCost: Number(answer.headers.get('x-credits-cost') ?? Number.NaN),
          cache,
          ms,
        });
      } else {
        setResult({ operation, json: answer.data, creditsCost: answer.creditsCost, cache, ms });
      }
    } catch (caught) {
      setError(describeError(caught));
      setResult(undefined);
    } finally {
      setBusy(false);
    }
  }

  const placeholder = credentialChoice === 'session' ? '$PLUCK_SESSION_TOKEN' : '$PLUCK_API_KEY';
  const curl = body
    ? curlCommand({
        origin: location.origin,
        path: spec.path,
        body,
        credential: reveal && credential ? credential : placeholder,
        output: spec.binary ? `result.${spec.binary}` : undefined,
      })
    : '';

  return (
    <section class="stack">
      <form class="card stack" onSubmit={run}>
        <div class="row">
          <label>
            Operation
            <select value={operation} onChange={(e) => setOperation(e.currentTarget.value as Operation)}>
              {(Object.keys(OPERATIONS) as Operation[]).map((op) => (
                <option key={op} value={op}>
                  {OPERATIONS[op].label}
                </option>
              ))}
            </select>
          </label>
          <label>
            Run with
            <select value={credentialChoice} onChange={(e) => setCredentialChoice(e.currentTarget.value)}>
              {freshKey ? <option value="fresh">Key “{freshKey.name}” (created in this tab)</option> : null}
              <option value="session">My session (signed in)</option>
              <option value="paste">An API key I paste</option>
            </select>
          </label>
        </div>
        {credentialChoice === 'paste' ? (
          <label>
            API key
            <input type="password" class="mono" autocomplete="off" spellcheck={false} value={pastedKey} onInput={(e) => setPastedKey(e.currentTarget.value)} placeholder="pk_…" />
          </label>
        ) : null}
        {operation === 'search' ? (
          <label>
            Search query
            <input required value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
          </label>
        ) : (
          <>
            <div class="row">
              <label class="grow">
                URL
                <input type="url" required inputMode="url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
              </label>
              <label>
                Wait time (ms)
                <input type="number" min={0} max={5000} step={100} value={waitTime} onInput={(e) => setWaitTime(e.currentTarget.value)} />
              </label>
            </div>
            {operation === 'screenshot' ? (
              <label class="check">
                <input type="checkbox" checked={fullPage} onChange={(e) => setFullPage(e.currentTarget.checked)} /> Full page
              </label>
            ) : null}
            {operation === 'markdown' ? (
              <label class="check">
                <input type="checkbox" checked={onlyMainContent} onChange={(e) => setOnlyMainContent(e.currentTarget.checked)} /> Only the main
                content
              </label>
            ) : null}
            {operation === 'ai-extract' ? (
              <label>
                Prompt
                <textarea rows={3} required value={prompt} onInput={(e) => setPrompt(e.currentTarget.value)} />
              </label>
            ) : null}
            {operation === 'scrape' ? (
              <label>
                CSS selectors, one per line
                <textarea rows={3} class="mono" value={selectors} onInput={(e) => setSelectors(e.currentTarget.value)} />
              </label>
            ) : null}
          </>
        )}
        <details>
          <summary>More options (JSON)</summary>
          <label>
            Extra request fields
            <textarea
              rows={3}
              class="mono"
              placeholder='{"waitUntil": "networkidle", "maxAge": 0}'
              aria-describedby="extra-hint"
              value={extra}
              onInput={(e) => setExtra(e.currentTarget.value)}
            />
          </label>
          <p id="extra-hint" class="muted small">
            Merged into the request body; see <a href="/docs">the API reference</a> for every field.
          </p>
        </details>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Running…' : 'Run'}
        </button>
      </form>

      <div class="card stack">
        <h2>Equivalent curl command</h2>
        {bodyProblem ? <p class="notice notice-error">{bodyProblem}</p> : <pre class="curl" role="region" aria-label="curl command" tabIndex={0}>
            {curl}
          </pre>}
        <div class="row center">
          <CopyButton text={curl} label="Copy curl command" />
          <label class="check">
            <input type="checkbox" checked={reveal} onChange={(e) => setReveal(e.currentTarget.checked)} /> Show the secret in the command
          </label>
        </div>
      </div>

      <div aria-live="polite" class="stack">
        <ErrorMessage error={error} />
        {result ? <ResultView result={result} url={url} /> : null}
      </div>
    </section>
  );
}

function ResultView({ result, url }: { result: Result; url: string }) {
  const json = result.json === undefined ? '' : JSON.stringify(result.json, null, 2);
  const data = result.json as { markdown?: string; content?: string } | undefined;
  const facts = [
    `${result.ms} ms`,
    result.creditsCost !== undefined && Number.isFinite(result.creditsCost) ? `${result.creditsCost} credit${result.creditsCost === 1 ? '' : 's'}` : '',
    result.cache ? `cache ${result.cache.toLowerCase()}` : '',
    result.fileId ? `stored as file ${result.fileId}` : '',
  ].filter(Boolean);
  return (
    <section class="card stack result" aria-labelledby="result-title">
      <h2 id="result-title">Result</h2>
      <p class="muted small">{facts.join(' · ')}</p>
      {result.operation === 'screenshot' && result.blobUrl ? (
        <img class="shot" src={result.blobUrl} alt={`Screenshot of ${url}`} />
      ) : result.operation === 'pdf' && result.blobUrl ? (
        <>
          <iframe class="pdf" src={result.blobUrl} title={`PDF of ${url}`} />
          <a href={result.blobUrl} target="_blank" rel="noopener">
            Open the PDF in a new tab
          </a>
        </>
      ) : result.operation === 'markdown' && typeof data?.markdown === 'string' ? (
        <Tabs
          label="Markdown result"
          idPrefix="result"
          tabs={[
            { id: 'rendered', label: 'Rendered', render: () => <Markdown source={data.markdown!} /> },
            { id: 'raw', label: 'Markdown', render: () => <pre class="raw">{data.markdown}</pre> },
            { id: 'json', label: 'JSON', render: () => <pre class="raw">{json}</pre> },
          ]}
        />
      ) : result.operation === 'content' && typeof data?.content === 'string' ? (
        <Tabs
          label="HTML result"
          idPrefix="result"
          tabs={[
            { id: 'html', label: 'HTML', render: () => <pre class="raw">{data.content}</pre> },
            { id: 'json', label: 'JSON', render: () => <pre class="raw">{json}</pre> },
          ]}
        />
      ) : (
        <pre class="raw" role="region" aria-label="JSON result" tabIndex={0}>
          {json}
        </pre>
      )}
    </section>
  );
}
