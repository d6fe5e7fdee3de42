import { useEffect, useState } from 'preact/hooks';
import { type CreditInfo, apiRequest } from '../api';
import { describeError, formatDate, formatNumber } from '../format';
import { ErrorMessage } from './ErrorMessage';

interface Usage {
  credits: CreditInfo;
  /** From the X-RateLimit-* headers of the same answer: the sessions' hourly window as enforced. */
  hourlyLimit?: number;
  remainingThisHour?: number;
  resetsAt?: number;
}

function headerNumber(headers: Headers, name: string): number | undefined {
  const value = Number(headers.get(name));
  return headers.has(name) && Number.isFinite(value) ? value : undefined;
}

export function CreditsScreen({ token }: { token: string }) {
  const [usage, setUsage] = useState<Usage>();
  const [error, setError] = useState<Error>();

  async function load() {
    setError(undefined);
    try {
      const { data, headers } = await apiRequest<CreditInfo>('GET', '/v1/user/credits', { token });
      setUsage({
        credits: data,
        hourlyLimit: data.limits?.requestsPerHour ?? headerNumber(headers, 'x-ratelimit-limit'),
        remainingThisHour: headerNumber(headers, 'x-ratelimit-remaining'),
        resetsAt: headerNumber(headers, 'x-ratelimit-reset'),
      });
    } catch (caught) {
      setError(describeError(caught));
    }
  }
  useEffect(() => void load(), [token]);

  const limits = usage?.credits.limits;
  return (
    <section class="stack">
      <ErrorMessage error={error} />
      {!usage ? (
        error ? null : <p aria-live="polite">Loading credits…</p>
      ) : (
        <>
          <div class="tiles">
            <div class="card tile">
              <h2>Balance</h2>
              <p class="big" aria-describedby="balance-unit">
                {formatNumber(usage.credits.balance)}
              </p>
              <p id="balance-unit" class="muted">
                credits{limits ? ` of ${formatNumber(limits.monthlyCredits)} a month` : ''}
              </p>
            </div>
            <div class="card tile">
              <h2>Plan</h2>
              <p class="big plan">{usage.credits.plan}</p>
              <p class="muted">Last refill {formatDate(usage.credits.lastRefill)}</p>
            </div>
          </div>
          <div class="card">
            <h2>Plan limits</h2>
            <dl class="facts">
              <dt>Requests per hour</dt>
              <dd>{usage.hourlyLimit !== undefined ? formatNumber(usage.hourlyLimit) : 'Unknown'}</dd>
              <dt>Left this hour</dt>
              <dd>
                {usage.remainingThisHour !== undefined ? formatNumber(usage.remainingThisHour) : 'Unknown'}
                {usage.resetsAt ? <span class="muted"> (window resets {formatDate(new Date(usage.resetsAt * 1000).toISOString())})</span> : null}
              </dd>
              {limits?.accountRequestsPerHour !== undefined ? (
                <>
                  <dt>Per hour, all keys together</dt>
                  <dd>{formatNumber(limits.accountRequestsPerHour)}</dd>
                </>
              ) : null}
              <dt>Requests at once</dt>
              <dd>{limits ? formatNumber(limits.concurrency) : 'Unknown'}</dd>
              <dt>Stored files kept for</dt>
              <dd>{limits ? `${limits.fileRetentionDays} days` : 'Unknown'}</dd>
            </dl>
            <p class="muted small">
              Requests per hour count per API key; your signed-in sessions count together as one more. All keys and
              sessions of the account together stay within the account's hourly total. Over a limit the API answers 429
              with Retry-After.
            </p>
          </div>
          <button type="button" class="secondary refresh" onClick={load}>
            Refresh
          </button>
        </>
      )}
    </section>
  );
}
